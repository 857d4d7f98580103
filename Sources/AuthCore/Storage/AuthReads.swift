import Foundation

/// What one sign-in decision needs to read, named by the rules (``SignInRules``) so that a
/// store runs one plain statement per item and knows no limit or window itself.
public struct AuthReads: Sendable, Equatable {
    /// The session with this storage key.
    public var session: Data?
    /// The code stored for this phone number (E.164).
    public var code: String?
    /// The n-th newest code sent to a phone number since a time (the per-phone sending limit).
    public var phoneSends: RecentEvents?
    /// The n-th newest code asked for from a client address since a time (per-client limit).
    public var clientSends: RecentEvents?
    /// The n-th newest wrong code for a phone number since a time (the lock after failures).
    public var phoneFailures: RecentEvents?
    /// The n-th newest sign-in a client address started since a time (the per-client limit on
    /// pending sessions).
    public var clientSignIns: RecentEvents?
    /// What the transaction holds while it runs, so that two requests for the same phone
    /// number or from the same client run one after the other on every instance.
    public var locks: [AuthLock]

    public init(
        session: Data? = nil, code: String? = nil, phoneSends: RecentEvents? = nil,
        clientSends: RecentEvents? = nil, phoneFailures: RecentEvents? = nil, locks: [AuthLock] = [],
        clientSignIns: RecentEvents? = nil
    ) {
        self.session = session
        self.code = code
        self.phoneSends = phoneSends
        self.clientSends = clientSends
        self.phoneFailures = phoneFailures
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

/// A lock a transaction holds until it ends.
public enum AuthLock: Sendable, Equatable {
    case phone(String)
    case client(String)
}

/// What a store found for an ``AuthReads``; times are seconds since 1970, as stored.
public struct AuthSnapshot: Sendable, Equatable {
    public var session: SessionRecord?
    public var code: StoredCode?
    /// The time of the phone's send at the asked position, if there is one.
    public var phoneSendAt: Double?
    public var clientSendAt: Double?
    public var phoneFailureAt: Double?
    public var clientSignInAt: Double?

    public init(
        session: SessionRecord? = nil, code: StoredCode? = nil, phoneSendAt: Double? = nil,
        clientSendAt: Double? = nil, phoneFailureAt: Double? = nil, clientSignInAt: Double? = nil
    ) {
        self.session = session
        self.code = code
        self.phoneSendAt = phoneSendAt
        self.clientSendAt = clientSendAt
        self.phoneFailureAt = phoneFailureAt
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

    public init(digest: Data, sentAt: Double, expiresAt: Double, failedAttempts: Int) {
        self.digest = digest
        self.sentAt = sentAt
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
    }
}
