import AuthCore
import Foundation
import HTTPLite
import HTTPTypes
import OIDCCore
import Wording

/// The OpenID Connect provider's endpoints: discovery, authorize, token, userinfo and end
/// session. Mounted on their own router: no CSRF cookie (clients post here from their own
/// servers, and the authorization request comes from another site by design), but the session
/// lookup and the pages' language and error pages for the person's side.
struct OIDCController: Sendable {
    let provider: OIDCProvider
    let signIn: SignInService
    let pages: Pages
    let continuing: OIDCContinueCookie
    let sessionCookie: SessionCookie
    /// The key set JWKS lists (`/.well-known/jwks.json`).
    let keySetPath = "/.well-known/jwks.json"

    static let paths = [
        "/.well-known/openid-configuration", "/oidc/authorize", "/oidc/token", "/oidc/userinfo", "/oidc/logout",
        "/oidc/cancel",
    ]

    func register(visitors: RouteScope<AppContext>) {
        visitors.get("/.well-known/openid-configuration", use: discovery)
        visitors.get("/oidc/authorize", use: authorize)
        visitors.post("/oidc/authorize", use: authorizeByPost)
        visitors.post("/oidc/token", use: token)
        visitors.get("/oidc/userinfo", use: userinfo)
        visitors.post("/oidc/userinfo", use: userinfo)
        visitors.get("/oidc/logout", use: logout)
        visitors.post("/oidc/logout", use: logout)
        // "Sign in to your own account instead": the app's sign-in in progress is dropped.
        visitors.get("/oidc/cancel") { _, _ in
            var response = Response.redirect(to: "/login")
            response.setCookie(continuing.cleared)
            return response
        }
    }

    // MARK: Discovery

    @Sendable func discovery(_ request: Request, _ context: AppContext) async throws -> Response {
        let issuer = provider.issuer
        let document: [String: Any] = [
            "issuer": issuer,
            "authorization_endpoint": issuer + "/oidc/authorize",
            "token_endpoint": issuer + "/oidc/token",
            "userinfo_endpoint": issuer + "/oidc/userinfo",
            "end_session_endpoint": issuer + "/oidc/logout",
            "jwks_uri": issuer + keySetPath,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": provider.signer.signsRS256 ? ["ES256", "RS256"] : ["ES256"],
            "scopes_supported": Scope.allCases.map(\.rawValue),
            "claims_supported": [
                "sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "amr", "azp",
                "phone_number", "phone_number_verified", "sid",
            ],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            "code_challenge_methods_supported": ["S256"],
            "prompt_values_supported": ["none", "login"],
            "authorization_response_iss_parameter_supported": true,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
            // Back-Channel Logout 1.0: a client's backchannel_logout_uri is told when a session
            // it signed in from ends, by a logout token naming the session (sid).
            "backchannel_logout_supported": true,
            "backchannel_logout_session_supported": true,
        ]
        let body = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(bytes: body))
    }

    // MARK: Authorize

    /// A request posted from the app's page (a cross-site POST carries no SameSite=Lax session
    /// cookie): the same request by GET, which a top-level navigation sends with it.
    @Sendable func authorizeByPost(_ request: Request, _ context: AppContext) async throws -> Response {
        .redirect(to: "/oidc/authorize?" + (try request.formData().encoded), status: .seeOther)
    }

    @Sendable func authorize(_ request: Request, _ context: AppContext) async throws -> Response {
        let parameters = request.query.pairs
        let query = request.rawQuery
        let authorization: AuthorizationRequest
        let registry = try await provider.registry(including: parameters.first { $0.name == "client_id" }?.value)
        do {
            authorization = try AuthorizationRequest.parse(parameters.map { ($0.name, $0.value) }, registry: registry)
        } catch .page(let reason) {
            context.logger.notice("OIDC request refused", metadata: ["why": "\(reason)"])
            throw StatusError(
                .badRequest, Phrase(reason == .unknownClient ? "oidc.unknownClient" : "oidc.redirectMismatch"),
                message: "This sign-in link is not valid.")
        } catch .redirect(let refusal) {
            return Response.redirect(to: refusal.url(issuer: provider.issuer), status: .found)
        }
        // A sign-in counts as fresh only for the request it was made for.
        let pending = continuing.pending(in: request, for: query)
        let person = try await self.person(context)
        switch try await provider.next(for: authorization, person: person, pendingSince: pending?.since) {
        case .signIn(let again):
            var response = Response.redirect(to: "/login", status: .found)
            guard let cookies = continuing.cookies(query: query, in: request) else {
                throw StatusError(.badRequest, Phrase("oidc.tooLong"), message: "This sign-in link is too long.")
            }
            for cookie in cookies { response.setCookie(cookie) }
            if again {
                // prompt=login or max_age: this sign-in is too old (a remembered phone's never
                // counts). "Confirm it's you" takes a fresh proof without signing out (so no
                // link from another site can end the session) and comes back here.
                response.headers[.location] = Redirect.toConfirm(next: "/oidc/authorize?" + query).location
            }
            return response
        case .consent:
            // The consent page is one of the pages (its form carries the CSRF token); its answer
            // is judged again there, sign-in checks included.
            return Response.redirect(to: "/oidc/consent?" + query, status: .found)
        case .redirect(let url):
            var response = Response.redirect(to: url, status: .found)
            if pending != nil { response.setCookie(continuing.cleared) }
            return response
        }
    }

    /// The signed-in person with when and how they signed in; `nil` when signed out.
    func person(_ context: AppContext) async throws -> OIDCProvider.Person? {
        guard let user = context.user, let token = context.sessionToken,
            let record = try await signIn.sessionRecord(of: token)
        else { return nil }
        // auth_time is the last real proof: a remembered phone's session was not one.
        return OIDCProvider.Person(
            userID: user.id, authTime: record.lastProof, method: record.method,
            sid: SessionToken.sid(ofStorageKey: token.storageKey))
    }

    // MARK: Token

    @Sendable func token(_ request: Request, _ context: AppContext) async throws -> Response {
        do {
            let form = try request.formData()
            let pairs = form.pairs.map { ($0.name, $0.value) }
            let authorization = request.headers[.authorization]
            let parsed = try TokenRequest.parse(
                pairs, authorization: authorization,
                registry: try await provider.registry(
                    including: TokenRequest.claimedClientID(pairs, authorization: authorization)))
            return try Self.json(try await provider.token(parsed))
        } catch let error as TokenError {
            context.logger.notice("OIDC token refused", metadata: ["error": "\(error.code.rawValue)"])
            var response = try Self.json(
                ["error": error.code.rawValue, "error_description": error.description],
                status: error.status == 401 ? .unauthorized : .badRequest)
            if error.basic { response.headers[.wwwAuthenticate] = "Basic realm=\"oidc\"" }
            return response
        } catch let error as StatusError where error.status == .badRequest || error.status == .unsupportedMediaType {
            return try Self.json(["error": "invalid_request", "error_description": error.message], status: .badRequest)
        }
    }

    // MARK: Userinfo

    @Sendable func userinfo(_ request: Request, _ context: AppContext) async throws -> Response {
        var token: String?
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        } else if request.method == .post {
            token = try? request.formData().values(for: "access_token").first
        }
        guard let token, let claims = try await provider.userinfo(accessToken: token) else {
            var response = try Self.json(["error": "invalid_token"], status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
            return response
        }
        return try Self.json(claims)
    }

    // MARK: End session

    /// RP-initiated logout: with an `id_token_hint` we issued, the session ends at once and the
    /// person goes to the client's registered `post_logout_redirect_uri` (with `state`); any
    /// other address is ignored. Without a valid hint, the "Sign out?" page asks first.
    @Sendable func logout(_ request: Request, _ context: AppContext) async throws -> Response {
        let query = request.method == .post ? try request.formData() : request.query
        guard let hint = query.values(for: "id_token_hint").first,
            let idToken = try? await provider.verifiedIDToken(hint)
        else { return .redirect(to: "/logout") }
        // Only the signed-in person's own hint signs them out at once (RP-Initiated Logout §2):
        // anyone's token for another person asks first.
        if let user = context.user, idToken.sub.value != provider.subject(of: user.id) {
            return .redirect(to: "/logout")
        }
        let client = try await provider.client(idToken.aud.value.first ?? "")
        if let token = context.sessionToken {
            try await signIn.signOut(
                session: token, by: context.user?.id, userAgent: request.headers[.userAgent],
                client: request.client?.group)
        }
        var location = "/login"
        if let client, let uri = query.values(for: "post_logout_redirect_uri").first,
            client.registers(postLogoutRedirectURI: uri)
        {
            location = AuthorizationResponse.url(uri, query.values(for: "state").first.map { [("state", $0)] } ?? [])
        }
        var response = Response.redirect(to: location, status: .found)
        response.setCookie(sessionCookie.expired())
        return response
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try Response.json(value, status: status)
        response.headers[.cacheControl] = "no-store"
        response.headers[.pragma] = "no-cache"
        return response
    }
}
