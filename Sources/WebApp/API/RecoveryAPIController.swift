import AccountCore
import AuthCore
import Foundation
import HTTPLite

/// "Lost your phone or number?" in the API, for an app whose person lost the number their
/// account is on; the same rules and limits as the pages (``RecoverController``):
/// - `POST /api/v1/recoveries` `{"phone_number", "recovery_code"}`: 201 with a `recovery_id`
///   (the proof, 30 minutes; void once the account moves or new codes are made);
/// - `POST /api/v1/recoveries/phone` `{"recovery_id", "phone_number"}`: a code to the new number,
///   answered as `POST /verifications` is;
/// - `POST /api/v1/recoveries/verify` `{"recovery_id", "phone_number", "verification_id", "code"}`:
///   the account moves to the number, every other session and remembered phone ends, and the
///   reply is a token, as `POST /verifications/check` answers.
struct RecoveryAPIController: Sendable {
    let signIn: SignInService
    let recoveryCodes: RecoveryCodes
    let proof: RecoveryCookie

    func register(v1: RouteScope<AppContext>) {
        v1.post("/recoveries", use: prove)
        v1.post("/recoveries/phone", use: sendCode)
        v1.post("/recoveries/verify", use: verify)
    }

    struct ProveRequest: Decodable {
        let phone_number: String
        let recovery_code: String
    }

    struct ProveReply: Encodable {
        let recovery_id: String
        let codes_left: Int
        /// The number the account is on; absent when it was detached from its number.
        let phone_number: String?
        let expires_in: Int
    }

    @Sendable func prove(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(ProveRequest.self)
        let proved = try await signIn.proveRecovery(
            phoneInput: String(body.phone_number.prefix(64)),
            codeDigest: recoveryCodes.digest(of: String(body.recovery_code.prefix(64))),
            client: request.client?.group)
        let made = proof.proved(proved)
        return try APIController.reply(
            ProveReply(
                recovery_id: made.cookie.value, codes_left: proved.codesLeft, phone_number: made.account.phone?.e164,
                expires_in: Int(proof.lifetime)),
            status: .created)
    }

    struct PhoneRequest: Decodable {
        let recovery_id: String
        let phone_number: String
    }

    /// The account a `recovery_id` proves, while it holds (409 `recovery_expired` otherwise).
    private func account(_ id: String) async throws -> RecoveringAccount {
        guard let account = try await proof.account(signed: id, as: signIn) else { throw RecoveryError.proofExpired }
        return account
    }

    @Sendable func sendCode(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(PhoneRequest.self)
        let account = try await account(body.recovery_id)
        let phone = try signIn.phone(body.phone_number)
        try account.check(phone)
        let sent = try await signIn.sendCode(
            phoneInput: phone.e164, client: request.client?.group, userAgent: request.headers[.userAgent],
            language: context.language, movesAccount: true)
        return try APIController.reply(APIController.SendReply(sent))
    }

    struct VerifyRequest: Decodable {
        let recovery_id: String
        let phone_number: String
        let verification_id: String
        let code: String
    }

    @Sendable func verify(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(VerifyRequest.self)
        let account = try await account(body.recovery_id)
        let phone = try signIn.phone(body.phone_number)
        guard let id = SessionToken(body.verification_id) else { throw SignInError.codeRequestedElsewhere }
        let signedIn = try await signIn.recoverAccount(
            account.id, from: account.phone, to: phone, session: nil, holder: id.storageKey, codeInput: body.code,
            client: request.client?.group, language: context.language, userAgent: request.headers[.userAgent])
        return try APIController.reply(APIController.CheckReply(signedIn, policy: signIn.policy))
    }
}
