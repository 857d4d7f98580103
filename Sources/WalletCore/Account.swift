import AuthCore
import Foundation

/// One account of a person.
public struct Account: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let balance: Money

    public init(id: Int64, name: String, balance: Money) {
        self.id = id
        self.name = name
        self.balance = balance
    }
}

/// One line of an account's history.
public struct Operation: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case deposit, withdrawal
        case transferIn = "transfer_in"
        case transferOut = "transfer_out"
    }

    public let id: Int64
    public let accountID: Int64
    public let kind: Kind
    public let amount: Money
    public let balanceAfter: Money
    /// The other account of a transfer (its name as it is now; `nil` if since deleted).
    public let counterpartyName: String?
    public let createdAt: Date

    public init(
        id: Int64, accountID: Int64, kind: Kind, amount: Money, balanceAfter: Money, counterpartyName: String?,
        createdAt: Date
    ) {
        self.id = id
        self.accountID = accountID
        self.kind = kind
        self.amount = amount
        self.balanceAfter = balanceAfter
        self.counterpartyName = counterpartyName
        self.createdAt = createdAt
    }
}

/// What Home shows: the person's name, accounts and their total.
public struct Overview: Sendable, Equatable {
    /// The name to greet with: the one the person chose, else the default (the number).
    public let displayName: String
    /// The name the person chose; nil until they choose one (then "Change your name" starts
    /// empty, not filled with the number).
    public let chosenName: String?
    public let accounts: [Account]
    /// Whether the person has a way back in without their number (``StoredOverview/hasWayBack``).
    public var hasWayBack = true

    /// The sum of the balances, checked: balances read back whose sum does not fit in Int64
    /// cents are ``AuthCore/StoredDataCorrupt`` (a 500 for this request), never a trap.
    public var total: Money {
        get throws {
            try accounts.reduce(Money.zero) { sum, account in
                guard let next = sum.adding(account.balance) else {
                    throw StoredDataCorrupt("balances whose total does not fit in Int64 cents")
                }
                return next
            }
        }
    }

    public init(displayName: String, chosenName: String? = nil, accounts: [Account]) {
        self.displayName = displayName
        self.chosenName = chosenName
        self.accounts = accounts
    }

    /// The stored overview, named `defaultName` until the person sets a name.
    public init(_ stored: StoredOverview, defaultName: String) {
        self.init(
            displayName: stored.displayName ?? defaultName, chosenName: stored.displayName, accounts: stored.accounts)
        hasWayBack = stored.hasWayBack
    }
}

extension Operation.Kind {
    /// A kind read back from the database; one the code does not know is corrupt data.
    public init(stored: String) throws {
        guard let kind = Self(rawValue: stored) else { throw StoredDataCorrupt("an unknown operation kind") }
        self = kind
    }
}
