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
    public let displayName: String
    public let accounts: [Account]
    public var total: Money { accounts.reduce(.zero) { $0 + $1.balance } }

    public init(displayName: String, accounts: [Account]) {
        self.displayName = displayName
        self.accounts = accounts
    }
}

/// What a changing operation did, kept with its one-time key: replaying the key returns the
/// same receipt (with `replayed` set) and changes nothing.
public struct Receipt: Sendable, Equatable {
    public enum Action: String, Sendable {
        case addAccount = "add_account"
        case deposit, withdraw, transfer, rename, delete
        case setName = "set_name"
    }

    public let action: Action
    /// The account acted on (the source of a transfer; the new account of addAccount).
    public let accountID: Int64?
    /// The history line written, for money operations.
    public let operationID: Int64?
    /// True when this is the first call's receipt, returned again for a repeated key.
    public var replayed = false

    public init(action: Action, accountID: Int64?, operationID: Int64?, replayed: Bool = false) {
        self.action = action
        self.accountID = accountID
        self.operationID = operationID
        self.replayed = replayed
    }
}

/// A change to one person's wallet, already checked by ``Wallet`` (names cleaned, amounts
/// positive and within limits) and applied by a ``WalletStore`` in one transaction.
public enum WalletChange: Sendable, Equatable {
    case setDisplayName(String)
    /// `nil`: the first free "Account N".
    case addAccount(name: String?)
    case rename(account: Int64, name: String)
    case delete(account: Int64)
    case deposit(account: Int64, amount: Money)
    case withdraw(account: Int64, amount: Money)
    case transfer(from: Int64, to: Int64, amount: Money)
}

/// Where wallets are kept: SQLite (``SQLiteWalletStore``) or PostgreSQL (the PostgresStorage
/// module).
///
/// ``apply(_:user:key:now:)`` is one transaction, and a person's changes are applied one at a
/// time (SQLite: one writer; PostgreSQL: a lock on the person's row), so the balance checks in
/// ``WalletRules`` hold however many requests run at once, on however many app instances.
public protocol WalletStore: Sendable {
    /// The person's chosen name (`nil` until set) and accounts, oldest first.
    func overview(user: Int64) async throws -> (displayName: String?, accounts: [Account])
    /// One of the person's accounts; `nil` for someone else's or none.
    func account(user: Int64, id: Int64) async throws -> Account?
    /// The account's operations, newest first; ``WalletError/accountNotFound`` for someone
    /// else's account.
    func history(user: Int64, account: Int64, limit: Int) async throws -> [Operation]
    /// Applies `change` unless `key` was used before by this person: then the first call's
    /// receipt comes back (with `replayed` set) and nothing changes. The key is stored in the
    /// same transaction as the change.
    func apply(_ change: WalletChange, user: Int64, key: String?, now: Date) async throws -> Receipt
    /// Forgets one-time keys stored before `cutoff`; returns how many.
    func purgeKeys(before cutoff: Date) async throws -> Int
    /// ``overview(user:)`` as a read to make together with the session lookup (Home).
    func overviewRead() -> SessionRead<(displayName: String?, accounts: [Account])>
}

extension WalletStore {
    /// Stores without a joined read: the overview after the session.
    public func overviewRead() -> SessionRead<(displayName: String?, accounts: [Account])> {
        SessionRead(separately: { user in try await overview(user: user.id) })
    }
}

/// The rules a change must pass against the balances read inside its transaction; shared by
/// every store so they cannot drift apart.
public enum WalletRules {
    /// "Account N" with the first N whose name (case-insensitively) is not taken.
    public static func firstFreeAccountName(taken: some Sequence<String>) -> String {
        let taken = Set(taken.map { $0.lowercased() })
        return (1...).lazy.map { "Account \($0)" }.first { !taken.contains($0.lowercased()) }!
    }

    /// The balance after depositing `amount`.
    public static func deposit(_ amount: Money, into account: Account) throws -> Money {
        guard account.balance.cents <= Money.maxBalance.cents - amount.cents else { throw WalletError.balanceLimit }
        return account.balance + amount
    }

    /// The balance after withdrawing `amount`.
    public static func withdraw(_ amount: Money, from account: Account) throws -> Money {
        guard amount <= account.balance else { throw WalletError.insufficientFunds(balance: account.balance) }
        return account.balance - amount
    }

    /// The two balances after moving `amount` from `source` to `target`.
    public static func transfer(_ amount: Money, from source: Account, to target: Account) throws -> (
        source: Money, target: Money
    ) {
        (try withdraw(amount, from: source), try deposit(amount, into: target))
    }

    /// Only an empty account can be deleted.
    public static func checkDeletable(_ account: Account) throws {
        guard account.balance == .zero else { throw WalletError.accountNotEmpty(balance: account.balance) }
    }
}

/// The wallet: accounts with balances in integer cents, and deposit, withdraw, transfer,
/// rename and delete, for the signed-in person only.
///
/// It checks what the person typed and hands a ``WalletChange`` to its ``WalletStore``, which
/// applies it in one transaction (a transfer moves both sides or neither); the schema refuses
/// negative balances, and each change may carry a one-time key so that a double tap, a refresh
/// or a replayed form applies it once.
public struct Wallet: Sendable {
    private let store: any WalletStore
    private let clock: @Sendable () -> Date

    public init(store: any WalletStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
    }

    // MARK: Reading

    /// The person's name (their formatted phone until they set one), accounts and total.
    public func overview(user: Int64, defaultName: String) async throws -> Overview {
        let (name, accounts) = try await store.overview(user: user)
        return Overview(displayName: name ?? defaultName, accounts: accounts)
    }

    /// Home's overview (named after the phone until the person sets a name), to read in the same
    /// round trip as the session: ``AuthCore/SignInService/state(of:alsoReading:)``.
    public var overviewRead: SessionRead<Overview> {
        store.overviewRead().map { found, user in
            Overview(displayName: found.displayName ?? user.phone.nationalFormat, accounts: found.accounts)
        }
    }

    /// One of the person's accounts; someone else's is ``WalletError/accountNotFound``.
    public func account(user: Int64, id: Int64) async throws -> Account {
        guard let account = try await store.account(user: user, id: id) else { throw WalletError.accountNotFound }
        return account
    }

    /// The account's operations, newest first.
    public func history(user: Int64, account id: Int64, limit: Int = 100) async throws -> [Operation] {
        try await store.history(user: user, account: id, limit: limit)
    }

    // MARK: Changing

    /// Sets the name Home greets the person with (1 to 40 characters, trimmed).
    public func setDisplayName(user: Int64, to input: String, key: String? = nil) async throws -> Receipt {
        try await apply(.setDisplayName(try Self.cleanName(input, error: .invalidDisplayName)), user: user, key: key)
    }

    /// Opens an account named `name`, or "Account N" with the first N not in use.
    public func addAccount(user: Int64, name input: String?, key: String? = nil) async throws -> Receipt {
        let typed = try input.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            .map { try Self.cleanName($0, error: .invalidAccountName) }
        return try await apply(.addAccount(name: typed), user: user, key: key)
    }

    public func rename(user: Int64, account id: Int64, to input: String, key: String? = nil) async throws -> Receipt {
        let name = try Self.cleanName(input, error: .invalidAccountName)
        return try await apply(.rename(account: id, name: name), user: user, key: key)
    }

    /// Deletes an empty account (its history goes with it).
    public func delete(user: Int64, account id: Int64, key: String? = nil) async throws -> Receipt {
        try await apply(.delete(account: id), user: user, key: key)
    }

    public func deposit(user: Int64, account id: Int64, amount: Money, key: String? = nil) async throws -> Receipt {
        try Self.check(amount)
        return try await apply(.deposit(account: id, amount: amount), user: user, key: key)
    }

    public func withdraw(user: Int64, account id: Int64, amount: Money, key: String? = nil) async throws -> Receipt {
        try Self.check(amount)
        return try await apply(.withdraw(account: id, amount: amount), user: user, key: key)
    }

    /// Moves `amount` between two of the person's accounts: both sides or neither.
    public func transfer(user: Int64, from source: Int64, to target: Int64, amount: Money, key: String? = nil)
        async throws -> Receipt
    {
        try Self.check(amount)
        guard source != target else { throw WalletError.sameAccount }
        return try await apply(.transfer(from: source, to: target, amount: amount), user: user, key: key)
    }

    /// Forgets one-time keys older than a day (a form is not replayed after that).
    @discardableResult
    public func purgeKeys(olderThan age: TimeInterval = 86_400) async throws -> Int {
        try await store.purgeKeys(before: clock().addingTimeInterval(-age))
    }

    private func apply(_ change: WalletChange, user: Int64, key: String?) async throws -> Receipt {
        if let key, !Self.isValidKey(key) { throw WalletError.invalidOperationKey }
        return try await store.apply(change, user: user, key: key, now: clock())
    }

    /// A one-time key: 16 to 64 characters of base64url.
    public static func isValidKey(_ key: String) -> Bool {
        (16...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// A fresh one-time key for a form (128 random bits).
    public static func newKey() -> String {
        Data(secureRandomBytes(16)).base64URLEncodedString()
    }

    private static func check(_ amount: Money) throws {
        guard amount.cents > 0 else { throw WalletError.amount(.notPositive) }
        guard amount <= Money.maxAmount else { throw WalletError.amount(.tooLarge) }
    }

    private static func cleanName(_ input: String, error: WalletError) throws -> String {
        let name = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...40).contains(name.count),
            !name.contains(where: {
                $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
            })
        else { throw error }
        return name
    }
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
