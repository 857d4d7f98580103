import AuthCore
import Foundation
import HTMLRender
import HTTPLite
import HTTPTypes
import WalletCore
import Wording

/// Home (the wallet) and one wallet account's page, with the wallet forms' errors.
extension Pages {
    /// Home: the greeting, the accounts with their total, and the forms to add an account and
    /// change the name (each form with its own one-time key).
    /// - Parameter error: a refused change, shown next to the form it came from.
    /// - Parameter typedName: the name typed into that form, shown in it again.
    func home(
        csrf: String, user: User, overview: Overview, notice: String? = nil, error: WalletFormError? = nil,
        typedName: String? = nil, offersPasskey: Bool = false
    ) throws -> Response {
        let typed = typedName.map { String($0.prefix(Self.maxEchoedInput)) }
        let accounts: [[String: Any]] = overview.accounts.map {
            ["id": String($0.id), "name": $0.name, "balance": $0.balance.description]
        }
        return try page(
            "home",
            [
                "csrf": csrf, "phone": user.phone.nationalFormat, "name": overview.displayName, "accounts": accounts,
                "named": overview.chosenName != nil,
                "chosenName": (error?.form == .setName ? typed : nil) ?? overview.chosenName ?? "",
                "typedAccountName": error?.form == .addAccount ? typed ?? "" : "",
                "total": try overview.total.description, "nextNumber": overview.accounts.count + 1,
                "atAccountLimit": overview.accounts.count >= WalletRules.maxAccountsPerPerson, "pageAddress": "/home",
                "accountLimit": WalletRules.maxAccountsPerPerson,
                "accountLimitSentence": words("home.accountLimit", ["count": String(WalletRules.maxAccountsPerPerson)]),
                "addKey": Wallet.newKey(), "nameKey": Wallet.newKey(), "notice": notice ?? "",
                "offersPasskey": passkeys && offersPasskey, "offersRecovery": !overview.hasWayBack,
            ].merging(values(of: error)) { $1 }, answering: error?.error)
    }

    /// One account: balance, the money forms (typed amounts echoed back after an error), the
    /// history newest first.
    func account(
        csrf: String, account: Account, others: [Account], history: [WalletCore.Operation], notice: String? = nil,
        error: WalletFormError? = nil, amounts: [String: String] = [:]
    ) throws -> Response {
        let when = Self.historyDate(words.language)
        let lines: [[String: Any]] = history.map { operation in
            let other = operation.counterpartyName ?? words("account.line.deletedAccount")
            let label =
                switch operation.kind {
                case .deposit: words("account.line.deposit")
                case .withdrawal: words("account.line.withdrawal")
                case .transferIn: words("account.line.transferIn", ["account": other])
                case .transferOut: words("account.line.transferOut", ["account": other])
                }
            let sign = operation.kind == .deposit || operation.kind == .transferIn ? "+" : "−"
            return [
                "label": label, "amount": sign + operation.amount.description,
                "balanceAfter": operation.balanceAfter.description, "when": when.string(from: operation.createdAt),
                "iso": operation.createdAt.ISO8601Format(),
            ]
        }
        let keys = Dictionary(
            uniqueKeysWithValues: ["deposit", "withdraw", "transfer", "rename", "delete"].map { ($0, Wallet.newKey()) })
        return try page(
            "account",
            [
                "csrf": csrf, "id": String(account.id), "name": account.name, "balance": account.balance.description,
                "others": others.map { ["id": String($0.id), "name": $0.name, "balance": $0.balance.description] },
                "hasOthers": !others.isEmpty, "history": lines, "keys": keys, "pageAddress": "/accounts/\(account.id)",
                "amounts": amounts.mapValues { String($0.prefix(Self.maxEchoedInput)) },
                "notice": notice ?? "",
            ].merging(values(of: error)) { $1 }, answering: error?.error)
    }

    /// A wallet page's error values: where the sentence goes, and "Error: " in the title.
    func values(of error: WalletFormError?) -> [String: Any] {
        guard let error else { return [:] }
        return error.templateValues(words).merging(["hasError": true]) { $1 }
    }
}
