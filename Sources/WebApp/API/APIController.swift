import AuthCore
import Foundation
import HTTPLite
import NIOHTTP1

/// The JSON API under `/api/v1`, for app clients: the original app's
/// `sendVerificationCode(phoneNumber:)` and `verifyCode(phoneNumber:code:)`, then bearer-token
/// calls. The rules are ``SignInService``'s, the same as the pages'.
///
/// It reads no cookies, so forged cross-site requests have nothing to ride on, and JSON bodies
/// need a content type that browsers will not send cross-site without a CORS preflight (which
/// is never granted).
struct APIController: Sendable {
    let signIn: SignInService
    let clientAddress: ClientAddress
    /// The OpenAPI document, served as is.
    let openAPIDocument: Data

    func register(on router: Router<AppContext>) {
        router.post("/api/v1/verifications", use: sendCode)
        router.post("/api/v1/verifications/check", use: checkCode)
        router.get("/api/v1/me", use: me)
        router.post("/api/v1/logout", use: logout)
        router.get("/api/v1/openapi.json", use: openAPI)
    }

    struct SendRequest: Decodable {
        let phone_number: String
    }

    struct SendReply: Encodable {
        let phone_number: String
        let expires_in: Int
        let resend_after: Int
    }

    struct CheckRequest: Decodable {
        let phone_number: String
        let code: String
    }

    struct UserReply: Encodable {
        let id: Int64
        let phone_number: String

        init(_ user: User) {
            self.id = user.id
            self.phone_number = user.phone.e164
        }
    }

    struct CheckReply: Encodable {
        let auth_token: String
        let token_type = "Bearer"
        let expires_in: Int
        let user: UserReply
    }

    @Sendable func sendCode(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(SendRequest.self)
        let sent = try await signIn.sendCode(phoneInput: body.phone_number, client: clientAddress.of(request))
        let now = sent.decidedAt
        return try Self.reply(
            SendReply(
                phone_number: sent.phone.e164, expires_in: wholeSeconds(from: now, to: sent.codeExpiresAt),
                resend_after: wholeSeconds(from: now, to: sent.resendAvailableAt)))
    }

    @Sendable func checkCode(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(CheckRequest.self)
        let signedIn = try await signIn.verify(phoneInput: body.phone_number, codeInput: body.code)
        return try Self.reply(
            CheckReply(
                auth_token: signedIn.session.value, expires_in: Int(signIn.policy.sessionIdleTimeout),
                user: UserReply(signedIn.user)))
    }

    @Sendable func me(_ request: Request, _ context: AppContext) async throws -> Response {
        let (_, user) = try await authenticate(request)
        return try Self.reply(UserReply(user))
    }

    @Sendable func logout(_ request: Request, _ context: AppContext) async throws -> Response {
        let (token, _) = try await authenticate(request)
        try await signIn.signOut(session: token)
        return Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }

    @Sendable func openAPI(_ request: Request, _ context: AppContext) async throws -> Response {
        Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=3600"],
            body: .init(bytes: openAPIDocument))
    }

    private func authenticate(_ request: Request) async throws -> (SessionToken, User) {
        try await APIController.authenticate(request, signIn: signIn)
    }

    /// The signed-in session named by `Authorization: Bearer TOKEN`, or 401.
    static func authenticate(_ request: Request, signIn: SignInService) async throws -> (SessionToken, User) {
        guard let header = request.headers.first(name: "Authorization"),
            header.count > 7, header.prefix(7).lowercased() == "bearer ",
            let token = SessionToken(String(header.dropFirst(7).trimmingCharacters(in: .whitespaces))),
            case .signedIn(let user) = try await signIn.state(of: token)
        else { throw APIError.unauthorized }
        return (token, user)
    }

    /// A JSON reply that no cache keeps (it may hold a token or balances).
    static func reply<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
        var response = try Response.json(value, status: status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
