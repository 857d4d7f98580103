import Wording

/// What people are told of a refused wallet change, in their language (`Locales/`).
/// ``WalletError/description`` keeps the English sentence for the log.
extension WalletError {
    public var saying: Phrase {
        switch self {
        case .accountNotFound: Phrase("wallet.accountNotFound")
        case .amount(let error): error.saying
        case .insufficientFunds(let balance):
            Phrase("wallet.insufficientFunds", ["balance": .text(balance.description)])
        case .balanceLimit: Phrase("wallet.balanceLimit", ["amount": .text(Money.maxBalance.description)])
        case .sameAccount: Phrase("wallet.sameAccount")
        case .accountNotEmpty(let balance): Phrase("wallet.accountNotEmpty", ["balance": .text(balance.description)])
        case .invalidAccountName: Phrase("wallet.invalidAccountName")
        case .accountNameTaken: Phrase("wallet.accountNameTaken")
        case .accountLimit: Phrase("wallet.accountLimit", ["count": .text(String(WalletRules.maxAccountsPerPerson))])
        case .invalidDisplayName: Phrase("wallet.invalidDisplayName")
        case .invalidOperationKey: Phrase("wallet.invalidOperationKey")
        case .operationKeyReused: Phrase("wallet.operationKeyReused")
        }
    }
}

extension Money.ParseError {
    public var saying: Phrase {
        switch self {
        case .empty: Phrase("money.empty")
        case .notANumber: Phrase("money.notANumber")
        case .notPositive: Phrase("money.notPositive")
        case .tooManyDecimals: Phrase("money.tooManyDecimals")
        case .tooLarge: Phrase("money.tooLarge")
        }
    }
}
