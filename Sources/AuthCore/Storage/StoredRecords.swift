import Foundation

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
    /// When it was made: for a signed-in session, when the person signed in.
    public var createdAt: Double
    /// How the person signed in (a signed-in session).
    public var method: SignInMethod
    /// When the person last proved they hold the number or a passkey: the sign-in itself for a
    /// code or a passkey; for a remembered phone, the sign-in by code that remembered it. `nil`
    /// in rows written before it was kept.
    public var provedAt: Double?
    /// A pending session waiting on "Is this your account?": the account its number is on.
    public var claimUserID: Int64? = nil

    /// The last real proof's time, for OpenID Connect's `auth_time` and `max_age`: a remembered
    /// phone's session written before ``provedAt`` was kept counts as proved at 0 (never fresh).
    public var lastProof: Double {
        provedAt ?? (method == .rememberedDevice ? 0 : createdAt)
    }

    public init(
        pendingPhone: String?, userID: Int64?, userPhone: String?, lastSeenAt: Double, expiresAt: Double,
        absoluteExpiresAt: Double, createdAt: Double = 0, method: SignInMethod = .code, provedAt: Double? = nil,
        claimUserID: Int64? = nil
    ) {
        self.claimUserID = claimUserID
        self.createdAt = createdAt
        self.method = method
        self.provedAt = provedAt
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

extension StoredCode {
    /// Whether the code can still be used at `now`: not expired, and not sent after `now` (a
    /// code from before the clock was set back an hour would otherwise last an hour longer,
    /// and hold its resend wait as long): such a code counts as expired, and a new one may be
    /// sent at once.
    public func isLive(at now: Double) -> Bool {
        expiresAt > now && SignInRules.hasHappened(sentAt, by: now)
    }
}
