import AuthCore
import Foundation
import GRDB
import WalletCore

/// ``WalletStore`` in the app's SQLite file, beside the sign-in tables (accounts belong to its
/// users): reads what ``WalletRules`` name and writes what they decided, one statement each.
/// SQLite runs one write transaction at a time, which serialises every change.
public struct SQLiteWalletStore: WalletStore {
    private let writer: any DatabaseWriter

    public init(database: SQLiteDatabase) {
        self.writer = database.writer
    }

    // MARK: Reading

    public func overview(user: Int64) async throws -> StoredOverview {
        try await writer.readOnWorkerThread { db in try Self.overview(db, user: user) }
    }

    public func sessionAndOverview(session key: Data) async throws -> (
        session: SessionRecord?, overview: StoredOverview?
    ) {
        try await writer.readOnWorkerThread { db in
            let session = try SQLiteAuthStore.session(db, key)
            return (session, try session?.userID.map { try Self.overview(db, user: $0) })
        }
    }

    private static func overview(_ db: Database, user: Int64) throws -> StoredOverview {
        let name = try String.fetchOne(
            try db.cachedStatement(sql: "SELECT display_name FROM wallet_profiles WHERE user_id = ?"),
            arguments: [user])
        let accounts = try Row.fetchAll(
            try db.cachedStatement(sql: "SELECT id, name, balance_cents FROM accounts WHERE user_id = ? ORDER BY id"),
            arguments: [user]
        ).map(Self.account)
        return StoredOverview(displayName: name, accounts: accounts)
    }

    public func account(user: Int64, id: Int64) async throws -> Account? {
        try await writer.translatedRead { db in try Self.account(db, user: user, id: id) }
    }

    public func history(user: Int64, account id: Int64, limit: Int) async throws -> [WalletCore.Operation]? {
        try await writer.translatedRead { db in
            guard try Self.account(db, user: user, id: id) != nil else { return nil }
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
                WalletCore.Operation(
                    id: row["id"], accountID: row["account_id"], kind: try Operation.Kind(stored: row["kind"]),
                    amount: Money(cents: row["amount_cents"]), balanceAfter: Money(cents: row["balance_after_cents"]),
                    counterpartyName: row["counterparty_name"],
                    createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
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

    /// Everything `reads` names, one statement each.
    private static func read(_ db: Database, _ reads: WalletReads) throws -> WalletSnapshot {
        var found = WalletSnapshot(
            userExists: try Bool.fetchOne(
                try db.cachedStatement(sql: "SELECT 1 FROM users WHERE id = ?"), arguments: [reads.user]) == true)
        if let key = reads.key,
            let row = try Row.fetchOne(
                try db.cachedStatement(
                    sql: """
                        SELECT action, account_id, operation_id, request_fingerprint
                        FROM wallet_operation_keys WHERE user_id = ? AND key = ?
                        """),
                arguments: [reads.user, key])
        {
            found.keyReceipt = Receipt(
                action: try Receipt.Action(stored: row["action"]), accountID: row["account_id"],
                operationID: row["operation_id"])
            found.keyFingerprint = row["request_fingerprint"]
        }
        for id in reads.accounts {
            found.accounts[id] = try account(db, user: reads.user, id: id)
        }
        if reads.accountNames {
            found.accountNames = try String.fetchAll(
                try db.cachedStatement(sql: "SELECT name FROM accounts WHERE user_id = ?"), arguments: [reads.user])
        }
        if reads.accountCount {
            found.accountCount =
                try Int.fetchOne(
                    try db.cachedStatement(sql: "SELECT count(*) FROM accounts WHERE user_id = ?"),
                    arguments: [reads.user]) ?? 0
        }
        return found
    }

    // MARK: Changing

    public func transaction(
        reading reads: WalletReads, decide: @escaping @Sendable (WalletSnapshot) throws -> WalletDecision
    ) async throws -> Receipt {
        try await writer.translatedWrite { db in
            let decision = try decide(try Self.read(db, reads))
            var inserted = InsertedIDs()
            for write in decision.writes {
                inserted.note(try Self.apply(db, write, user: reads.user, inserted: inserted), for: write)
            }
            return try inserted.resolve(decision.receipt)
        }
    }

    public func purgeKeys(before cutoff: Double) async throws -> Int {
        try await writer.translatedWrite { db in
            try db.cachedStatement(sql: "DELETE FROM wallet_operation_keys WHERE created_at < ?").execute(arguments: [
                cutoff
            ])
            return db.changesCount
        }
    }

    /// One write; returns the id it inserted, if it inserted one.
    private static func apply(_ db: Database, _ write: WalletWrite, user: Int64, inserted: InsertedIDs) throws
        -> Int64?
    {
        switch write {
        case .setDisplayName(let name):
            try db.cachedStatement(
                sql: """
                    INSERT INTO wallet_profiles (user_id, display_name) VALUES (?, ?)
                    ON CONFLICT(user_id) DO UPDATE SET display_name = excluded.display_name
                    """
            ).execute(arguments: [user, name])
        case .insertAccount(let name, let at):
            try uniqueName {
                try db.cachedStatement(
                    sql: "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (?, ?, 0, ?)"
                ).execute(arguments: [user, name, at])
            }
            return db.lastInsertedRowID
        case .renameAccount(let id, let name):
            try uniqueName {
                try db.cachedStatement(sql: "UPDATE accounts SET name = ? WHERE id = ?").execute(arguments: [name, id])
            }
        case .deleteAccount(let id):
            try db.cachedStatement(sql: "DELETE FROM accounts WHERE id = ?").execute(arguments: [id])
        case .setBalance(let id, let from, let to):
            try db.cachedStatement(sql: "UPDATE accounts SET balance_cents = ? WHERE id = ? AND balance_cents = ?")
                .execute(arguments: [to.cents, id, from.cents])
            guard db.changesCount == 1 else { throw StoredDataCorrupt("a balance changed inside its transaction") }
        case .insertOperation(let line):
            try db.cachedStatement(
                sql: """
                    INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                line.account, line.kind.rawValue, line.amount.cents, line.balanceAfter.cents, line.counterparty,
                line.at,
            ])
            return db.lastInsertedRowID
        case .rememberKey(let key, let draft, let at):
            let receipt = try inserted.resolve(draft)
            try db.cachedStatement(
                sql: """
                    INSERT INTO wallet_operation_keys
                        (user_id, key, action, account_id, operation_id, created_at, request_fingerprint)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                user, key.value, receipt.action.rawValue, receipt.accountID, receipt.operationID, at, key.fingerprint,
            ])
        }
        return nil
    }

    /// Runs `body`, turning the accounts' unique (user, name) constraint into the person's error.
    private static func uniqueName(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw WalletError.accountNameTaken
        }
    }
}
