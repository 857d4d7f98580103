import AccountCore
import AuthCore
import Foundation
import HTTPLite

/// "Is this your account?" in the API. A right code to a number whose account may have changed
/// hands answers 409 `account_dormant` with a `claim_id` (the question, 30 minutes); the app
/// answers it as the pages do (``ClaimController``), with the same rules and limits:
/// - `POST /api/v1/claims/recovery-code` `{"claim_id", "recovery_code"}`: it's mine, proved by
///   one of the account's recovery codes (spent);
/// - `POST /api/v1/claims/fresh` `{"claim_id"}`: the number is new to me: a fresh, empty account
///   for it, and the old one detached from it, kept for its owner.
/// Either replies as `POST /verifications/check` does, with a token. A passkey of the account
/// proves it too, by a passkey sign-in (`POST /api/v1/passkeys/sign-in`).
struct ClaimAPIController: Sendable {
    let signIn: SignInService
    let recoveryCodes: RecoveryCodes

    func register(v1: RouteScope<AppContext>) {
        v1.post("/claims/recovery-code", use: prove)
        v1.post("/claims/fresh", use: fresh)
    }

    struct ProveRequest: Decodable {
        let claim_id: String
        let recovery_code: String
    }

    struct FreshRequest: Decodable {
        let claim_id: String
    }

    /// The question a `claim_id` names, while it waits (409 `claim_expired` otherwise).
    private func question(_ id: String) async throws -> (SessionToken, PhoneNumber, account: Int64) {
        guard let token = SessionToken(id), case .claiming(let phone, let account)? = try await signIn.state(of: token)
        else { throw RecoveryError.claimEnded }
        return (token, phone, account)
    }

    @Sendable func prove(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(ProveRequest.self)
        let (token, phone, account) = try await question(body.claim_id)
        do {
            let signedIn = try await signIn.claim(
                token, phone: phone, account: account,
                codeDigest: recoveryCodes.digest(of: String(body.recovery_code.prefix(64))),
                client: request.client?.group, userAgent: request.headers[.userAgent], api: true)
            return try APIController.reply(APIController.CheckReply(signedIn, policy: signIn.policy))
        } catch SignInError.noPendingSignIn {
            throw RecoveryError.claimEnded
        } catch RecoveryError.wrongNumberOrCode {
            // No number was sent here: the sentence is about the code alone.
            throw RecoveryError.notThisAccountsCode
        }
    }

    @Sendable func fresh(_ request: Request, _ context: AppContext) async throws -> Response {
        let body = try request.decodeJSON(FreshRequest.self)
        let (token, phone, account) = try await question(body.claim_id)
        do {
            let signedIn = try await signIn.startFresh(
                token, phone: phone, account: account, userAgent: request.headers[.userAgent], api: true,
                client: request.client?.group)
            return try APIController.reply(APIController.CheckReply(signedIn, policy: signIn.policy))
        } catch SignInError.noPendingSignIn, is NumberChangeRace {
            throw RecoveryError.claimEnded
        }
    }
}
