import AuthCore
import EventsCore
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
    public var scopes: [Scope]
    /// When the person signed in (seconds since 1970).
    public var authTime: Double
    /// How the person signed in (the ID token's `amr`).
    public var method: SignInMethod
    public var expiresAt: Double
    /// The browser session it was granted from (its `sid`), which ends the app's session when
    /// it ends (Back-Channel Logout); nil when not known.
    public var sid: String?

    public init(
        family: Data, clientID: String, userID: Int64, redirectURI: String, codeChallenge: String?, nonce: String?,
        scopes: [Scope], authTime: Double, method: SignInMethod, expiresAt: Double, sid: String? = nil
    ) {
        self.sid = sid
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
    /// How long a family of refresh tokens lasts however often it is used (`--oidc-refresh-lifetime`,
    /// 90 days by default): then the person signs in to the app again.
    public static let familyLifetime: TimeInterval = 90 * 86_400

    public var family: Data
    public var clientID: String
    public var userID: Int64
    public var scopes: [Scope]
    public var authTime: Double
    public var method: SignInMethod
    public var expiresAt: Double

    public init(
        family: Data, clientID: String, userID: Int64, scopes: [Scope], authTime: Double, method: SignInMethod,
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

/// A code or refresh token as stored, read (locked) for the token endpoint's decision: its grant,
/// whose phone it is, and whether it was used or its family revoked. Deciding what that means
/// is ``TokenRules``'.
public struct StoredGrant<Grant: Sendable & Equatable>: Sendable, Equatable {
    public var grant: Grant
    /// The person's phone number (E.164).
    public var phone: String
    public var usedAt: Double?
    public var familyRevokedAt: Double?
    /// When the family began: the sign-in that made its code.
    public var familyCreatedAt: Double
    /// The `sid` of the browser session the family was granted from, if known.
    public var sid: String?

    public init(
        grant: Grant, phone: String, usedAt: Double?, familyRevokedAt: Double?, familyCreatedAt: Double,
        sid: String? = nil
    ) {
        self.sid = sid
        self.grant = grant
        self.phone = phone
        self.usedAt = usedAt
        self.familyRevokedAt = familyRevokedAt
        self.familyCreatedAt = familyCreatedAt
    }
}

/// What a token request changes, decided by ``TokenRules`` and written by the store in the
/// same transaction as the read it was decided on.
public enum OIDCChange: Sendable, Equatable {
    /// A code or refresh token is used once, whatever the answer.
    case markCodeUsed(hash: Data, at: Double)
    case markRefreshUsed(hash: Data, at: Double)
    /// Everything a family issued stops working (a code presented twice, a rotated refresh
    /// token that came back, another client's code).
    case revoke(family: Data, at: Double)
    /// The refresh token that replaces the one used (or the first, for `offline_access`).
    case saveRefresh(hash: Data, RefreshGrant)
}

/// A decision and the changes it needs.
public struct OIDCDecision<Outcome: Sendable>: Sendable {
    public var outcome: Outcome
    public var changes: [OIDCChange]

    public init(_ outcome: Outcome, changes: [OIDCChange] = []) {
        self.outcome = outcome
        self.changes = changes
    }
}

/// An app the person let have their phone number, or a first-party one signed in for them.
public struct Consent: Sendable, Equatable {
    public var clientID: String
    public var scopes: [Scope]
    public var grantedAt: Double

    public init(clientID: String, scopes: [Scope], grantedAt: Double) {
        self.clientID = clientID
        self.scopes = scopes
        self.grantedAt = grantedAt
    }
}

/// Where the provider keeps codes, refresh tokens, their families and consents: every instance
/// sees the same (SQLite, or PostgreSQL for several). Each method is one transaction; the token
/// endpoint's decisions are ``TokenRules``', made inside that transaction on what it read.
public protocol OIDCStore: Sendable {
    /// Stores a new code (and its family).
    func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) async throws
    /// Reads the code with this hash (locked until the transaction ends), passes it to `decide`
    /// and writes the changes it returns, in one transaction.
    func redeemCode<Outcome: Sendable>(
        _ hash: Data, decide: @escaping @Sendable (StoredGrant<CodeGrant>?) -> OIDCDecision<Outcome>
    ) async throws -> Outcome
    /// The same for a refresh token.
    func redeemRefresh<Outcome: Sendable>(
        _ hash: Data, decide: @escaping @Sendable (StoredGrant<RefreshGrant>?) -> OIDCDecision<Outcome>
    ) async throws -> Outcome
    /// The person's phone (E.164) when `family` is live (not revoked) and theirs; `nil` otherwise.
    func userinfo(family: Data) async throws -> (userID: Int64, phone: String)?
    func hasConsent(user: Int64, client: String, scopes: [Scope]) async throws -> Bool
    func grantConsent(user: Int64, client: String, scopes: [Scope], at now: Double) async throws
    /// Removes the consent and revokes every family of the person for that client.
    func revokeConsent(user: Int64, client: String, at now: Double, recording operatorEvent: Event?) async throws
    /// The apps the person let have their phone number (consents), and the first-party apps
    /// that hold a live refresh token for them (as consents with no scopes, since their oldest
    /// live grant); newest first.
    func connectedApps(user: Int64, at now: Double) async throws -> [Consent]
    /// Deletes codes and refresh tokens past their life (and families with nothing left).
    func purge(before now: Double) async throws -> Int

    /// The account a grant of `client` made from the browser session `sid` belongs to; nil when
    /// the session signed in to no such app.
    func userOfSession(sid: String, client: String) async throws -> Int64?
}

/// How long used codes and grants are kept.
public enum GrantRetention {
    /// Codes are kept a day past their minute, so one presented again within the day is seen
    /// for what it is (a replay) and revokes what it issued.
    public static let usedCodesKept: TimeInterval = 86_400

    /// A grant made from a browser session is kept as long as that session can last (30 days
    /// from its sign-in) and ten days more, so the session's end can still be told to the app
    /// (Back-Channel Logout), retries and a resumed endpoint included.
    public static let sessionGrantsKept: TimeInterval = 40 * 86_400
}

extension OIDCStore {
    /// Takes the consent back with no operator's event.
    public func revokeConsent(user: Int64, client: String, at now: Double) async throws {
        try await revokeConsent(user: user, client: client, at: now, recording: nil)
    }
}
