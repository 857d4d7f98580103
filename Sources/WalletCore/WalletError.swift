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

    /// The key of what people are told (``saying``, in `Locales/`) and its values: for the log.
    public var description: String { saying.description }
}
