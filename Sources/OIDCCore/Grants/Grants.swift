import Foundation

/// What an authorization code stands for until it is exchanged (at most ``CodeGrant/lifetime``):
/// who signed in, for which client and redirect URI, with which PKCE challenge and nonce.
/// Stored under the SHA-256 of the code, never the code.
public struct CodeGrant: Sendable, Equatable {
    /// At most 60 s (RFC 9700 §2.1.1 recommends a short life; the exchange takes a second).
    public static let lifetime: TimeInterval = 60

    /// Names everything this sign-in issues (the code, then its refresh tokens): revoked whole
    /// when the code is presented twice or a used refresh token comes back.
    public var family: Data
    public var clientID: String
    public var userID: Int64
    public var redirectURI: String
    public var codeChallenge: String?
    public var nonce: String?
    public var scopes: [String]
    /// When the person signed in (seconds since 1970).
    public var authTime: Double
    /// How: `sms` or `passkey` (the ID token's `amr`).
    public var method: String
    public var expiresAt: Double

    public init(
        family: Data, clientID: String, userID: Int64, redirectURI: String, codeChallenge: String?, nonce: String?,
        scopes: [String], authTime: Double, method: String, expiresAt: Double
    ) {
        self.family = family
        self.clientID = clientID
        self.userID = userID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.scopes = scopes
        self.authTime = authTime
        self.method = method
        self.expiresAt = expiresAt
    }
}

/// What a refresh token stands for (`offline_access`); each use replaces it by a new one.
public struct RefreshGrant: Sendable, Equatable {
    /// 30 days, like a signed-in session's longest life.
    public static let lifetime: TimeInterval = 30 * 86_400

    public var family: Data
    public var clientID: String
    public var userID: Int64
    public var scopes: [String]
    public var authTime: Double
    public var method: String
    public var expiresAt: Double

    public init(
        family: Data, clientID: String, userID: Int64, scopes: [String], authTime: Double, method: String,
        expiresAt: Double
    ) {
        self.family = family
        self.clientID = clientID
        self.userID = userID
        self.scopes = scopes
        self.authTime = authTime
        self.method = method
        self.expiresAt = expiresAt
    }
}

/// What presenting a code or refresh token found.
public enum Taken<Grant: Sendable & Equatable>: Sendable, Equatable {
    /// Unused until now (now used), with the person's phone number (E.164).
    case fresh(Grant, phone: String)
    /// Used before: an attacker or a replay. Its family must be revoked.
    case reused(family: Data)
    /// Unknown, expired and purged, or of a revoked family.
    case unknown
}

/// An app the person let have their phone number, or a first-party one signed in for them.
public struct Consent: Sendable, Equatable {
    public var clientID: String
    public var scopes: [String]
    public var grantedAt: Double

    public init(clientID: String, scopes: [String], grantedAt: Double) {
        self.clientID = clientID
        self.scopes = scopes
        self.grantedAt = grantedAt
    }
}

/// Where the provider keeps codes, refresh tokens, their families and consents: every instance
/// sees the same (SQLite, or PostgreSQL for several). Each method is one transaction; the
/// decisions are ``OIDCRules``'.
public protocol OIDCStore: Sendable {
    /// Stores a new code (and its family).
    func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) async throws
    /// Marks the code used and says what it was; a code already used, or of a revoked family,
    /// is never `fresh`.
    func takeCode(_ hash: Data, at now: Double) async throws -> Taken<CodeGrant>
    func saveRefresh(_ hash: Data, _ grant: RefreshGrant) async throws
    /// Marks the refresh token used and says what it was.
    func takeRefresh(_ hash: Data, at now: Double) async throws -> Taken<RefreshGrant>
    /// Revokes everything a family issued.
    func revoke(family: Data, at now: Double) async throws
    /// The person's phone (E.164) when `family` is live (not revoked) and theirs; `nil` otherwise.
    func userinfo(family: Data) async throws -> (userID: Int64, phone: String)?
    func hasConsent(user: Int64, client: String, scopes: [String]) async throws -> Bool
    func grantConsent(user: Int64, client: String, scopes: [String], at now: Double) async throws
    /// Removes the consent and revokes every family of the person for that client.
    func revokeConsent(user: Int64, client: String, at now: Double) async throws
    /// The apps the person let have their phone number (consents), and the first-party apps
    /// that hold a live refresh token for them (as consents with no scopes, since their oldest
    /// live grant); newest first.
    func connectedApps(user: Int64, at now: Double) async throws -> [Consent]
    /// Deletes codes and refresh tokens past their life (and families with nothing left).
    func purge(before now: Double) async throws -> Int
}

/// Scopes kept as one space-separated text, and how long what was used is kept.
public enum OIDCScopes {
    /// Codes are kept a day past their minute, so one presented again within the day is seen
    /// for what it is (a replay) and revokes what it issued.
    public static let usedCodesKept: TimeInterval = 86_400

    /// `had` with `more` added, in the provider's order.
    public static func union(_ had: [String], _ more: [String]) -> [String] {
        let all = Set(had + more)
        return AuthorizationRequest.supportedScopes.filter(all.contains)
    }
}
