import AuthCore
import Foundation
import HTTPLite
import HTTPTypes
import WalletCore
import Wording

/// The original app's wallet calls under `/api/v1`, with the bearer token: the same
/// ``Wallet`` as the pages. Changes accept an `Idempotency-Key` header (16 to 64 characters of
/// base64url): a repeated key returns the first answer and changes nothing; the same key with
/// another method, path or body is refused (422 `idempotency_key_reused`).
struct WalletAPIController: Sendable {
    let wallet: Wallet
    /// The words of an unnamed account's name ("Account 2"), in the `Accept-Language` language.
    let wording: Wording

    /// - Parameter signedIn: the API's calls with a bearer token, under `/api/v1`.
    func register(signedIn: RouteScope<APIUserContext>) {
        signedIn.get("/accounts", use: list)
        signedIn.post("/accounts", use: add)
        signedIn.get("/accounts/:id", use: show)
        signedIn.delete("/accounts/:id", use: delete)
        signedIn.get("/accounts/:id/history", use: history)
        signedIn.post("/accounts/:id/deposit", use: deposit)
        signedIn.post("/accounts/:id/withdraw", use: withdraw)
        signedIn.post("/accounts/:id/transfer", use: transfer)
        signedIn.post("/accounts/:id/rename", use: rename)
        signedIn.post("/name", use: setName)
    }

    struct AccountReply: Encodable {
        let id: Int64
        let name: String
        let balance: String
        let balance_cents: Int64

        init(_ account: Account) {
            id = account.id
            name = account.name
            balance = account.balance.decimalString
            balance_cents = account.balance.cents
        }
    }

    struct WalletReply: Encodable {
        let name: String
        let accounts: [AccountReply]
        let total: String
        let total_cents: Int64
    }

    struct OperationReply: Encodable {
        let id: Int64
        let kind: String
        let amount: String
        let amount_cents: Int64
        let balance_after: String
        let counterparty: String?
        let created_at: String

        init(_ operation: WalletCore.Operation) {
            id = operation.id
            kind = operation.kind.rawValue
            amount = operation.amount.decimalString
            amount_cents = operation.amount.cents
            balance_after = operation.balanceAfter.decimalString
            counterparty = operation.counterpartyName
            created_at = ISO8601DateFormatter().string(from: operation.createdAt)
        }
    }

    struct NameBody: Decodable { let name: String }
    struct OptionalNameBody: Decodable { let name: String? }
    struct AmountBody: Decodable { let amount: String }
    struct TransferBody: Decodable {
        let amount: String
        let to_account_id: Int64
    }

    @Sendable func list(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let overview = try await wallet.overview(user: user.id, defaultName: user.phone.nationalFormat)
        let total = try overview.total
        return try APIController.reply(
            WalletReply(
                name: overview.displayName, accounts: overview.accounts.map(AccountReply.init),
                total: total.decimalString, total_cents: total.cents))
    }

    @Sendable func add(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let body =
            request.body.readableBytes == 0
            ? OptionalNameBody(name: nil) : try request.decodeJSON(OptionalNameBody.self)
        let receipt = try await wallet.addAccount(
            user: user.id, name: body.name,
            numbered: wording[context.language]("home.accountPlaceholder", ["number": "{number}"]),
            key: try key(request))
        return try changedReply(receipt, status: receipt.replayed ? .ok : .created)
    }

    @Sendable func show(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        return try await accountReply(user, try id(context))
    }

    @Sendable func delete(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let id = try id(context)
        _ = try await wallet.delete(user: user.id, account: id, key: try key(request))
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    @Sendable func history(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let id = try id(context)
        let operations = try await wallet.history(user: user.id, account: id)
        return try APIController.reply(["operations": operations.map(OperationReply.init)])
    }

    @Sendable func deposit(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try await changeBalance(request, context, by: wallet.deposit)
    }

    @Sendable func withdraw(_ request: Request, _ context: APIUserContext) async throws -> Response {
        try await changeBalance(request, context, by: wallet.withdraw)
    }

    /// Deposit or withdraw: `{"amount": …}` on the account in the path, answered with the
    /// account after it.
    private func changeBalance(
        _ request: Request, _ context: APIUserContext,
        by operation: (Int64, Int64, Money, OperationKey?) async throws -> Receipt
    ) async throws -> Response {
        let user = context.user
        let (id, amount) = (try id(context), try Self.amount(try request.decodeJSON(AmountBody.self).amount))
        return try changedReply(try await operation(user.id, id, amount, try key(request)))
    }

    @Sendable func transfer(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let id = try id(context)
        let body = try request.decodeJSON(TransferBody.self)
        let amount = try Self.amount(body.amount)
        let receipt = try await wallet.transfer(
            user: user.id, from: id, to: body.to_account_id, amount: amount, key: try key(request))
        return try changedReply(receipt)
    }

    @Sendable func rename(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let id = try id(context)
        let name = try request.decodeJSON(NameBody.self).name
        return try changedReply(try await wallet.rename(user: user.id, account: id, to: name, key: try key(request)))
    }

    @Sendable func setName(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let user = context.user
        let name = try request.decodeJSON(NameBody.self).name
        let receipt = try await wallet.setDisplayName(user: user.id, to: name, key: try key(request))
        return try APIController.reply(["name": receipt.displayName ?? user.phone.nationalFormat])
    }

    // MARK: Shared steps

    /// The account a change acted on, as its own transaction left it: a read after the commit
    /// that failed would answer 503 ("try again") for money that did move.
    private func changedReply(_ receipt: Receipt, status: HTTPResponse.Status = .ok) throws -> Response {
        guard let account = receipt.account else { throw WalletError.accountNotFound }
        return try APIController.reply(AccountReply(account), status: status)
    }

    private func accountReply(_ user: User, _ id: Int64) async throws -> Response {
        try APIController.reply(AccountReply(try await wallet.account(user: user.id, id: id)))
    }

    private func id(_ context: APIUserContext) throws -> Int64 {
        guard let id = context.parameters["id"].flatMap(Int64.init), id > 0 else { throw WalletError.accountNotFound }
        return id
    }

    /// The `Idempotency-Key`, with the fingerprint of the request it came with.
    private func key(_ request: Request) throws -> OperationKey? {
        request.headers[.idempotencyKey].map {
            OperationKey($0, fingerprint: RequestFingerprint.json(request))
        }
    }

    private static func amount(_ text: String) throws -> Money {
        do {
            return try Money(parsing: text)
        } catch {
            throw WalletError.amount(error)
        }
    }
}
