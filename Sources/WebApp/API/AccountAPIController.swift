import AccountCore
import AuthCore
import Foundation
import HTTPLite
import WalletCore

/// "Your account" in the API. `GET /api/v1/account` is the summary; the rest asks for a token
/// from a verification younger than `--confirm-within` (401 `reauthentication_required`
/// otherwise): `GET /api/v1/account/data` (everything kept, as the page's download),
/// `DELETE /api/v1/account` (204; 409 `money_held` while the wallet holds money),
/// `POST /api/v1/account/phone` (a code to the new number, with a `verification_id`) and
/// `POST /api/v1/account/phone/verify` (that code: the account moves to the number).
struct AccountAPIController: Sendable {
    let signIn: SignInService
    let store: any AccountStore
    let rules: AccountRules
    let clock: @Sendable () -> Date

    func register(signedIn: RouteScope<APIUserContext>, confirmed: RouteScope<APIConfirmedContext>) {
        signedIn.get("/account", use: summary)
        confirmed.get("/account/data", use: data)
        confirmed.delete("/account", use: delete)
        confirmed.post("/account/phone", use: sendCode)
        confirmed.post("/account/phone/verify", use: verify)
    }

    struct SummaryReply: Encodable {
        let id: Int64
        let phone_number: String
        let created_at: String
        let phone_number_since: String
        let passkeys: Int
        let remembered_phones: Int
        let connected_apps: Int
        let money_held_cents: Int64
    }

    @Sendable func summary(_ request: Request, _ context: APIUserContext) async throws -> Response {
        guard let summary = try await store.summary(user: context.user.id, now: clock().timeIntervalSince1970) else {
            throw APIError.unauthorized
        }
        let formatter = ISO8601DateFormatter()
        return try APIController.reply(
            SummaryReply(
                id: context.user.id, phone_number: summary.phone,
                created_at: formatter.string(from: Date(timeIntervalSince1970: summary.createdAt)),
                phone_number_since: formatter.string(from: Date(timeIntervalSince1970: summary.phoneSince)),
                passkeys: summary.passkeys, remembered_phones: summary.rememberedPhones,
                connected_apps: summary.connectedApps, money_held_cents: summary.moneyHeldCents))
    }

    @Sendable func data(_ request: Request, _ context: APIConfirmedContext) async throws -> Response {
        guard let export = try await store.export(user: context.user.id, now: clock().timeIntervalSince1970) else {
            throw APIError.unauthorized
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(data: try AccountExport.encoder.encode(export)))
    }

    @Sendable func delete(_ request: Request, _ context: APIConfirmedContext) async throws -> Response {
        let rules = self.rules
        switch try await store.delete(
            user: context.user.id, at: clock().timeIntervalSince1970, decide: { rules.deletion($0) })
        {
        case .moneyHeld: throw DeletionRefused.moneyHeld
        case .delete, .noAccount: return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
    }

    struct PhoneRequest: Decodable {
        let phone_number: String
    }

    struct VerifyRequest: Decodable {
        let phone_number: String
        let verification_id: String
        let code: String
    }

    /// A code to the new number (its own number is 422 `same_number`); the reply is the
    /// verification's, as `POST /verifications` answers.
    @Sendable func sendCode(_ request: Request, _ context: APIConfirmedContext) async throws -> Response {
        let body = try request.decodeJSON(PhoneRequest.self)
        let phone = try signIn.phone(body.phone_number)
        guard phone != context.user.phone else { throw NumberChangeError.sameNumber }
        let sent = try await signIn.sendCode(
            phoneInput: phone.e164, client: request.client?.group, userAgent: request.headers[.userAgent],
            language: context.language, movesAccount: true)
        return try APIController.reply(APIController.SendReply(sent))
    }

    /// The new number's code: the account moves to it (409 `number_has_account` when the number
    /// has its own account, said only now that the code proved the caller holds it).
    @Sendable func verify(_ request: Request, _ context: APIConfirmedContext) async throws -> Response {
        let body = try request.decodeJSON(VerifyRequest.self)
        let phone = try signIn.phone(body.phone_number)
        guard let id = SessionToken(body.verification_id) else { throw SignInError.codeRequestedElsewhere }
        let moved = try await signIn.moveAccount(
            of: context.user, to: phone, session: nil, holder: id.storageKey, codeInput: body.code,
            client: request.client?.group, language: context.language, userAgent: request.headers[.userAgent])
        return try APIController.reply(APIController.UserReply(moved))
    }
}
