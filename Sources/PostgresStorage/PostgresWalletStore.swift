import AuthCore
import Foundation
import Logging
import PostgresNIO
import WalletCore

/// ``WalletStore`` on PostgreSQL, shared by every app instance: reads what ``WalletRules``
/// name and writes what they decided, one statement each.
///
/// A change locks the person's row in `users` (`SELECT … FOR UPDATE`) before it reads any
/// balance, so one person's changes run one at a time on every instance and the rules see the
/// balances they change; different people never wait for each other.
public struct PostgresWalletStore: WalletStore {
    private let database: PostgresBackend

    public init(database: PostgresBackend) {
        self.database = database
    }

    // MARK: Reading

    public func overview(user: Int64) async throws -> StoredOverview {
        let logger = database.logger
        return try await database.withConnection { connection in try await Self.overview(connection, user, logger) }
    }

    public func sessionAndOverview(session key: Data) async throws -> (
        session: SessionRecord?, overview: StoredOverview?
    ) {
        let logger = database.logger
        return try await database.withConnection { connection in
            let session = try await PostgresAuthStore.session(connection, key, logger)
            guard let user = session?.userID else { return (session, nil) }
            return (session, try await Self.overview(connection, user, logger))
        }
    }

    /// One round trip: the profile's name rides along on every account row (and on a row of its
    /// own when there are no accounts).
    private static func overview(_ connection: PostgresConnection, _ user: Int64, _ logger: Logger) async throws
        -> StoredOverview
    {
        let rows = try await connection.rows(
            """
            SELECT p.display_name, a.id, a.name, a.balance_cents
            FROM (SELECT \(user)::bigint AS user_id) me
            LEFT JOIN wallet_profiles p ON p.user_id = me.user_id
            LEFT JOIN accounts a ON a.user_id = me.user_id
            ORDER BY a.id
            """, logger)
        var overview = StoredOverview(displayName: nil, accounts: [])
        for row in rows {
            let (displayName, id, accountName, cents) = try row.decode((String?, Int64?, String?, Int64?).self)
            overview.displayName = displayName
            if let id, let accountName, let cents {
                overview.accounts.append(Account(id: id, name: accountName, balance: Money(cents: cents)))
            }
        }
        return overview
    }

    public func account(user: Int64, id: Int64) async throws -> Account? {
        let logger = database.logger
        return try await database.withConnection { connection in
            try await Self.account(connection, user: user, id: id, lock: false, logger)
        }
    }

    public func history(user: Int64, account id: Int64, limit: Int) async throws -> [WalletCore.Operation]? {
        let rows = try await database.rows(
            """
            SELECT o.id, o.account_id, o.kind, o.amount_cents, o.balance_after_cents, o.created_at, c.name
            FROM accounts a
            JOIN operations o ON o.account_id = a.id
            LEFT JOIN accounts c ON c.id = o.counterparty_account_id
            WHERE a.id = \(id) AND a.user_id = \(user)
            ORDER BY o.id DESC LIMIT \(limit)
            """)
        if rows.isEmpty, try await account(user: user, id: id) == nil { return nil }
        return try rows.map { row in
            let (id, account, kind, amount, after, createdAt, counterparty) = try row.decode(
                (Int64, Int64, String, Int64, Int64, Double, String?).self)
            return WalletCore.Operation(
                id: id, accountID: account, kind: try .init(stored: kind), amount: Money(cents: amount),
                balanceAfter: Money(cents: after), counterpartyName: counterparty,
                createdAt: Date(timeIntervalSince1970: createdAt))
        }
    }

    private static func account(
        _ connection: PostgresConnection, user: Int64, id: Int64, lock: Bool, _ logger: Logger
    ) async throws -> Account? {
        let forUpdate = lock ? " FOR UPDATE" : ""
        guard
            let (id, name, cents) = try await connection.rows(
                "SELECT id, name, balance_cents FROM accounts WHERE id = \(id) AND user_id = \(user)\(unescaped: forUpdate)",
                logger
            ).first?.decode((Int64, String, Int64).self)
        else { return nil }
        return Account(id: id, name: name, balance: Money(cents: cents))
    }

    /// Everything `reads` names, one statement each, after locking the person's row.
    private static func read(_ connection: PostgresConnection, _ reads: WalletReads, _ logger: Logger) async throws
        -> WalletSnapshot
    {
        // This person's changes, one at a time, on every instance (released at commit).
        var found = WalletSnapshot(
            userExists: try await !connection.rows(
                "SELECT 1 FROM users WHERE id = \(reads.user) FOR UPDATE", logger
            ).isEmpty)
        if let key = reads.key,
            let (action, accountID, operationID, fingerprint) = try await connection.rows(
                """
                SELECT action, account_id, operation_id, request_fingerprint FROM wallet_operation_keys
                WHERE user_id = \(reads.user) AND key = \(key)
                """, logger
            ).first?.decode((String, Int64?, Int64?, Data?).self)
        {
            found.keyReceipt = Receipt(
                action: try Receipt.Action(stored: action), accountID: accountID, operationID: operationID)
            found.keyFingerprint = fingerprint
        }
        for id in reads.accounts {
            found.accounts[id] = try await account(connection, user: reads.user, id: id, lock: true, logger)
        }
        if reads.accountNames {
            found.accountNames = try await connection.rows(
                "SELECT name FROM accounts WHERE user_id = \(reads.user)", logger
            ).map { try $0.decode(String.self) }
        }
        if reads.accountCount {
            found.accountCount =
                try await connection.rows(
                    "SELECT count(*) FROM accounts WHERE user_id = \(reads.user)", logger
                ).first?.decode(Int.self) ?? 0
        }
        return found
    }

    // MARK: Changing

    public func transaction(
        reading reads: WalletReads, decide: @escaping @Sendable (WalletSnapshot) throws -> WalletDecision
    ) async throws -> Receipt {
        let logger = database.logger
        return try await database.transaction { connection in
            let decision = try decide(try await Self.read(connection, reads, logger))
            var inserted = InsertedIDs()
            for write in decision.writes {
                inserted.note(
                    try await Self.apply(connection, write, user: reads.user, inserted: inserted, logger), for: write)
            }
            return try inserted.resolve(decision.receipt)
        }
    }

    public func purgeKeys(before cutoff: Double) async throws -> Int {
        try await database.rows("DELETE FROM wallet_operation_keys WHERE created_at < \(cutoff) RETURNING 1").count
    }

    /// One write; returns the id it inserted, if it inserted one.
    private static func apply(
        _ connection: PostgresConnection, _ write: WalletWrite, user: Int64, inserted: InsertedIDs, _ logger: Logger
    ) async throws -> Int64? {
        switch write {
        case .setDisplayName(let name):
            try await connection.rows(
                """
                INSERT INTO wallet_profiles (user_id, display_name) VALUES (\(user), \(name))
                ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name
                """, logger)
        case .insertAccount(let name, let at):
            return try await uniqueName {
                try await connection.rows(
                    """
                    INSERT INTO accounts (user_id, name, balance_cents, created_at)
                    VALUES (\(user), \(name), 0, \(at)) RETURNING id
                    """, logger
                ).first?.decode(Int64.self)
            }
        case .renameAccount(let id, let name):
            _ = try await uniqueName {
                try await connection.rows("UPDATE accounts SET name = \(name) WHERE id = \(id)", logger)
            }
        case .deleteAccount(let id):
            try await connection.rows("DELETE FROM accounts WHERE id = \(id)", logger)
        case .setBalance(let id, let from, let to):
            let updated = try await connection.rows(
                """
                UPDATE accounts SET balance_cents = \(to.cents)
                WHERE id = \(id) AND balance_cents = \(from.cents) RETURNING 1
                """, logger)
            guard updated.count == 1 else { throw StoredDataCorrupt("a balance changed while its row was locked") }
        case .insertOperation(let line):
            return try await connection.rows(
                """
                INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
                VALUES (\(line.account), \(line.kind.rawValue), \(line.amount.cents), \(line.balanceAfter.cents), \(line.counterparty), \(line.at))
                RETURNING id
                """, logger
            ).first?.decode(Int64.self)
        case .rememberKey(let key, let draft, let at):
            let receipt = try inserted.resolve(draft)
            try await connection.rows(
                """
                INSERT INTO wallet_operation_keys
                    (user_id, key, action, account_id, operation_id, created_at, request_fingerprint)
                VALUES (\(user), \(key.value), \(receipt.action.rawValue), \(receipt.accountID), \(receipt.operationID), \(at), \(key.fingerprint))
                """, logger)
        }
        return nil
    }

    /// Runs `body`, turning the per-person unique account name into the person's error.
    private static func uniqueName<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw WalletError.accountNameTaken
        }
    }
}
