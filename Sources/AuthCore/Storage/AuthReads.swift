import DeliveryCore
import Foundation

/// What one sign-in decision needs to read, named by the rules (``SignInRules``) so that a
/// store runs one plain statement per item and knows no limit or window itself.
public struct AuthReads: Sendable, Equatable {
    /// The session with this storage key.
    public var session: Data?
    /// The code stored for this phone number (E.164).
    public var code: String?
    /// The remembered device with this storage key (the SHA-256 of its cookie's token).
    public var device: Data?
    /// Every live session and remembered device of this user ("Your devices").
    public var signedInPlaces: PlacesRead?
    /// The n-th newest code sent to a phone number since a time (the per-phone sending limit).
    public var phoneSends: RecentEvents?
    /// The n-th newest code asked for from a client address since a time (per-client limit).
    public var clientSends: RecentEvents?
    /// The n-th newest code sent to a number of an exchange since a time; `subject` is the
    /// exchange's prefix (`+1530555`), matched against the start of each phone number.
    public var exchangeSends: RecentEvents?
    /// What texts and calls to anyone cost in the last hour, and in the last day (the budget).
    public var textsInHour: AllSends?
    public var textsInDay: AllSends?
    /// The text or call with this reference, with its delivery (a provider's status callback).
    public var send: SendReference?
    /// The exchange's settled codes (the pumping breaker).
    public var exchangeConversion: SettledCodes?
    /// The n-th newest call to a phone number since a time (the per-number call limit).
    public var phoneCalls: RecentEvents?
    /// Every number's settled codes, and the final statuses of every send, since a time (the
    /// operators' conversion and delivery rates).
    public var health: HealthWindow?
    /// The code held by this holder (the digest of the API's `verification_id`), whatever its
    /// number, with its send.
    public var heldCode: Data?
    /// The n-th newest wrong code for a phone number since a time (the lock after failures).
    public var phoneFailures: RecentEvents?
    /// The n-th newest wrong code from a client since a time.
    public var clientFailures: RecentEvents?
    /// The n-th newest sign-in a client address started since a time (the per-client limit on
    /// pending sessions).
    public var clientSignIns: RecentEvents?
    /// What the transaction holds while it runs, so that two requests for the same phone
    /// number or from the same client run one after the other on every instance.
    public var locks: [AuthLock]

    public init(
        session: Data? = nil, code: String? = nil, device: Data? = nil, signedInPlaces: PlacesRead? = nil,
        phoneSends: RecentEvents? = nil,
        clientSends: RecentEvents? = nil, exchangeSends: RecentEvents? = nil, textsInHour: AllSends? = nil,
        textsInDay: AllSends? = nil, phoneFailures: RecentEvents? = nil, clientFailures: RecentEvents? = nil,
        locks: [AuthLock] = [], clientSignIns: RecentEvents? = nil, send: SendReference? = nil,
        heldCode: Data? = nil, exchangeConversion: SettledCodes? = nil, phoneCalls: RecentEvents? = nil,
        health: HealthWindow? = nil
    ) {
        self.health = health
        self.phoneCalls = phoneCalls
        self.exchangeConversion = exchangeConversion
        self.send = send
        self.heldCode = heldCode
        self.session = session
        self.code = code
        self.device = device
        self.signedInPlaces = signedInPlaces
        self.phoneSends = phoneSends
        self.clientSends = clientSends
        self.exchangeSends = exchangeSends
        self.textsInHour = textsInHour
        self.textsInDay = textsInDay
        self.phoneFailures = phoneFailures
        self.clientFailures = clientFailures
        self.locks = locks
        self.clientSignIns = clientSignIns
    }
}

/// "When did the event at `position` (0 = the newest) among `subject`'s events after `since`
/// happen?": one indexed row, however many events there are. A sliding-window limit of N is
/// full when position N-1 exists.
public struct RecentEvents: Sendable, Equatable {
    /// The phone number or client address the events belong to.
    public var subject: String
    /// Seconds since 1970; only events strictly after it count.
    public var since: Double
    public var position: Int

    public init(subject: String, since: Double, position: Int) {
        self.subject = subject
        self.since = since
        self.position = position
    }
}

/// "What did the texts and calls to anyone after `since` cost, in texts (a call costs
/// ``SignInPolicy/callCost``), and counting from the newest, at which send did the cost reach
/// `reaching`?": the spend budget's window, through the time index. `reaching` is the budget
/// less what the new send costs, plus one: once that send leaves the window, the new one fits.
/// A store may stop adding at `reaching`; the rules need no more, since a send goes out (and its
/// cost is used) only while the window holds less.
public struct AllSends: Sendable, Equatable {
    public var since: Double
    public var reaching: Int

    public init(since: Double, reaching: Int) {
        self.since = since
        self.reaching = reaching
    }
}

/// What a store found for an ``AllSends``.
public struct SendCount: Sendable, Equatable {
    /// What the sends in the window cost, added up at least to `reaching`: exact whenever the
    /// window holds less.
    public var count: Int
    /// The time of the send at which the cost, counted from the newest, reached `reaching`; `nil`
    /// while the window holds less.
    public var reachedAt: Double?

    public init(count: Int, reachedAt: Double?) {
        self.count = count
        self.reachedAt = reachedAt
    }
}

/// A lock a transaction holds until it ends.
public enum AuthLock: Sendable, Equatable {
    case phone(String)
    case client(String)
    /// Every send: the budget is one count shared by all numbers and clients, so sends run one
    /// after another (each transaction is a few statements; the text goes out after it).
    case allSends
    /// One text or call's delivery: two reports of it are decided one after the other.
    case send(SendReference)
}

/// What a store found for an ``AuthReads``; times are seconds since 1970, as stored.
public struct AuthSnapshot: Sendable, Equatable {
    public var session: SessionRecord?
    public var code: StoredCode?
    public var device: DeviceRecord?
    /// The user's signed-in sessions and remembered devices, when ``AuthReads/signedInPlaces`` asked.
    public var places: SignedInPlaces?
    /// The time of the phone's send at the asked position, if there is one.
    public var phoneSendAt: Double?
    public var clientSendAt: Double?
    public var exchangeSendAt: Double?
    public var textsInHour: SendCount?
    public var textsInDay: SendCount?
    public var phoneFailureAt: Double?
    public var clientFailureAt: Double?
    public var clientSignInAt: Double?
    /// The text or call ``AuthReads/send`` named, if it is on record.
    public var send: SendRecord?
    /// The code ``AuthReads/heldCode`` named, and the number (E.164) it is for.
    public var heldCode: HeldCode?
    /// What ``AuthReads/exchangeConversion`` counted.
    public var exchangeConversion: Conversion?
    /// The time of the phone's call at the asked position, if there is one.
    public var phoneCallAt: Double?
    /// What ``AuthReads/health`` counted.
    public var conversion: Conversion?
    public var deliveries: Deliveries?

    public init(
        session: SessionRecord? = nil, code: StoredCode? = nil, device: DeviceRecord? = nil,
        places: SignedInPlaces? = nil, phoneSendAt: Double? = nil,
        clientSendAt: Double? = nil, exchangeSendAt: Double? = nil, textsInHour: SendCount? = nil,
        textsInDay: SendCount? = nil, phoneFailureAt: Double? = nil, clientFailureAt: Double? = nil,
        clientSignInAt: Double? = nil, send: SendRecord? = nil, exchangeConversion: Conversion? = nil,
        phoneCallAt: Double? = nil
    ) {
        self.phoneCallAt = phoneCallAt
        self.send = send
        self.exchangeConversion = exchangeConversion
        self.session = session
        self.code = code
        self.device = device
        self.places = places
        self.phoneSendAt = phoneSendAt
        self.clientSendAt = clientSendAt
        self.exchangeSendAt = exchangeSendAt
        self.textsInHour = textsInHour
        self.textsInDay = textsInDay
        self.phoneFailureAt = phoneFailureAt
        self.clientFailureAt = clientFailureAt
        self.clientSignInAt = clientSignInAt
    }
}

/// A session row as stored, with its user's phone when it is signed in.
public struct SessionRecord: Sendable, Equatable {
    /// Set while signing in: the phone the code went to.
    public var pendingPhone: String?
    /// Set once signed in.
    public var userID: Int64?
    public var userPhone: String?
    public var lastSeenAt: Double
    /// When it ends unless used again (signed in) or when its code's grace ends (pending).
    public var expiresAt: Double
    /// When it ends whatever happens.
    public var absoluteExpiresAt: Double

    public init(
        pendingPhone: String?, userID: Int64?, userPhone: String?, lastSeenAt: Double, expiresAt: Double,
        absoluteExpiresAt: Double
    ) {
        self.pendingPhone = pendingPhone
        self.userID = userID
        self.userPhone = userPhone
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
    }
}

/// The code a phone number may sign in with, as stored: only its digest, never the code.
public struct StoredCode: Sendable, Equatable {
    public var digest: Data
    public var sentAt: Double
    public var expiresAt: Double
    public var failedAttempts: Int
    /// Who may try it (ASVS 5.0 6.6.2): the storage key of the browser session that asked, or
    /// the digest of the API's `verification_id`. `nil` for codes stored before codes were
    /// bound: anyone with the number may try those, as before.
    public var holder: Data?
    /// The last wrong try at this code (``SignInRules/wrongTry(_:against:)``): the same one again
    /// is not a new guess.
    public var lastWrongDigest: Data?
    /// The text or call that carried it, with what its provider reported (read with the code);
    /// `nil` for codes stored before sends had references, or whose send record is purged.
    public var send: SendRecord?

    public init(
        digest: Data, sentAt: Double, expiresAt: Double, failedAttempts: Int, holder: Data? = nil,
        lastWrongDigest: Data? = nil, send: SendRecord? = nil
    ) {
        self.send = send
        self.digest = digest
        self.sentAt = sentAt
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
        self.holder = holder
        self.lastWrongDigest = lastWrongDigest
    }
}

/// A code found by its holder, with the number it is for (E.164).
public struct HeldCode: Sendable, Equatable {
    public var phone: String
    public var code: StoredCode

    public init(phone: String, code: StoredCode) {
        self.phone = phone
        self.code = code
    }
}

/// "Of the codes sent to numbers starting with `prefix` after `since` and up to `settledBy` (so
/// each had its lifetime to be used), how many were, and when was the one at `position` (0 = the
/// newest) sent?": the pumping breaker's window, for an exchange (`+1530555`) or, with the
/// prefix `+1`, for every number (the operators' conversion rate).
public struct SettledCodes: Sendable, Equatable {
    public var prefix: String
    public var since: Double
    public var settledBy: Double
    public var position: Int

    public init(prefix: String, since: Double, settledBy: Double, position: Int) {
        self.prefix = prefix
        self.since = since
        self.settledBy = settledBy
        self.position = position
    }
}

/// What a store found for a ``SettledCodes``.
public struct Conversion: Sendable, Equatable {
    /// Codes sent in the window.
    public var sent: Int
    /// Of them, codes that signed someone in.
    public var verified: Int
    /// The time of the send at the asked position, if there were that many.
    public var atPosition: Double?

    public init(sent: Int, verified: Int, atPosition: Double? = nil) {
        self.sent = sent
        self.verified = verified
        self.atPosition = atPosition
    }
}

/// The operators' window: every number's settled codes (``SettledCodes`` with the prefix `+1`),
/// and the sends since `since` whose status is final.
public struct HealthWindow: Sendable, Equatable {
    public var codes: SettledCodes
    public var since: Double

    public init(codes: SettledCodes, since: Double) {
        self.codes = codes
        self.since = since
    }
}

/// The sends in a window whose provider gave a final status: delivered, or not.
public struct Deliveries: Sendable, Equatable {
    public var delivered: Int
    public var notDelivered: Int

    public init(delivered: Int, notDelivered: Int) {
        self.delivered = delivered
        self.notDelivered = notDelivered
    }
}
