/// Why a wallet operation did not happen; nothing was changed. Each case carries the sentence
/// shown to the person.
public enum WalletError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such account, or it belongs to someone else (the two are never told apart).
    case accountNotFound
    case amount(Money.ParseError)
    /// A withdrawal or transfer of more than the balance.
    case insufficientFunds(balance: Money)
    /// The deposit would take the balance over ``Money/maxBalance``.
    case balanceLimit
    case sameAccount
    /// Only an empty account can be deleted.
    case accountNotEmpty(balance: Money)
    case invalidAccountName
    case accountNameTaken
    /// The person already has ``WalletRules/maxAccountsPerPerson`` accounts.
    case accountLimit
    case invalidDisplayName
    /// The one-time key of a form is malformed.
    case invalidOperationKey
    /// The one-time key was already used for another request (another action, account or
    /// amount); nothing was done.
    case operationKeyReused

    public var description: String {
        switch self {
        case .accountNotFound: "There is no such account."
        case .amount(let error): error.description
        case .insufficientFunds(let balance): "That is more than the balance of \(balance)."
        case .balanceLimit: "An account can hold at most \(Money.maxBalance)."
        case .sameAccount: "Choose another account to transfer to."
        case .accountNotEmpty(let balance):
            "This account still holds \(balance). Move the money to another account first."
        case .invalidAccountName: "Account names are 1 to 40 characters."
        case .accountNameTaken: "You already have an account with that name."
        case .accountLimit:
            "You have \(WalletRules.maxAccountsPerPerson) accounts, the most one person can have. Delete one to add another."
        case .invalidDisplayName: "Your name must be 1 to 40 characters."
        case .invalidOperationKey: "This form has expired. Please try again."
        case .operationKeyReused:
            "This form was already sent with other details, so nothing was done. Please check the page and try again."
        }
    }
}
