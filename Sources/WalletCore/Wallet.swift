import AuthCore
import Foundation
import GRDB

/// One account of a person.
public struct Account: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let balance: Money
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
}

/// What Home shows: the person's name, accounts and their total.
public struct Overview: Sendable, Equatable {
    public let displayName: String
    public let accounts: [Account]
    public var total: Money { accounts.reduce(.zero) { $0 + $1.balance } }
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
}

/// The wallet: accounts with balances in integer cents, and deposit, withdraw, transfer,
/// rename and delete, for the signed-in person only.
///
/// Every change is one SQLite write transaction (a transfer moves both sides or neither), the
/// schema refuses negative balances, and each change may carry a one-time key so that a double
/// tap, a refresh or a replayed form applies it once.
public struct Wallet: Sendable {
    private let writer: any DatabaseWriter
    private let clock: @Sendable () -> Date

    /// - Parameter writer: the app's database (the users table is AuthCore's); the wallet's
    ///   tables are created by ``migrate(_:)``.
    public init(writer: any DatabaseWriter, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.writer = writer
        self.clock = clock
    }

    // MARK: Reading

    /// The person's name (their formatted phone until they set one), accounts and total.
    public func overview(user: Int64, defaultName: String) async throws -> Overview {
        try await writer.readOnWorkerThread { db in
            let name = try String.fetchOne(
                try db.cachedStatement(sql: "SELECT display_name FROM wallet_profiles WHERE user_id = ?"),
                arguments: [user])
            let accounts = try Row.fetchAll(
                try db.cachedStatement(
                    sql: "SELECT id, name, balance_cents FROM accounts WHERE user_id = ? ORDER BY id"),
                arguments: [user]
            ).map(Self.account)
            return Overview(displayName: name ?? defaultName, accounts: accounts)
        }
    }

    /// One of the person's accounts; someone else's is ``WalletError/accountNotFound``.
    public func account(user: Int64, id: Int64) async throws -> Account {
        try await writer.read { db in try Self.account(db, user: user, id: id) }
    }

    /// The account's operations, newest first.
    public func history(user: Int64, account id: Int64, limit: Int = 100) async throws -> [Operation] {
        try await writer.read { db in
            _ = try Self.account(db, user: user, id: id)
            return try Row.fetchAll(
                try db.cachedStatement(
                    sql: """
                        SELECT o.id, o.account_id, o.kind, o.amount_cents, o.balance_after_cents, o.created_at,
                               c.name AS counterparty_name
                        FROM operations o LEFT JOIN accounts c ON c.id = o.counterparty_account_id
                        WHERE o.account_id = ? ORDER BY o.id DESC LIMIT ?
                        """),
                arguments: [id, limit]
            ).map { row in
                Operation(
                    id: row["id"], accountID: row["account_id"], kind: Operation.Kind(rawValue: row["kind"])!,
                    amount: Money(cents: row["amount_cents"]), balanceAfter: Money(cents: row["balance_after_cents"]),
                    counterpartyName: row["counterparty_name"],
                    createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }

    // MARK: Changing

    /// Sets the name Home greets the person with (1 to 40 characters, trimmed).
    public func setDisplayName(user: Int64, to input: String, key: String? = nil) async throws -> Receipt {
        let name = try Self.cleanName(input, error: .invalidDisplayName)
        return try await perform(user: user, key: key) { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO wallet_profiles (user_id, display_name) VALUES (?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET display_name = excluded.display_name
                    """
            ).execute(arguments: [user, name])
            return Receipt(action: .setName, accountID: nil, operationID: nil)
        }
    }

    /// Opens an account named `name`, or "Account N" with the first N not in use.
    public func addAccount(user: Int64, name input: String?, key: String? = nil) async throws -> Receipt {
        let typed = try input.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            .map { try Self.cleanName($0, error: .invalidAccountName) }
        return try await perform(user: user, key: key) { db in
            let name: String
            if let typed {
                name = typed
            } else {
                let taken = Set(
                    try String.fetchAll(
                        try db.cachedStatement(sql: "SELECT lower(name) FROM accounts WHERE user_id = ?"),
                        arguments: [user]))
                name = (1...).lazy.map { "Account \($0)" }.first { !taken.contains($0.lowercased()) }!
            }
            try Self.insertAccount(db, user: user, name: name, now: clock())
            return Receipt(action: .addAccount, accountID: db.lastInsertedRowID, operationID: nil)
        }
    }

    public func rename(user: Int64, account id: Int64, to input: String, key: String? = nil) async throws -> Receipt {
        let name = try Self.cleanName(input, error: .invalidAccountName)
        return try await perform(user: user, key: key) { db in
            _ = try Self.account(db, user: user, id: id)
            do {
                try db.cachedStatement(sql: "UPDATE accounts SET name = ? WHERE id = ?").execute(arguments: [name, id])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw WalletError.accountNameTaken
            }
            return Receipt(action: .rename, accountID: id, operationID: nil)
        }
    }

    /// Deletes an empty account (its history goes with it).
    public func delete(user: Int64, account id: Int64, key: String? = nil) async throws -> Receipt {
        try await perform(user: user, key: key) { db in
            let account = try Self.account(db, user: user, id: id)
            guard account.balance == .zero else { throw WalletError.accountNotEmpty(balance: account.balance) }
            try db.cachedStatement(sql: "DELETE FROM accounts WHERE id = ?").execute(arguments: [id])
            return Receipt(action: .delete, accountID: id, operationID: nil)
        }
    }

    public func deposit(user: Int64, account id: Int64, amount: Money, key: String? = nil) async throws -> Receipt {
        try Self.check(amount)
        return try await perform(user: user, key: key) { db in
            let account = try Self.account(db, user: user, id: id)
            guard account.balance.cents <= Money.maxBalance.cents - amount.cents else { throw WalletError.balanceLimit }
            let operation = try Self.move(
                db, account: account, by: amount, kind: .deposit, counterparty: nil, now: clock())
            return Receipt(action: .deposit, accountID: id, operationID: operation)
        }
    }

    public func withdraw(user: Int64, account id: Int64, amount: Money, key: String? = nil) async throws -> Receipt {
        try Self.check(amount)
        return try await perform(user: user, key: key) { db in
            let account = try Self.account(db, user: user, id: id)
            guard amount <= account.balance else { throw WalletError.insufficientFunds(balance: account.balance) }
            let operation = try Self.move(
                db, account: account, by: Money(cents: -amount.cents), kind: .withdrawal, counterparty: nil,
                now: clock())
            return Receipt(action: .withdraw, accountID: id, operationID: operation)
        }
    }

    /// Moves `amount` between two of the person's accounts: both sides or neither.
    public func transfer(user: Int64, from source: Int64, to target: Int64, amount: Money, key: String? = nil)
        async throws -> Receipt
    {
        try Self.check(amount)
        guard source != target else { throw WalletError.sameAccount }
        return try await perform(user: user, key: key) { db in
            let from = try Self.account(db, user: user, id: source)
            let to = try Self.account(db, user: user, id: target)
            guard amount <= from.balance else { throw WalletError.insufficientFunds(balance: from.balance) }
            guard to.balance.cents <= Money.maxBalance.cents - amount.cents else { throw WalletError.balanceLimit }
            let now = clock()
            let out = try Self.move(
                db, account: from, by: Money(cents: -amount.cents), kind: .transferOut, counterparty: target, now: now)
            _ = try Self.move(db, account: to, by: amount, kind: .transferIn, counterparty: source, now: now)
            return Receipt(action: .transfer, accountID: source, operationID: out)
        }
    }

    /// Forgets one-time keys older than a day (a form is not replayed after that).
    @discardableResult
    public func purgeKeys(olderThan age: TimeInterval = 86_400) async throws -> Int {
        let cutoff = clock().timeIntervalSince1970 - age
        return try await writer.write { db in
            try db.cachedStatement(sql: "DELETE FROM wallet_operation_keys WHERE created_at < ?").execute(arguments: [
                cutoff
            ])
            return db.changesCount
        }
    }

    // MARK: Inside the transaction

    /// Runs `body` in one write transaction, unless `key` was used before by this person: then
    /// the first call's receipt comes back and nothing changes. The key is stored in the same
    /// transaction as the change, so a crash cannot keep one without the other.
    private func perform(user: Int64, key: String?, _ body: @escaping @Sendable (Database) throws -> Receipt)
        async throws -> Receipt
    {
        if let key, !Self.isValidKey(key) { throw WalletError.invalidOperationKey }
        let now = clock().timeIntervalSince1970
        return try await writer.write { db in
            if let key,
                let row = try Row.fetchOne(
                    try db.cachedStatement(
                        sql:
                            "SELECT action, account_id, operation_id FROM wallet_operation_keys WHERE user_id = ? AND key = ?"
                    ),
                    arguments: [user, key])
            {
                return Receipt(
                    action: Receipt.Action(rawValue: row["action"])!, accountID: row["account_id"],
                    operationID: row["operation_id"], replayed: true)
            }
            let receipt = try body(db)
            if let key {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO wallet_operation_keys (user_id, key, action, account_id, operation_id, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [user, key, receipt.action.rawValue, receipt.accountID, receipt.operationID, now])
            }
            return receipt
        }
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

    private static func account(_ row: Row) -> Account {
        Account(id: row["id"], name: row["name"], balance: Money(cents: row["balance_cents"]))
    }

    private static func account(_ db: Database, user: Int64, id: Int64) throws -> Account {
        guard
            let row = try Row.fetchOne(
                try db.cachedStatement(
                    sql: "SELECT id, name, balance_cents FROM accounts WHERE id = ? AND user_id = ?"),
                arguments: [id, user])
        else { throw WalletError.accountNotFound }
        return account(row)
    }

    private static func insertAccount(_ db: Database, user: Int64, name: String, now: Date) throws {
        do {
            try db.cachedStatement(
                sql: "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (?, ?, 0, ?)"
            ).execute(arguments: [user, name, now.timeIntervalSince1970])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw WalletError.accountNameTaken
        }
    }

    /// Changes the balance by `delta` and writes the history line; returns its id.
    private static func move(
        _ db: Database, account: Account, by delta: Money, kind: Operation.Kind, counterparty: Int64?, now: Date
    ) throws -> Int64 {
        let after = account.balance + delta
        try db.cachedStatement(sql: "UPDATE accounts SET balance_cents = ? WHERE id = ? AND balance_cents = ?").execute(
            arguments: [after.cents, account.id, account.balance.cents])
        precondition(db.changesCount == 1, "balance changed inside a write transaction")
        try db.cachedStatement(
            sql: """
                INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            account.id, kind.rawValue, delta.cents.magnitude, after.cents, counterparty, now.timeIntervalSince1970,
        ])
        return db.lastInsertedRowID
    }

    // MARK: Schema

    /// Creates or updates the wallet's tables; run at start-up after AuthCore's migrations
    /// (accounts belong to its users).
    public static func migrate(_ writer: any DatabaseWriter) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("wallet-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE wallet_profiles (
                        user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                        display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 40)
                    );
                    CREATE TABLE accounts (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 40),
                        balance_cents INTEGER NOT NULL DEFAULT 0
                            CHECK (balance_cents >= 0 AND balance_cents <= 100000000000000),
                        created_at REAL NOT NULL,
                        UNIQUE (user_id, name)
                    );
                    CREATE TABLE operations (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdrawal', 'transfer_in', 'transfer_out')),
                        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
                        balance_after_cents INTEGER NOT NULL CHECK (balance_after_cents >= 0),
                        counterparty_account_id INTEGER,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX operations_by_account ON operations(account_id, id);
                    CREATE TABLE wallet_operation_keys (
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        action TEXT NOT NULL,
                        account_id INTEGER,
                        operation_id INTEGER,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (user_id, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX wallet_operation_keys_by_age ON wallet_operation_keys(created_at);
                    """)
        }
        try migrator.migrate(writer)
    }
}
