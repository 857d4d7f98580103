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
    /// A detached account's passkey proves it as a recovery code would: the `recovery_id` that
    /// gives it a new number (``RecoveryAPIController``).
    let recovery: (proof: RecoveryCookie, signIn: SignInService)

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
        /// The `account_dormant` question this sign-in answers ("It's mine"), if any.
        let claim_id: String?
    }

    /// `{"passkey_request_id": …, "credential": <the PublicKeyCredential's JSON>}`.
    @Sendable func signIn(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(SignInRequest.self)
        // An id that is not even well formed was never given: no challenge is looked at.
        guard let token = SessionToken(body.passkey_request_id) else { throw PasskeyError.challengeExpired }
        // Only a question still waiting is ended by it; any other token is refused, not ended.
        var claim: SessionToken?
        if let id = body.claim_id {
            guard let question = SessionToken(id), case .claiming? = try await recovery.signIn.state(of: question) else {
                throw RecoveryError.claimEnded
            }
            claim = question
        }
        let signedIn: SignInService.SignedIn
        do {
            signedIn = try await passkeys.signIn(
                body.credential, token: token, replacing: claim, client: request.client?.group,
                userAgent: request.headers[.userAgent], api: true)
        } catch let detached as DetachedAccount {
            guard let made = try await recovery.proof.proved(detached.account, as: recovery.signIn) else {
                throw detached
            }
            var error = APIError(detached)
            error.recoveryID = made.cookie.value
            throw error
        }
        return try APIController.reply(APIController.CheckReply(signedIn, policy: policy))
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
                    .prefix(64)), userAgent: request.headers[.userAgent], client: request.client?.group)
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
