import Foundation
import GRDB

/// A person who has signed in at least once.
public struct User: Sendable, Equatable {
    /// Stable numeric id.
    public let id: Int64
    /// The phone the person signs in with.
    public let phone: PhoneNumber

    public init(id: Int64, phone: PhoneNumber) {
        self.id = id
        self.phone = phone
    }
}

/// What a session cookie stands for.
public enum SessionState: Sendable, Equatable {
    /// A code was sent to this phone and has not been confirmed yet.
    case pending(PhoneNumber)
    /// The person proved they hold this phone.
    case signedIn(User)
}

/// The rules storage enforces atomically; see ``SignInPolicy`` for their meaning.
public struct StoragePolicy: Sendable {
    public var codeLifetime: TimeInterval
    public var resendCooldown: TimeInterval
    public var maxAttemptsPerCode: Int
    public var sessionIdleTimeout: TimeInterval
    public var sessionLifetime: TimeInterval
    public var pendingSessionGrace: TimeInterval
    public var maxCodesPerPhone: Int
    public var codesPerPhoneWindow: TimeInterval
    public var maxCodesPerClient: Int
    public var codesPerClientWindow: TimeInterval
    public var maxFailuresPerPhone: Int
    public var failuresPerPhoneWindow: TimeInterval

    /// How stale a signed-in session's `last_seen_at` may get before a request refreshes it
    /// (and its idle expiry): keeps signed-in page views to one read, not a write each.
    public static let sessionTouchInterval: TimeInterval = 60
}

/// The decisions every ``AuthStore`` makes inside its transaction, on what it read there: one
/// place for the rules, so the SQLite and PostgreSQL stores cannot drift apart.
extension StoragePolicy {
    /// What a typed code amounts to.
    public enum CodeVerdict: Sendable, Equatable {
        /// Refused without counting a try: locked, dead or expired.
        case refused(CheckOutcome)
        /// A wrong try, to be counted; this many tries are left after it.
        case wrong(remainingAttempts: Int)
        /// The right code.
        case right
    }

    /// Judges `candidate` against the stored code: the phone's lock first, then the code's
    /// attempts, then its lifetime, then the digests (compared in constant time).
    public func judge(
        candidate: Data, stored: Data, expiresAt: Double, failedAttempts: Int, lockedUntil: Date?, now: Double
    ) -> CodeVerdict {
        if let lockedUntil { return .refused(.locked(until: lockedUntil)) }
        if failedAttempts >= maxAttemptsPerCode { return .refused(.tooManyAttempts) }
        if expiresAt <= now { return .refused(.expired) }
        guard constantTimeEquals(stored, candidate) else {
            return .wrong(remainingAttempts: max(0, maxAttemptsPerCode - failedAttempts - 1))
        }
        return .right
    }

    /// When the resend cooldown of the code sent at `sentAt` (valid until `expiresAt`) ends, if it
    /// is still running at `now`; `nil` when a new code may be sent.
    public func cooldownEnd(sentAt: Double, expiresAt: Double, now: Double) -> Double? {
        now < sentAt + resendCooldown && expiresAt > now ? sentAt + resendCooldown : nil
    }
}

/// A sending limit that refused a new code.
public enum SendLimit: Sendable, Equatable {
    /// Too many codes went to this phone number in the window.
    case phone
    /// Too many codes were asked for from this client address in the window.
    case client
}

/// Outcome of ``AuthStore/issueCode(_:)``.
public struct IssueOutcome: Sendable, Equatable {
    /// `nil`: the new code digest is stored (replacing any older one). Otherwise a code went to
    /// this phone less than the cooldown ago, nothing new was stored, and this is when the
    /// cooldown ends.
    public var cooldownUntil: Date?
    /// When the code now valid for the phone expires.
    public var codeExpiresAt: Date
    /// Whether the session made pending is `existingSession` (true) or `newSession` (false).
    public var keptExistingSession: Bool
    /// Set when a sending limit refused the code: which one, and when it allows another.
    /// Nothing was stored then.
    public var limited: (limit: SendLimit, until: Date)?

    public init(
        cooldownUntil: Date?, codeExpiresAt: Date, keptExistingSession: Bool,
        limited: (limit: SendLimit, until: Date)? = nil
    ) {
        self.cooldownUntil = cooldownUntil
        self.codeExpiresAt = codeExpiresAt
        self.keptExistingSession = keptExistingSession
        self.limited = limited
    }

    public static func == (lhs: IssueOutcome, rhs: IssueOutcome) -> Bool {
        lhs.cooldownUntil == rhs.cooldownUntil && lhs.codeExpiresAt == rhs.codeExpiresAt
            && lhs.keptExistingSession == rhs.keptExistingSession && lhs.limited?.limit == rhs.limited?.limit
            && lhs.limited?.until == rhs.limited?.until
    }
}

/// Outcome of ``AuthStore/checkCode(_:)``.
public enum CheckOutcome: Sendable, Equatable {
    /// Right code: it is consumed, the pending session is gone and a signed-in one exists.
    case signedIn(User)
    /// Wrong code; `remainingAttempts` more tries before the code is dead (0: dead now).
    case incorrect(remainingAttempts: Int)
    /// The code's lifetime has passed.
    case expired
    /// The code had already used up its attempts.
    case tooManyAttempts
    /// The phone had too many failed codes in the window; sign-in is locked until then.
    case locked(until: Date)
    /// There is no code for this phone (already used, or replaced and purged).
    case noCode
    /// The session is not pending (expired, signed out, or never existed).
    case noPendingSession
}

/// A request to store a new code for a phone and attach a session to it.
public struct IssueRequest: Sendable {
    public var phone: PhoneNumber
    public var codeDigest: Data
    /// The session that asked, if the browser already had one.
    public var existingSession: Data?
    /// Storage key to use if a new session must be created; `nil` with no `existingSession`
    /// makes no session pending (the JSON API, whose clients check the code with the number).
    public var newSession: Data?
    /// When the cooldown is running: still attach the session to the phone (a login form
    /// re-submitted for the same number) rather than refusing (an explicit resend).
    public var attachSessionDuringCooldown: Bool
    /// The client address that asked (for the per-client limit); `nil` if unknown.
    public var client: String?
    public var now: Date

    public init(
        phone: PhoneNumber, codeDigest: Data, existingSession: Data?, newSession: Data?,
        attachSessionDuringCooldown: Bool, client: String? = nil, now: Date
    ) {
        self.client = client
        self.phone = phone
        self.codeDigest = codeDigest
        self.existingSession = existingSession
        self.newSession = newSession
        self.attachSessionDuringCooldown = attachSessionDuringCooldown
        self.now = now
    }
}

/// A typed code to compare against the stored digest for the session's phone.
public struct CheckRequest: Sendable {
    /// The pending session that must be signing in with `phone`; `nil` checks by phone alone
    /// (the JSON API).
    public var session: Data?
    public var phone: PhoneNumber
    public var candidateDigest: Data
    /// Storage key of the signed-in session to create on success (a fresh id: no fixation).
    public var signedInSession: Data
    public var now: Date

    public init(session: Data?, phone: PhoneNumber, candidateDigest: Data, signedInSession: Data, now: Date) {
        self.session = session
        self.phone = phone
        self.candidateDigest = candidateDigest
        self.signedInSession = signedInSession
        self.now = now
    }
}

/// Storage for sign-in: codes, sessions and users.
///
/// Each method is one transaction, so the checks and counts it makes hold under concurrency.
/// Sessions are addressed by their storage key (a hash of the cookie value), never the token.
public protocol AuthStore: Sendable {
    /// Stores a code digest for a phone unless the resend cooldown is running, and makes the
    /// session pending for that phone.
    func issueCode(_ request: IssueRequest) async throws -> IssueOutcome

    /// Undoes ``issueCode(_:)`` after the message could not be delivered: removes the code if it
    /// is still the one with `codeDigest` (and its count against the sending limits), and the
    /// pending session made for it, so the person can try again at once from a clean state.
    func withdrawCode(phone: PhoneNumber, codeDigest: Data, pendingSession: Data?) async throws

    /// Compares a typed code with the stored one, counting a wrong try; on success consumes the
    /// code, creates the user on first sign-in and swaps the session for a signed-in one.
    func checkCode(_ request: CheckRequest) async throws -> CheckOutcome

    /// The live state of a session, refreshing its idle timer; `nil` if unknown or expired.
    func session(_ key: Data, now: Date) async throws -> SessionState?

    /// ``session(_:now:)``, and for a signed-in session also `read` for its user, in the same
    /// round trip to the database when the store can (SQLite: one read transaction on one worker
    /// thread); other stores run `read.separately` after the lookup.
    func session<Value: Sendable>(_ key: Data, now: Date, alsoReading read: SessionRead<Value>) async throws
        -> (state: SessionState, value: Value?)?

    /// Seconds until the phone may be sent another code (0 when it may now).
    func resendWait(phone: PhoneNumber, now: Date) async throws -> TimeInterval

    /// Deletes a session (sign-out). Unknown keys are ignored.
    func deleteSession(_ key: Data) async throws

    /// Deletes expired sessions and codes; returns how many rows went.
    @discardableResult
    func purgeExpired(now: Date) async throws -> Int
}

/// A read that belongs with a session lookup: the data of the page a signed-in person lands on,
/// fetched in the same round trip as the session (every database round trip costs a thread
/// hand-off; see docs/BENCHMARKS.md).
public struct SessionRead<Value: Sendable>: Sendable {
    /// Runs inside the SQLite read transaction that found the session.
    public var sqlite: (@Sendable (Database, User) throws -> Value)?
    /// For any store: run after the lookup.
    public var separately: @Sendable (User) async throws -> Value

    public init(
        sqlite: (@Sendable (Database, User) throws -> Value)? = nil,
        separately: @escaping @Sendable (User) async throws -> Value
    ) {
        self.sqlite = sqlite
        self.separately = separately
    }

    /// The same read, its result transformed (on the caller's side).
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value, User) -> Other) -> SessionRead<Other> {
        let separately = self.separately
        var sqliteOther: (@Sendable (Database, User) throws -> Other)?
        if let sqlite = self.sqlite {
            sqliteOther = { @Sendable (db: Database, user: User) throws -> Other in
                transform(try sqlite(db, user), user)
            }
        }
        return SessionRead<Other>(
            sqlite: sqliteOther,
            separately: { @Sendable (user: User) async throws -> Other in transform(try await separately(user), user) })
    }
}

extension AuthStore {
    /// Stores that cannot join the read to the lookup make two round trips.
    public func session<Value: Sendable>(_ key: Data, now: Date, alsoReading read: SessionRead<Value>) async throws
        -> (state: SessionState, value: Value?)?
    {
        guard let state = try await session(key, now: now) else { return nil }
        guard case .signedIn(let user) = state else { return (state, nil) }
        return (state, try await read.separately(user))
    }
}

/// The database did not answer in time (a server that is down, unreachable or overloaded).
/// Nothing was decided; the person may simply try again. Pages and the API answer 503.
public struct StorageUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
