/// A change to one person's wallet, already checked by ``Wallet`` (names cleaned, amounts
/// positive and within limits) and applied by a ``WalletStore`` in one transaction.
public enum WalletChange: Sendable, Equatable {
    case setDisplayName(String)
    /// `name` `nil`: the first free name `numbered` makes ("Account {number}", "Cuenta
    /// {number}": the person's language's words).
    case addAccount(name: String?, numbered: String)
    case rename(account: Int64, name: String)
    case delete(account: Int64)
    case deposit(account: Int64, amount: Money)
    case withdraw(account: Int64, amount: Money)
    case transfer(from: Int64, to: Int64, amount: Money)
}

extension WalletChange {
    /// What a receipt of this change records.
    public var action: Receipt.Action {
        switch self {
        case .setDisplayName: .setName
        case .addAccount: .addAccount
        case .rename: .rename
        case .delete: .delete
        case .deposit: .deposit
        case .withdraw: .withdraw
        case .transfer: .transfer
        }
    }
}
