import AuthCore
import Foundation
import GRDB

/// ``WalletStore`` in the app's SQLite file, beside AuthCore's tables (accounts belong to its
/// users). SQLite runs one write transaction at a time, which serialises every change.
public struct SQLiteWalletStore: WalletStore {
    private let writer: any DatabaseWriter

    /// - Parameter writer: the app's database, already migrated by ``migrate(_:)``.
    public init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    // MARK: Reading

    public func overview(user: Int64) async throws -> (displayName: String?, accounts: [Account]) {
        try await writer.readOnWorkerThread { db in try Self.overview(db, user: user) }
    }

    public func overviewRead() -> SessionRead<(displayName: String?, accounts: [Account])> {
        let writer = self.writer
        return SessionRead(
            sqlite: { db, user in try Self.overview(db, user: user.id) },
            separately: { user in try await writer.readOnWorkerThread { db in try Self.overview(db, user: user.id) } })
    }

    private static func overview(_ db: Database, user: Int64) throws -> (displayName: String?, accounts: [Account]) {
        let name = try String.fetchOne(
            try db.cachedStatement(sql: "SELECT display_name FROM wallet_profiles WHERE user_id = ?"),
            arguments: [user])
        let accounts = try Row.fetchAll(
            try db.cachedStatement(sql: "SELECT id, name, balance_cents FROM accounts WHERE user_id = ? ORDER BY id"),
            arguments: [user]
        ).map(Self.account)
        return (name, accounts)
    }

    public func account(user: Int64, id: Int64) async throws -> Account? {
        try await writer.read { db in try Self.account(db, user: user, id: id) }
    }

    public func history(user: Int64, account id: Int64, limit: Int) async throws -> [Operation] {
        try await writer.read { db in
            guard try Self.account(db, user: user, id: id) != nil else { throw WalletError.accountNotFound }
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

    public func apply(_ change: WalletChange, user: Int64, key: String?, now: Date) async throws -> Receipt {
        let seconds = now.timeIntervalSince1970
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
            let receipt = try Self.change(db, change, user: user, now: seconds)
            if let key {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO wallet_operation_keys (user_id, key, action, account_id, operation_id, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    user, key, receipt.action.rawValue, receipt.accountID, receipt.operationID, seconds,
                ])
            }
            return receipt
        }
    }

    public func purgeKeys(before cutoff: Date) async throws -> Int {
        try await writer.write { db in
            try db.cachedStatement(sql: "DELETE FROM wallet_operation_keys WHERE created_at < ?").execute(arguments: [
                cutoff.timeIntervalSince1970
            ])
            return db.changesCount
        }
    }

    /// One change inside the write transaction.
    private static func change(_ db: Database, _ change: WalletChange, user: Int64, now: Double) throws -> Receipt {
        func existing(_ id: Int64) throws -> Account {
            guard let account = try account(db, user: user, id: id) else { throw WalletError.accountNotFound }
            return account
        }
        var accountID: Int64?
        var operationID: Int64?
        switch change {
        case .setDisplayName(let name):
            try db.cachedStatement(
                sql: """
                    INSERT INTO wallet_profiles (user_id, display_name) VALUES (?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET display_name = excluded.display_name
                    """
            ).execute(arguments: [user, name])
        case .addAccount(let typed):
            let name =
                try typed
                ?? WalletRules.firstFreeAccountName(
                    taken: String.fetchAll(
                        try db.cachedStatement(sql: "SELECT name FROM accounts WHERE user_id = ?"), arguments: [user]))
            try uniqueName {
                try db.cachedStatement(
                    sql: "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (?, ?, 0, ?)"
                ).execute(arguments: [user, name, now])
            }
            accountID = db.lastInsertedRowID
        case .rename(let id, let name):
            accountID = try existing(id).id
            try uniqueName {
                try db.cachedStatement(sql: "UPDATE accounts SET name = ? WHERE id = ?").execute(arguments: [name, id])
            }
        case .delete(let id):
            try WalletRules.checkDeletable(try existing(id))
            try db.cachedStatement(sql: "DELETE FROM accounts WHERE id = ?").execute(arguments: [id])
            accountID = id
        case .deposit(let id, let amount):
            let account = try existing(id)
            let after = try WalletRules.deposit(amount, into: account)
            operationID = try move(db, account, to: after, kind: .deposit, amount: amount, counterparty: nil, now: now)
            accountID = id
        case .withdraw(let id, let amount):
            let account = try existing(id)
            let after = try WalletRules.withdraw(amount, from: account)
            operationID = try move(
                db, account, to: after, kind: .withdrawal, amount: amount, counterparty: nil, now: now)
            accountID = id
        case .transfer(let source, let target, let amount):
            let from = try existing(source)
            let to = try existing(target)
            let after = try WalletRules.transfer(amount, from: from, to: to)
            operationID = try move(
                db, from, to: after.source, kind: .transferOut, amount: amount, counterparty: target, now: now)
            _ = try move(db, to, to: after.target, kind: .transferIn, amount: amount, counterparty: source, now: now)
            accountID = source
        }
        return Receipt(action: change.action, accountID: accountID, operationID: operationID)
    }

    private static func account(_ row: Row) -> Account {
        Account(id: row["id"], name: row["name"], balance: Money(cents: row["balance_cents"]))
    }

    private static func account(_ db: Database, user: Int64, id: Int64) throws -> Account? {
        try Row.fetchOne(
            try db.cachedStatement(sql: "SELECT id, name, balance_cents FROM accounts WHERE id = ? AND user_id = ?"),
            arguments: [id, user]
        ).map(account)
    }

    /// Runs `body`, turning the accounts' unique (user, name) constraint into the person's error.
    private static func uniqueName(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw WalletError.accountNameTaken
        }
    }

    /// Sets the balance to `after` and writes the history line; returns its id.
    private static func move(
        _ db: Database, _ account: Account, to after: Money, kind: Operation.Kind, amount: Money, counterparty: Int64?,
        now: Double
    ) throws -> Int64 {
        try db.cachedStatement(sql: "UPDATE accounts SET balance_cents = ? WHERE id = ? AND balance_cents = ?").execute(
            arguments: [after.cents, account.id, account.balance.cents])
        precondition(db.changesCount == 1, "balance changed inside a write transaction")
        try db.cachedStatement(
            sql: """
                INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [account.id, kind.rawValue, amount.cents, after.cents, counterparty, now])
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
