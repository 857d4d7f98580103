import AuthCore
import Foundation
import HTTPLite
import HTTPTypes
import WebAuthnCore
import Wording

/// Passkeys in the JSON API, for native apps (the original iOS app with its associated domain):
/// the same ceremonies and rules as the pages. Creating one needs the bearer token; signing in
/// with one returns an `auth_token` as `POST /verifications/check` does.
///
/// A sign-in's challenge is bound to the `passkey_request_id` given with it, which the app
/// sends back with the answer: only the holder of that id can answer it.
struct PasskeysAPIController: Sendable {
    let passkeys: PasskeyService
    let policy: SignInPolicy
    /// For a passkey's name when its authenticator is not a known one: the app's `User-Agent`.
    let wording: Wording

    func register(v1: RouteScope<AppContext>, signedIn: RouteScope<APIUserContext>) {
        v1.post("/passkeys/sign-in/options", use: signInOptions)
        v1.post("/passkeys/sign-in", use: signIn)
        signedIn.post("/passkeys/registration/options", use: creationOptions)
        signedIn.post("/passkeys", use: create)
        signedIn.get("/passkeys", use: list)
    }

    struct SignInOptionsReply: Encodable {
        let passkey_request_id: String
        let options: CredentialOptions.Request
    }

    @Sendable func signInOptions(_ request: Request, _ context: AppContext) async throws -> Response {
        let challenge = try await passkeys.signInOptions(client: request.client?.group)
        return try APIController.reply(
            SignInOptionsReply(passkey_request_id: challenge.token.value, options: challenge.options))
    }

    struct SignInRequest: Decodable {
        let passkey_request_id: String
        let credential: CredentialJSON.AssertionJSON
    }

    /// `{"passkey_request_id": …, "credential": <the PublicKeyCredential's JSON>}`.
    @Sendable func signIn(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(SignInRequest.self)
        // An id that is not even well formed was never given: no challenge is looked at.
        guard let token = SessionToken(body.passkey_request_id) else { throw PasskeyError.challengeExpired }
        let signedIn = try await passkeys.signIn(
            body.credential, token: token, client: request.client?.group,
            userAgent: request.headers[.userAgent], api: true)
        return try APIController.reply(
            APIController.CheckReply(
                auth_token: signedIn.session.value, expires_in: Int(policy.sessionIdleTimeout),
                user: APIController.UserReply(signedIn.user)))
    }

    @Sendable func creationOptions(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try APIController.reply(try await passkeys.creationOptions(for: context.user, session: context.token))
    }

    struct PasskeyReply: Encodable {
        let id: Int64
        let name: String
        let created_at: String
        let last_used_at: String?
        /// Turned off after a sign-in whose counter did not go up.
        let turned_off: Bool

        init(_ passkey: PasskeyRecord) {
            let formatter = ISO8601DateFormatter()
            id = passkey.id
            name = passkey.name
            created_at = formatter.string(from: Date(timeIntervalSince1970: passkey.createdAt))
            last_used_at = passkey.lastUsedAt.map { formatter.string(from: Date(timeIntervalSince1970: $0)) }
            turned_off = passkey.flaggedAt != nil
        }
    }

    /// The body is the `PublicKeyCredential`'s JSON itself; answers the new passkey.
    @Sendable func create(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let body = try request.decodeJSON(CredentialJSON.RegistrationJSON.self)
        let created = try await passkeys.register(
            body, for: context.user, session: context.token,
            browser: String(
                UserAgentDescription.describe(request.headers[.userAgent], wording[context.language])
                    .prefix(64)))
        return try APIController.reply(PasskeyReply(created), status: .created)
    }

    struct ListReply: Encodable {
        let passkeys: [PasskeyReply]
    }

    @Sendable func list(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try APIController.reply(
            ListReply(passkeys: try await passkeys.passkeys(of: context.user).passkeys.map(PasskeyReply.init)))
    }
}
