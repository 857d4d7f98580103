import Foundation

/// Something that happened to an account or a number, as recorded: in the same transaction as the
/// change it describes, so no event is kept for a change that was undone, and no change is made
/// without its event. What a person sees of it ("Recent activity") and what an operator exports
/// (`webapp events`) are read from these rows.
public struct Event: Sendable, Equatable {
    public var type: EventType
    /// Seconds since 1970.
    public var at: Double
    /// The account, when the event is an account's; nil with `phone` set lets the store name the
    /// account the number is on when it writes the row (a first sign-in makes it in the same
    /// transaction).
    public var user: Int64?
    /// The number it concerns (E.164): a code's, a sign-in's, a change's new number.
    public var phone: String?
    /// The type's detail: how a sign-in was proved (``SignInWay``), why a session ended
    /// (``SessionEnd``), a code's channel (``CodeChannel``), how a claim was answered, the apps
    /// told of a deletion (their client ids, space-separated).
    public var detail: String?
    /// A code's send reference, by which its delivery status is read when it is shown; for a
    /// session's end, the session's `sid`, by which the apps it signed in to are told.
    public var reference: String?
    /// The OpenID Connect client, for an app's event.
    public var app: String?
    /// The browser's or app's `User-Agent` (at most 512 bytes kept).
    public var userAgent: String?
    /// The client's network, never more exact than an IPv4 /24 or an IPv6 /48 (``ClientNetwork``).
    public var network: String?
    /// An operator's action: who acted (the operator's number, or `shell`).
    public var actor: String? = nil
    /// An operator's action: why, as they typed it.
    public var reason: String? = nil

    public init(
        _ type: EventType, at: Double, user: Int64? = nil, phone: String? = nil, detail: String? = nil,
        reference: String? = nil, app: String? = nil, userAgent: String? = nil, client: String? = nil
    ) {
        self.type = type
        self.at = at
        self.user = user
        self.phone = phone
        self.detail = detail
        self.reference = reference
        self.app = app
        self.userAgent = userAgent.map(Self.kept)
        self.network = client.flatMap(ClientNetwork.of)
    }
}

extension Event {
    /// A user agent as kept (an event's, a session's, a remembered device's): its first 512
    /// bytes, cut between characters, so within every column's limit however it is counted
    /// (bytes, or code points as SQLite's and PostgreSQL's `length`; 512 characters of Swift's
    /// can be many more: a flag is two code points, eight bytes).
    public static func kept(_ agent: String) -> String {
        var kept = Substring(agent.utf8.count > 512 ? String(decoding: Array(agent.utf8.prefix(512)), as: UTF8.self) : agent)
        while kept.utf8.count > 512 { kept = kept.dropLast() }
        return String(kept)
    }
}

/// What kind of thing happened. The raw values are stored and exported (`webapp events
/// --type`): they never change meaning.
public enum EventType: String, Sendable, CaseIterable, Codable {
    /// A signed-in session began (``SignInWay`` in the detail).
    case signedIn = "session.created"
    /// A signed-in session ended (``SessionEnd`` in the detail).
    case signedOut = "session.ended"
    /// A code was texted or read out on a call (``CodeChannel`` in the detail, the send's
    /// reference for its delivery status).
    case codeSent = "code.sent"
    /// A wrong code was typed for the number.
    case wrongCode = "code.wrong"
    /// Too many wrong codes: sign-in to the number is locked for a while.
    case locked = "phone.locked"
    /// "Remember this phone": the browser signs in again without a code.
    case deviceRemembered = "device.remembered"
    /// A remembered phone was forgotten.
    case deviceForgotten = "device.forgotten"
    case passkeyCreated = "passkey.created"
    case passkeyRemoved = "passkey.removed"
    /// A passkey whose counter went back was turned off.
    case passkeyTurnedOff = "passkey.turned_off"
    /// The account moved to another number (the new one is `phone`).
    case numberChanged = "phone.changed"
    /// A new set of recovery codes was made (the old ones ended).
    case recoveryCodesMade = "recovery_codes.created"
    /// "Lost your phone or number?": a recovery code proved the account.
    case recoveryProved = "recovery.proved"
    /// A wrong recovery code was typed for the number.
    case wrongRecoveryCode = "recovery.wrong"
    /// "Is this your account?" was asked after a right code.
    case claimAsked = "claim.asked"
    /// "It's mine": proved (how, in the detail).
    case claimProved = "claim.proved"
    /// "This number is new to me": the account was detached from the number (the event is the
    /// old account's) and a fresh one began.
    case accountDetached = "account.detached"
    /// An app was allowed to sign the person in (OpenID Connect consent).
    case appConnected = "app.connected"
    /// The person disconnected an app: its tokens stop working.
    case appDisconnected = "app.disconnected"
    /// The account was deleted.
    case accountDeleted = "user.deleted"
    /// An operator acted on the account (what, in the detail: ConsoleCore's `ConsoleAction`),
    /// with who and why.
    case operatorAction = "operator.action"
}

/// How a sign-in was proved.
public enum SignInWay: String, Sendable, CaseIterable {
    case text, call, passkey
    case rememberedPhone = "remembered_phone"
    case recoveryCode = "recovery_code"
    /// "Confirm it's you" by a code to the signed-in person's own number: a fresh session in
    /// place of theirs, not a new sign-in.
    case confirmedByText = "confirmed_text"
    case confirmedByCall = "confirmed_call"
}

/// Why a signed-in session ended.
public enum SessionEnd: String, Sendable, CaseIterable {
    /// "Log out" in it.
    case signedOut = "signed_out"
    /// Signed out from another browser ("Your devices": one, or everywhere else).
    case signedOutElsewhere = "signed_out_elsewhere"
    /// Its time ran out.
    case expired
    /// The account moved to a new number, was recovered, or its number went to someone new.
    case accountChanged = "account_changed"
}

/// What an operator did to a person's account, from the console or the shell (`webapp admin`):
/// the detail of an ``EventType/operatorAction`` event.
public enum OperatorAction: String, Sendable, CaseIterable {
    /// Every session ended and every remembered phone forgotten.
    case signOutEverywhere = "sign_out_everywhere"
    /// The wrong-code lock lifted and the wrong tries forgotten.
    case unlock
    case removePasskey = "remove_passkey"
    /// An app's consent and tokens ended.
    case disconnectApp = "disconnect_app"
    case deleteAccount = "delete_account"
    /// A detached or dormant account moved to a number the person proved with a code.
    case attachAccount = "attach_account"
    /// The console's apps (OpenID Connect clients in the database); the event names the app.
    case addApp = "add_app"
    case editApp = "edit_app"
    case rotateAppSecret = "rotate_app_secret"
    case turnAppOff = "turn_app_off"
    case turnAppOn = "turn_app_on"
    case deleteApp = "delete_app"
}

/// How a code went out.
public enum CodeChannel: String, Sendable, CaseIterable {
    case sms, call
}
