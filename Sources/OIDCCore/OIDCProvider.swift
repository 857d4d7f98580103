import AuthCore
import Crypto
import Encodings
import EventsCore
import Foundation
import Logging

/// The OpenID Connect provider: what an authorization request leads to for a person, the
/// token endpoint's grants, and userinfo. HTTP stays in WebApp; storage is an ``OIDCStore``.
public struct OIDCProvider: Sendable {
    /// `--public-url`: the `iss` of every token and of every authorization response (RFC 9207).
    public let issuer: String
    /// The clients of `--oidc-clients` (read-only).
    public let registry: ClientRegistry
    /// The apps added in the operators' console, read at each request (every instance alike).
    public let apps: (any AppStore)?
    let store: any OIDCStore
    public let signer: any TokenSigner
    /// Makes each person's `sub` (never their phone number, never their row id).
    let subjectKey: SymmetricKey
    /// How long a family of refresh tokens lasts, however often it is used.
    let refreshFamilyLifetime: TimeInterval
    /// How recent a proof `acr_values` asks for (`--confirm-within`).
    let freshProofWithin: TimeInterval
    let clock: @Sendable () -> Date
    let logger: Logger

    /// Access and ID tokens live 10 minutes; refresh tokens renew them.
    public static let tokenLifetime: TimeInterval = 600

    public init(
        issuer: String, registry: ClientRegistry, store: any OIDCStore, signer: any TokenSigner,
        subjectKey: SymmetricKey, logger: Logger, refreshFamilyLifetime: TimeInterval = RefreshGrant.familyLifetime,
        freshProofWithin: TimeInterval = 600, clock: @escaping @Sendable () -> Date = { Date() },
        apps: (any AppStore)? = nil
    ) {
        self.apps = apps
        self.freshProofWithin = freshProofWithin
        self.refreshFamilyLifetime = refreshFamilyLifetime
        self.issuer = issuer
        self.registry = registry
        self.store = store
        self.signer = signer
        self.subjectKey = subjectKey
        self.logger = logger
        self.clock = clock
    }

    /// The client `id` names: the clients file's, else an app of the console's that is on.
    public func client(_ id: String) async throws -> OIDCClient? {
        if let client = registry[id] { return client }
        guard let apps, ClientRegistry.isAcceptable(id: id) else { return nil }
        return try await apps.app(id: id)?.client(at: clock().timeIntervalSince1970)
    }

    /// The clients a request naming `id` is checked against: the file's, and the console's app
    /// of that id when there is one (requests are parsed without storage, from what was read).
    public func registry(including id: String?) async throws -> ClientRegistry {
        guard let id, registry[id] == nil, let app = try await client(id) else { return registry }
        return ClientRegistry(Array(registry.clients.values) + [app])
    }

    /// The person as this provider knows them.
    public struct Person: Sendable, Equatable {
        public let userID: Int64
        /// When they signed in (seconds since 1970).
        public let authTime: Double
        public let method: SignInMethod
        /// The browser session's `sid` (``AuthCore/SessionToken/sid(ofStorageKey:)``), named in
        /// the ID tokens and in the logout token when the session ends.
        public let sid: String?

        public init(userID: Int64, authTime: Double, method: SignInMethod, sid: String? = nil) {
            self.sid = sid
            self.userID = userID
            self.authTime = authTime
            self.method = method
        }
    }

    /// What an authorization request leads to.
    public enum Next: Sendable, Equatable {
        /// To Login (signed out, or a sign-in older than `max_age` or `prompt=login` asks);
        /// `again`: the person is signed in and must sign in anew.
        case signIn(again: Bool)
        /// To the consent page.
        case consent
        /// Back to the client: with a code, or with an error.
        case redirect(String)
    }

    /// Where `request` leads, as ``AuthorizationRules`` decide from what is read here: the
    /// person's consent to the app, read only when the answer turns on it, then the code when
    /// the answer is to issue one.
    ///
    /// - Parameter pendingSince: when this request first came (the browser's pending sign-in
    ///   for it); a sign-in since then meets `prompt=login`, `max_age` and `acr_values`.
    /// - Parameter askConsent: `false` when the consent page itself asks (its answer is judged).
    public func next(
        for request: AuthorizationRequest, person: Person?, pendingSince: Double?, askConsent: Bool = true
    ) async throws -> Next {
        let now = clock().timeIntervalSince1970
        func decide(consented: Bool?) -> AuthorizationRules.Decision {
            AuthorizationRules.decide(
                request, person: person, pendingSince: pendingSince, consented: consented, askConsent: askConsent,
                freshProofWithin: freshProofWithin, now: now)
        }
        var decision = decide(consented: nil)
        if decision == .readConsent, let person {
            decision = decide(
                consented: try await store.hasConsent(
                    user: person.userID, client: request.client.id, scopes: request.scopes))
        }
        switch decision {
        case .signIn(let again): return .signIn(again: again)
        case .consent: return .consent
        case .refuse(let code, let description):
            return .redirect(
                AuthorizationError.Redirect(
                    redirectURI: request.redirectURI, code: code, description: description, state: request.state
                ).url(issuer: issuer))
        case .issueCode:
            guard let person else { return .signIn(again: false) }
            return .redirect(try await issueCode(request, person: person, now: now))
        case .readConsent:
            // Asked again with the consent read, it never says this; were it to, the page asks.
            return .consent
        }
    }

    /// The person agreed on the consent page: remembered, then the code.
    public func approve(_ request: AuthorizationRequest, person: Person) async throws -> String {
        let now = clock().timeIntervalSince1970
        try await store.grantConsent(user: person.userID, client: request.client.id, scopes: request.scopes, at: now)
        return try await issueCode(request, person: person, now: now)
    }

    /// The apps the person let have their phone number, and the first-party ones that can still
    /// refresh their tokens, newest first: each can be disconnected.
    public func consents(of user: Int64) async throws -> [Consent] {
        try await store.connectedApps(user: user, at: clock().timeIntervalSince1970)
    }

    /// Takes an app's consent back, and ends every token it holds for the person; `operatorEvent`
    /// (an operator disconnected it) is recorded in the same transaction.
    public func disconnect(user: Int64, client: String, recording operatorEvent: Event? = nil) async throws {
        try await store.revokeConsent(
            user: user, client: client, at: clock().timeIntervalSince1970, recording: operatorEvent)
    }

    /// Removes codes and refresh tokens past their life.
    public func purge() async throws -> Int {
        try await store.purge(before: clock().timeIntervalSince1970)
    }

    /// The person said no: `access_denied`.
    public func deny(_ request: AuthorizationRequest) -> String {
        AuthorizationError.Redirect(
            redirectURI: request.redirectURI, code: .accessDenied, description: "The person did not agree.",
            state: request.state
        ).url(issuer: issuer)
    }

    private func issueCode(_ request: AuthorizationRequest, person: Person, now: Double) async throws -> String {
        let code = Self.randomToken()
        let grant = CodeGrant(
            family: Data(secureRandomBytes(16)), clientID: request.client.id,
            userID: person.userID, redirectURI: request.redirectURI, codeChallenge: request.codeChallenge,
            nonce: request.nonce, scopes: request.scopes, authTime: person.authTime, method: person.method,
            expiresAt: now + CodeGrant.lifetime, sid: person.sid)
        try await store.saveCode(Self.hash(code), grant, at: now)
        logger.info("OIDC code issued", metadata: ["client": "\(request.client.id)", "user": "\(person.userID)"])
        return AuthorizationResponse.success(request, code: code, issuer: issuer)
    }

    // MARK: Userinfo

    /// The claims for a live access token (OpenID Connect Core §5.3); `nil` for a token that is
    /// not ours, expired, or of a revoked grant.
    public func userinfo(accessToken: String) async throws -> [String: UserinfoValue]? {
        guard let token = try? await signer.verify(accessToken, as: AccessToken.self), token.iss.value == issuer,
            token.aud.value.contains(issuer + "/oidc/userinfo"), let family = Self.unhex(token.family),
            let found = try await store.userinfo(family: family), subject(of: found.userID) == token.sub.value
        else { return nil }
        var claims: [String: UserinfoValue] = ["sub": .text(token.sub.value)]
        if token.scope.split(separator: " ").contains("phone") {
            claims["phone_number"] = .text(found.phone)
            claims["phone_number_verified"] = .flag(true)
        }
        return claims
    }

    /// An ID token this provider issued (signature and issuer; an expired one still names who and
    /// for which client, as end-session hints often are).
    public func verifiedIDToken(_ token: String) async throws -> IDToken? {
        guard let idToken = try? await signer.verify(token, as: HintToken.self).token, idToken.iss.value == issuer
        else { return nil }
        return idToken
    }

    /// A person's `sub` for every client: stable, opaque, never the phone number (HMAC-SHA256
    /// of their id under a key derived from the server secret).
    public func subject(of userID: Int64) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data("oidc-sub:\(userID)".utf8), using: subjectKey)).prefix(16)
            .hexString
    }

    /// RFC 8176's names for how the person signed in: `sms` for a texted code, `tel` for a called one,
    /// `hwk` and `user` for a passkey (a key in hardware, unlocked by the person); none for a
    /// browser remembered at an earlier sign-in, which proved nothing now.
    static func amr(_ method: SignInMethod) -> [String]? {
        switch method {
        case .code: ["sms"]
        case .call: ["tel"]
        case .passkey: ["hwk", "user"]
        case .rememberedDevice: nil
        }
    }

    /// 256 random bits, base64url: codes, refresh tokens, token ids.
    static func randomToken() -> String {
        Data(secureRandomBytes(32)).base64URLEncodedString()
    }

    /// What is stored of a code or refresh token: its SHA-256.
    static func hash(_ token: String) -> Data { Data(SHA256.hash(data: Data(token.utf8))) }

    static func unhex(_ text: String) -> Data? { Data(hexString: text) }
}

/// A userinfo claim's value.
public enum UserinfoValue: Encodable, Sendable, Equatable {
    case text(String)
    case flag(Bool)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .flag(let flag): try container.encode(flag)
        }
    }
}
