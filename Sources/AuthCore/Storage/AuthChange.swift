import DeliveryCore
import EventsCore
import Foundation

/// One write a sign-in decision asks for. A store turns each into one statement (``signIn``
/// into two: the user, then the session) and applies them in order; it adds no condition of
/// its own. Times are seconds since 1970.
public enum AuthChange: Sendable, Equatable {
    case deleteSession(key: Data)
    /// Counts a code sent towards the sending limits of the phone and the client, and its
    /// `cost` (in texts) towards the budget; its delivery starts as `sending`.
    case recordSend(
        phone: String, client: String?, at: Double, channel: DeliveryChannel = .sms, cost: Int = 1,
        reference: SendReference? = nil)
    /// Records what the provider reported of a send: its status, and its id and error code when
    /// given (an id already on record is kept).
    case recordDelivery(reference: SendReference, report: DeliveryReport, at: Double)
    /// Notes that the code the send carried signed someone in (conversion, the pumping breaker).
    case markVerified(reference: SendReference, at: Double)
    /// Takes back the newest ``recordSend`` of the phone (the text never went out).
    case forgetNewestSend(phone: String)
    /// Stores the phone's code, replacing any older one (and its wrong tries).
    case storeCode(phone: String, code: StoredCode)
    case deleteCode(phone: String)
    /// Makes the session (new, or existing and then no longer signed in) pending for the phone.
    case makePending(session: Data, phone: String, at: Double, until: Double)
    /// One more wrong try on the phone's code; `digest` is what is kept of it as the last one
    /// (``SignInRules/wrongTry(_:against:)``).
    case countWrongTry(phone: String, digest: Data)
    /// A wrong code, towards the phone's lock and the client's limit after too many failures.
    case recordFailure(phone: String, client: String?, at: Double)
    /// An operator lifted the phone's lock: its wrong codes are forgotten (the lock's window
    /// and its code's tries).
    case liftLock(phone: String)
    /// Creates the user on first sign-in (or notes the sign-in) and a signed-in session for it.
    /// `userAgent` names the browser on "Your devices"; `api` marks an API token; `method` is how
    /// the person proved it (``SignInMethod``).
    /// `provedAt`: the last real proof (``SessionRecord/provedAt``); `nil` means `at`.
    case signIn(
        phone: String, session: Data, at: Double, expiresAt: Double, absoluteExpiresAt: Double,
        userAgent: String? = nil, api: Bool = false, method: SignInMethod = .code, provedAt: Double? = nil)
    /// Remembers this browser for the person with `phone` (who exists: it follows a ``signIn``).
    /// `session` is the signed-in session the same sign-in made: signing it out forgets the device.
    case rememberDevice(
        key: Data, phone: String, at: Double, until: Double, userAgent: String? = nil, session: Data? = nil)
    /// Gives a remembered device a new key (its old one stops working); its expiry stays.
    case rotateDevice(old: Data, new: Data, at: Double, session: Data? = nil)
    /// Forgets a remembered device.
    case forgetDevice(key: Data)
    /// Refreshes a signed-in session's idle timer (a session no longer signed in is left alone).
    case touchSession(key: Data, at: Double, expiresAt: Double)
    /// Counts a sign-in started (a new pending session) towards the client's limit.
    case recordSignInStart(client: String, at: Double)
    /// Stores a passkey challenge under its key (its owner's and its own: an owner may hold
    /// several, one per open page).
    case storePasskeyChallenge(key: Data, challenge: PasskeyChallenge)
    /// Uses up a challenge (every answer to it uses it, right or wrong).
    case deletePasskeyChallenge(key: Data)
    /// Gives the user this WebAuthn user handle, unless they have one.
    case givePasskeyHandle(user: Int64, handle: Data)
    case addPasskey(NewPasskey)
    /// A sign-in with the passkey: its new counter and when.
    case usePasskey(id: Int64, signCount: UInt32, at: Double)
    /// A counter that did not go up: the passkey signs no one in from now on.
    case flagPasskey(id: Int64, at: Double)
    /// Renames the passkey, if it is the user's.
    case renamePasskey(id: Int64, user: Int64, name: String)
    /// Removes the passkey, if it is the user's.
    case removePasskey(id: Int64, user: Int64)
    /// "Not now" to the passkey offer on Home: it is not made again.
    case dismissPasskeyOffer(user: Int64, at: Double)
    /// Moves the user's account from the number `from` to `to` (and notes the change). A store
    /// throws ``NumberChangeRace`` when the user no longer holds `from`, so the whole decision
    /// is undone.
    /// `from` nil: the account is detached, and attaches to `to`.
    case moveAccount(user: Int64, from: String?, to: String, at: Double)
    /// Uses up one of the user's recovery codes (by its digest).
    case spendRecoveryCode(user: Int64, digest: Data, at: Double)
    /// A wrong recovery try for the typed number, towards its limit and the client's.
    /// `tried`: the try's digest (``SignInRules/recoveryTry(_:phone:)``), so the same try sent
    /// again is not counted again.
    case recordRecoveryFailure(phone: String, client: String?, at: Double, tried: Data? = nil)
    /// "Is this your account?": a pending session for `phone` that waits on the answer about
    /// `user`'s account, until `until`.
    case makeClaim(session: Data, phone: String, user: Int64, at: Double, until: Double)
    /// "This number is new to me": `user`'s account is detached from `phone` (kept, frozen,
    /// reachable again only through "Lost your phone or number?"). A store throws
    /// ``NumberChangeRace`` when the account is no longer on `phone`.
    case detachAccount(user: Int64, phone: String, at: Double)
    /// Every app's grant to `user` ends (their refresh tokens stop working).
    case revokeApps(user: Int64, at: Double)
    /// A right code to `user`'s number at `at` (one a sign-in did not write itself): the
    /// recycled-number guard counts from it.
    case numberProved(user: Int64, at: Double)
    /// What happened, kept with the change that made it happen (EventsCore).
    case recordEvent(Event)
    /// `event`, unless its number already has one of its type at or after `since` (a lock is
    /// noted once, however many tries it refuses).
    case recordEventOnce(Event, since: Double)
    /// The number's events since `since` that no account owned (the codes of a first sign-in,
    /// sent before its account existed) become the account's the number is on now.
    case adoptEvents(phone: String, since: Double)
    /// The provider failed on `channel`, `failures` times in a row now; sending on it pauses
    /// until `pausedUntil` (nil: not paused).
    case providerFailed(channel: DeliveryChannel, failures: Int, pausedUntil: Double?)
    /// The send after a pause is out trying the provider: the others wait until `until`.
    case holdProvider(channel: DeliveryChannel, until: Double)
    /// The provider took a send on `channel`: its failures are forgotten, any pause ends.
    case providerRecovered(channel: DeliveryChannel)
}

/// The account was no longer on the number a change of number started from (another change
/// got there first): nothing was written.
public struct NumberChangeRace: Error {
    public init() {}
}

/// What a decision returns: the changes to write and the answer to give once they are written.
public struct AuthDecision<Outcome: Sendable>: Sendable {
    public var changes: [AuthChange]
    public var outcome: Outcome

    public init(_ outcome: Outcome, changes: [AuthChange] = []) {
        self.changes = changes
        self.outcome = outcome
    }
}

extension AuthDecision: Equatable where Outcome: Equatable {}

/// A decision's outcome once its changes are written, with what the database assigned.
public struct Applied<Outcome: Sendable>: Sendable {
    public var outcome: Outcome
    /// The id of the user an ``AuthChange/signIn(phone:session:at:expiresAt:absoluteExpiresAt:userAgent:api:method:provedAt:)``
    /// wrote, if one did.
    public var signedInUserID: Int64?
    /// The events written, by type: a ``AuthChange/recordEventOnce(_:since:)`` already noted is
    /// not among them (`events_total` counts these).
    public var eventsRecorded: [EventType]

    public init(_ outcome: Outcome, signedInUserID: Int64? = nil, eventsRecorded: [EventType] = []) {
        self.outcome = outcome
        self.signedInUserID = signedInUserID
        self.eventsRecorded = eventsRecorded
    }
}

/// What a purge removed: rows of every kind, and the signed-in sessions among them that ended
/// by expiry (each noted as a `session.ended` event).
public struct Purged: Sendable, Equatable {
    public var rows: Int
    public var sessionsEnded: Int

    public init(rows: Int, sessionsEnded: Int) {
        self.rows = rows
        self.sessionsEnded = sessionsEnded
    }
}

/// What the purge removes: rows whose time is at or before these (seconds since 1970).
public struct PurgeCutoffs: Sendable, Equatable {
    public var sessionsExpiredBy: Double
    public var codesExpiredBy: Double
    public var sendsBefore: Double
    public var failuresBefore: Double
    public var signInStartsBefore: Double
    public var recoveryFailuresBefore: Double
    /// Events older than ``SignInPolicy/eventRetention``.
    public var eventsBefore: Double

    public init(
        sessionsExpiredBy: Double, codesExpiredBy: Double, sendsBefore: Double, failuresBefore: Double,
        signInStartsBefore: Double, recoveryFailuresBefore: Double? = nil, eventsBefore: Double = 0
    ) {
        self.eventsBefore = eventsBefore
        self.recoveryFailuresBefore = recoveryFailuresBefore ?? failuresBefore
        self.sessionsExpiredBy = sessionsExpiredBy
        self.codesExpiredBy = codesExpiredBy
        self.sendsBefore = sendsBefore
        self.failuresBefore = failuresBefore
        self.signInStartsBefore = signInStartsBefore
    }
}
