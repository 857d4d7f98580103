import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import HTTPTypes
import Wording

/// The JSON API under `/api/v1`, for app clients: the original app's
/// `sendVerificationCode(phoneNumber:)` and `verifyCode(phoneNumber:code:)`, then bearer-token
/// calls. The rules are ``SignInService``'s, the same as the pages'.
///
/// It reads no cookies, so forged cross-site requests have nothing to ride on, and JSON bodies
/// need a content type that browsers will not send cross-site without a CORS preflight (which
/// is never granted).
struct APIController: Sendable {
    let signIn: SignInService
    /// The OpenAPI document, served as is.
    let openAPIDocument: Data

    /// - Parameters:
    ///   - v1: the calls anyone may make, under `/api/v1`.
    ///   - signedIn: the calls that need a bearer token, under `/api/v1`.
    func register(v1: RouteScope<AppContext>, signedIn: RouteScope<APIUserContext>) {
        v1.post("/verifications", use: sendCode)
        v1.post("/verifications/check", use: checkCode)
        v1.get("/verifications/:verification_id", use: verification)
        v1.get("/openapi.json", use: openAPI)
        signedIn.get("/me", use: me)
        signedIn.post("/logout", use: logout)
    }

    struct SendRequest: Decodable {
        let phone_number: String
        /// `sms` (the default when absent) or `call`; `null` is refused like any other value.
        let channel: String?

        private enum CodingKeys: String, CodingKey { case phone_number, channel }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            phone_number = try container.decode(String.self, forKey: .phone_number)
            if container.contains(.channel), try container.decodeNil(forKey: .channel) {
                throw DecodingError.valueNotFound(
                    String.self, .init(codingPath: [CodingKeys.channel], debugDescription: "channel is null"))
            }
            channel = try container.decodeIfPresent(String.self, forKey: .channel)
        }
    }

    /// The API's names for the channels: `sms` and `call`.
    static func channel(named name: String?) throws -> DeliveryChannel {
        switch name {
        case nil, "sms": return .sms
        case "call": return .voice
        default:
            throw StatusError(.badRequest, Phrase("api.channel"), message: "The field channel must be sms or call.")
        }
    }

    static func name(of channel: DeliveryChannel) -> String { channel == .voice ? "call" : "sms" }

    struct SendReply: Encodable {
        let phone_number: String
        /// Whether a text went out now; false during the resend cooldown (the code sent then
        /// is still the one to use, with the id given then).
        let sent: Bool
        /// Needed to check the code; present only when `sent` is true.
        let verification_id: String?
        let channel: String
        let expires_in: Int
        let resend_after: Int

        /// The reply to a code sent (or joined during the cooldown), as of when it was decided.
        init(_ sent: SignInService.CodeSent) {
            let now = sent.decidedAt
            self.phone_number = sent.phone.e164
            self.sent = sent.sent
            self.verification_id = sent.verificationID?.value
            self.channel = APIController.name(of: sent.channel)
            self.expires_in = wholeSeconds(from: now, to: sent.codeExpiresAt)
            self.resend_after = wholeSeconds(from: now, to: sent.resendAvailableAt)
        }
    }

    struct StatusReply: Encodable {
        let verification_id: String
        let phone_number: String
        let channel: String
        /// What the provider last reported: `sending`, `queued`, `sent`, `delivered`,
        /// `undelivered` or `failed`.
        let status: String
        let error_code: String?
        let sent_at: String
        let expires_in: Int
        let resend_after: Int
    }

    struct CheckRequest: Decodable {
        let phone_number: String
        let verification_id: String
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

        /// The token of a sign-in, however it was proved (a code, a passkey, a recovery, a claim).
        init(_ signedIn: SignInService.SignedIn, policy: SignInPolicy) {
            auth_token = signedIn.session.value
            expires_in = Int(policy.sessionIdleTimeout)
            user = UserReply(signedIn.user)
        }
    }

    @Sendable func sendCode(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(SendRequest.self)
        let channel = try Self.channel(named: body.channel)
        let sent = try await signIn.sendCode(
            phoneInput: body.phone_number, client: request.client?.group, userAgent: request.headers[.userAgent],
            channel: channel,
            language: context.language)
        return try Self.reply(SendReply(sent))
    }

    /// A code's channel and delivery, for the app that holds its `verification_id`.
    @Sendable func verification(_ request: Request, _ context: AppContext) async throws -> Response {
        let id = context.parameters["verification_id"] ?? ""
        let found: SignInService.VerificationStatus
        do {
            found = try await signIn.verificationStatus(id: id)
        } catch SignInError.codeRequestedElsewhere {
            throw StatusError(
                .notFound, Phrase("api.noVerification"), message: "No code is out under this verification_id.")
        }
        let formatter = ISO8601DateFormatter()
        return try Self.reply(
            StatusReply(
                verification_id: id, phone_number: found.phone.e164, channel: Self.name(of: found.channel),
                status: found.status.rawValue, error_code: found.errorCode,
                sent_at: formatter.string(from: found.sentAt),
                expires_in: found.expiresIn, resend_after: found.resendWait))
    }

    @Sendable func checkCode(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(CheckRequest.self)
        let signedIn = try await signIn.verify(
            phoneInput: body.phone_number, verificationID: body.verification_id, codeInput: body.code,
            client: request.client?.group, userAgent: request.headers[.userAgent])
        return try Self.reply(CheckReply(signedIn, policy: signIn.policy))
    }

    @Sendable func me(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try Self.reply(UserReply(context.user))
    }

    @Sendable func logout(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try await signIn.signOut(
            session: context.token, by: context.user.id, userAgent: request.headers[.userAgent],
            client: request.client?.group)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable func openAPI(_ request: Request, _ context: AppContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(bytes: openAPIDocument))
    }

    /// A JSON reply that no cache keeps (it may hold a token or balances).
    static func reply<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try Response.json(value, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
