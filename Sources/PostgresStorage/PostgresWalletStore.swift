import Foundation
import Logging
import PostgresNIO
import WalletCore

/// ``WalletStore`` on PostgreSQL, shared by every app instance.
///
/// A change locks the person's row in `users` (`SELECT … FOR UPDATE`) before it reads any
/// balance, so one person's changes run one at a time on every instance and the checks in
/// ``WalletRules`` see the balances they change; different people never wait for each other.
public struct PostgresWalletStore: WalletStore {
    private let database: PostgresBackend

    public init(database: PostgresBackend) {
        self.database = database
    }

    private var logger: Logger { database.logger }

    // MARK: Reading

    public func overview(user: Int64) async throws -> (displayName: String?, accounts: [Account]) {
        // One round trip: the profile's name rides along on every account row (and on a row of
        // its own when there are no accounts).
        let rows = try await database.rows(
            """
            SELECT p.display_name, a.id, a.name, a.balance_cents
            FROM (SELECT \(user)::bigint AS user_id) me
            LEFT JOIN wallet_profiles p ON p.user_id = me.user_id
            LEFT JOIN accounts a ON a.user_id = me.user_id
            ORDER BY a.id
            """)
        var name: String?
        var accounts: [Account] = []
        for row in rows {
            let (displayName, id, accountName, cents) = try row.decode((String?, Int64?, String?, Int64?).self)
            name = displayName
            if let id, let accountName, let cents {
                accounts.append(Account(id: id, name: accountName, balance: Money(cents: cents)))
            }
        }
        return (name, accounts)
    }

    public func account(user: Int64, id: Int64) async throws -> Account? {
        try await database.withConnection { connection in
            try await Self.account(connection, user: user, id: id, lock: false, logger)
        }
    }

    public func history(user: Int64, account id: Int64, limit: Int) async throws -> [WalletCore.Operation] {
        let rows = try await database.rows(
            """
            SELECT o.id, o.account_id, o.kind, o.amount_cents, o.balance_after_cents, o.created_at, c.name
            FROM accounts a
            JOIN operations o ON o.account_id = a.id
            LEFT JOIN accounts c ON c.id = o.counterparty_account_id
            WHERE a.id = \(id) AND a.user_id = \(user)
            ORDER BY o.id DESC LIMIT \(limit)
            """)
        if rows.isEmpty, try await account(user: user, id: id) == nil { throw WalletError.accountNotFound }
        return try rows.map { row in
            let (id, account, kind, amount, after, createdAt, counterparty) = try row.decode(
                (Int64, Int64, String, Int64, Int64, Double, String?).self)
            guard let kind = WalletCore.Operation.Kind(rawValue: kind) else {
                throw PostgresBackend.ConfigurationError("unknown operation kind \(kind) in the database")
            }
            return WalletCore.Operation(
                id: id, accountID: account, kind: kind, amount: Money(cents: amount), balanceAfter: Money(cents: after),
                counterpartyName: counterparty, createdAt: Date(timeIntervalSince1970: createdAt))
        }
    }

    // MARK: Changing

    public func apply(_ change: WalletChange, user: Int64, key: String?, now: Date) async throws -> Receipt {
        let logger = self.logger
        let seconds = now.timeIntervalSince1970
        return try await database.transaction { connection in
            // This person's changes, one at a time, on every instance (released at commit).
            guard try await !connection.rows("SELECT 1 FROM users WHERE id = \(user) FOR UPDATE", logger).isEmpty
            else { throw WalletError.accountNotFound }
            if let key,
                let (action, accountID, operationID) = try await connection.rows(
                    """
                    SELECT action, account_id, operation_id FROM wallet_operation_keys
                    WHERE user_id = \(user) AND key = \(key)
                    """, logger
                ).first?.decode((String, Int64?, Int64?).self),
                let action = Receipt.Action(rawValue: action)
            {
                return Receipt(action: action, accountID: accountID, operationID: operationID, replayed: true)
            }
            let receipt = try await Self.change(connection, change, user: user, now: seconds, logger)
            if let key {
                try await connection.rows(
                    """
                    INSERT INTO wallet_operation_keys (user_id, key, action, account_id, operation_id, created_at)
                    VALUES (\(user), \(key), \(receipt.action.rawValue), \(receipt.accountID), \(receipt.operationID), \(seconds))
                    """, logger)
            }
            return receipt
        }
    }

    public func purgeKeys(before cutoff: Date) async throws -> Int {
        try await database.rows(
            "DELETE FROM wallet_operation_keys WHERE created_at < \(cutoff.timeIntervalSince1970) RETURNING 1"
        ).count
    }

    /// One change inside the transaction, with the person's row locked.
    private static func change(
        _ connection: PostgresConnection, _ change: WalletChange, user: Int64, now: Double, _ logger: Logger
    ) async throws -> Receipt {
        func existing(_ id: Int64) async throws -> Account {
            guard let account = try await account(connection, user: user, id: id, lock: true, logger) else {
                throw WalletError.accountNotFound
            }
            return account
        }
        var accountID: Int64?
        var operationID: Int64?
        switch change {
        case .setDisplayName(let name):
            try await connection.rows(
                """
                INSERT INTO wallet_profiles (user_id, display_name) VALUES (\(user), \(name))
                ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name
                """, logger)
        case .addAccount(let typed):
            var name = typed
            if name == nil {
                let taken = try await connection.rows("SELECT name FROM accounts WHERE user_id = \(user)", logger)
                    .map { try $0.decode(String.self) }
                name = WalletRules.firstFreeAccountName(taken: taken)
            }
            accountID = try await uniqueName {
                try await connection.rows(
                    """
                    INSERT INTO accounts (user_id, name, balance_cents, created_at)
                    VALUES (\(user), \(name!), 0, \(now)) RETURNING id
                    """, logger
                )[0].decode(Int64.self)
            }
        case .rename(let id, let name):
            accountID = try await existing(id).id
            _ = try await uniqueName {
                try await connection.rows("UPDATE accounts SET name = \(name) WHERE id = \(id)", logger)
            }
        case .delete(let id):
            try WalletRules.checkDeletable(try await existing(id))
            try await connection.rows("DELETE FROM accounts WHERE id = \(id)", logger)
            accountID = id
        case .deposit(let id, let amount):
            let account = try await existing(id)
            let after = try WalletRules.deposit(amount, into: account)
            operationID = try await move(
                connection, account, to: after, kind: .deposit, amount: amount, counterparty: nil, now: now, logger)
            accountID = id
        case .withdraw(let id, let amount):
            let account = try await existing(id)
            let after = try WalletRules.withdraw(amount, from: account)
            operationID = try await move(
                connection, account, to: after, kind: .withdrawal, amount: amount, counterparty: nil, now: now, logger)
            accountID = id
        case .transfer(let source, let target, let amount):
            let from = try await existing(source)
            let to = try await existing(target)
            let after = try WalletRules.transfer(amount, from: from, to: to)
            operationID = try await move(
                connection, from, to: after.source, kind: .transferOut, amount: amount, counterparty: target, now: now,
                logger)
            _ = try await move(
                connection, to, to: after.target, kind: .transferIn, amount: amount, counterparty: source, now: now,
                logger)
            accountID = source
        }
        return Receipt(action: change.action, accountID: accountID, operationID: operationID)
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

    /// Runs `body`, turning the per-person unique account name into the person's error.
    private static func uniqueName<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw WalletError.accountNameTaken
        }
    }

    /// Sets the balance to `after` and writes the history line; returns its id.
    private static func move(
        _ connection: PostgresConnection, _ account: Account, to after: Money, kind: WalletCore.Operation.Kind,
        amount: Money,
        counterparty: Int64?, now: Double, _ logger: Logger
    ) async throws -> Int64 {
        let updated = try await connection.rows(
            """
            UPDATE accounts SET balance_cents = \(after.cents)
            WHERE id = \(account.id) AND balance_cents = \(account.balance.cents) RETURNING 1
            """, logger)
        precondition(updated.count == 1, "balance changed while its row was locked")
        return try await connection.rows(
            """
            INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
            VALUES (\(account.id), \(kind.rawValue), \(amount.cents), \(after.cents), \(counterparty), \(now))
            RETURNING id
            """, logger
        )[0].decode(Int64.self)
    }
}
