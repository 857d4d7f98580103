import AuthCore
import Foundation
import WalletCore

/// What ``WalletCore/WalletStore`` reads and writes, once for both databases.
///
/// A change first locks the person's row in `users` (`SELECT … FOR UPDATE` on PostgreSQL;
/// SQLite's one writer implies it), then their accounts, so one person's changes run one at a
/// time on every instance and the rules see the balances they change; different people never
/// wait for each other.
public enum WalletQueries {
    // MARK: Reading

    /// One statement: the profile's name, and whether the person has a way back in without their
    /// number (a passkey or an unused recovery code, each one indexed lookup), ride along on every
    /// account row (and on a row of their own when there are no accounts).
    static let overviewOfUser = SQL(
        """
        SELECT p.display_name, a.id, a.name, a.balance_cents,
               CASE WHEN EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = me.user_id)
                         OR EXISTS (SELECT 1 FROM recovery_codes r WHERE r.user_id = me.user_id AND r.used_at IS NULL)
                    THEN 1 ELSE 0 END AS has_way_back
        FROM (SELECT CAST($1 AS BIGINT) AS user_id) me
        LEFT JOIN wallet_profiles p ON p.user_id = me.user_id
        LEFT JOIN accounts a ON a.user_id = me.user_id
        ORDER BY a.id
        """)

    /// The person's chosen name and accounts, oldest first.
    public static func overview(user: Int64) -> Step<StoredOverview> {
        .rows(Statement(overviewOfUser, user)) { rows in
            var overview = StoredOverview(displayName: nil, accounts: [])
            for row in rows {
                overview.displayName = try row.optional("display_name")
                overview.hasWayBack = try row.get("has_way_back") as Int64 != 0
                if let id: Int64 = try row.optional("id") {
                    overview.accounts.append(
                        Account(id: id, name: try row.get("name"), balance: Money(cents: try row.get("balance_cents"))))
                }
            }
            return .done(overview)
        }
    }

    /// Home's one read: the session and, when it belongs to a user, that user's overview.
    public static func sessionAndOverview(session key: Data) -> Step<(SessionRecord?, StoredOverview?)> {
        AuthReads.session(key).then { session in
            guard let user = session?.userID else { return .done((session, nil)) }
            return overview(user: user).map { (session, $0) }
        }
    }

    static let displayNameOfUser = SQL("SELECT display_name FROM wallet_profiles WHERE user_id = $1")

    /// The person's chosen name; nil when none is set.
    static func displayName(user: Int64) -> Step<String?> {
        .rows(Statement(displayNameOfUser, user)) { rows in .done(try rows.first?.optional("display_name")) }
    }

    static let accountOfUser = SQL("SELECT id, name, balance_cents FROM accounts WHERE id = $1 AND user_id = $2")
    static let accountOfUserLocked = SQL(
        "SELECT id, name, balance_cents FROM accounts WHERE id = $1 AND user_id = $2 FOR UPDATE")

    /// One of the person's accounts; nil for someone else's or none.
    public static func account(user: Int64, id: Int64, locked: Bool = false) -> Step<Account?> {
        .rows(Statement(locked ? accountOfUserLocked : accountOfUser, id, user)) { rows in
            .done(
                try rows.first.map { row in
                    Account(id: try row.get("id"), name: try row.get("name"), balance: Money(cents: try row.get("balance_cents")))
                })
        }
    }

    static let operationsOfAccount = SQL(
        """
        SELECT o.id, o.account_id, o.kind, o.amount_cents, o.balance_after_cents, o.created_at,
               c.name AS counterparty_name
        FROM accounts a
        JOIN operations o ON o.account_id = a.id
        LEFT JOIN accounts c ON c.id = o.counterparty_account_id
        WHERE a.id = $1 AND a.user_id = $2
        ORDER BY o.id DESC LIMIT $3
        """)

    /// The account's operations, newest first; nil for someone else's account or none (asked
    /// only when there are no operations to show).
    public static func history(user: Int64, account id: Int64, limit: Int) -> Step<[WalletCore.Operation]?> {
        .rows(Statement(operationsOfAccount, id, user, limit)) { rows in
            let operations = try rows.map { row in
                WalletCore.Operation(
                    id: try row.get("id"), accountID: try row.get("account_id"),
                    kind: try .init(stored: try row.get("kind")), amount: Money(cents: try row.get("amount_cents")),
                    balanceAfter: Money(cents: try row.get("balance_after_cents")),
                    counterpartyName: try row.optional("counterparty_name"),
                    createdAt: Date(timeIntervalSince1970: try row.get("created_at")))
            }
            guard operations.isEmpty else { return .done(operations) }
            return account(user: user, id: id).map { $0 == nil ? nil : [] }
        }
    }

    static let lockUser = SQL("SELECT 1 AS found FROM users WHERE id = $1 FOR UPDATE")
    static let operationKey = SQL(
        """
        SELECT action, account_id, operation_id, request_fingerprint FROM wallet_operation_keys
        WHERE user_id = $1 AND key = $2
        """)
    static let accountNames = SQL("SELECT name FROM accounts WHERE user_id = $1")
    static let accountCount = SQL("SELECT count(*) AS count FROM accounts WHERE user_id = $1")

    /// Everything `reads` names, one statement each, after locking the person's row.
    public static func read(_ reads: WalletReads) -> Step<WalletSnapshot> {
        .rows(Statement(lockUser, reads.user)) { rows in
            var step = Step<WalletSnapshot>.done(WalletSnapshot(userExists: !rows.isEmpty))
            if let key = reads.key {
                step = step.then { found in
                    .rows(Statement(operationKey, reads.user, key)) { rows in
                        var found = found
                        if let row = rows.first {
                            found.keyReceipt = Receipt(
                                action: try Receipt.Action(stored: try row.get("action")),
                                accountID: try row.optional("account_id"),
                                operationID: try row.optional("operation_id"))
                            found.keyFingerprint = try row.optional("request_fingerprint")
                        }
                        return .done(found)
                    }
                }
            }
            for id in reads.accounts {
                step = step.then { found in
                    account(user: reads.user, id: id, locked: true).map { account in
                        var found = found
                        found.accounts[id] = account
                        return found
                    }
                }
            }
            if reads.accountNames {
                step = step.then { found in
                    .rows(Statement(accountNames, reads.user)) { rows in
                        var found = found
                        found.accountNames = try rows.map { try $0.get("name") }
                        return .done(found)
                    }
                }
            }
            if reads.accountCount {
                step = step.then { found in
                    .rows(Statement(accountCount, reads.user)) { rows in
                        var found = found
                        found.accountCount = try rows.first?.get("count") ?? 0
                        return .done(found)
                    }
                }
            }
            return step
        }
    }

    // MARK: Changing

    /// Reads what `reads` names, asks `decide`, and writes what it decided; the result is the
    /// receipt with the ids the database assigned.
    public static func transaction(
        reading reads: WalletReads, decide: @escaping (WalletSnapshot) throws -> WalletDecision
    ) -> Step<Receipt> {
        read(reads).then { snapshot in
            let decision = try decide(snapshot)
            var step = Step<InsertedIDs>.done(InsertedIDs())
            for write in decision.writes {
                step = step.then { inserted in
                    try apply(write, user: reads.user, inserted: inserted).map { id in
                        var inserted = inserted
                        inserted.note(id, for: write)
                        return inserted
                    }
                }
            }
            return step.map { try $0.resolve(decision.receipt) }.then { receipt in
                // The account as the change left it, before the commit: the answer needs no
                // read after it (one that failed would say "try again" about a change made).
                if receipt.action == .setName {
                    return displayName(user: reads.user).map { name in
                        var receipt = receipt
                        receipt.displayName = name
                        return receipt
                    }
                }
                guard let id = receipt.accountID, receipt.action != .delete else { return .done(receipt) }
                return account(user: reads.user, id: id).map { account in
                    var receipt = receipt
                    receipt.account = account
                    return receipt
                }
            }
        }
    }

    static let upsertDisplayName = SQL(
        """
        INSERT INTO wallet_profiles (user_id, display_name) VALUES ($1, $2)
        ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name
        """)
    static let insertAccount = SQL(
        "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES ($1, $2, 0, $3) RETURNING id")
    static let renameAccount = SQL("UPDATE accounts SET name = $1 WHERE id = $2")
    static let deleteAccount = SQL("DELETE FROM accounts WHERE id = $1")
    static let setBalance = SQL("UPDATE accounts SET balance_cents = $1 WHERE id = $2 AND balance_cents = $3")
    static let insertOperation = SQL(
        """
        INSERT INTO operations (account_id, kind, amount_cents, balance_after_cents, counterparty_account_id, created_at)
        VALUES ($1, $2, $3, $4, $5, $6)
        RETURNING id
        """)
    static let insertKey = SQL(
        """
        INSERT INTO wallet_operation_keys (user_id, key, action, account_id, operation_id, created_at, request_fingerprint)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        """)

    /// One write; the result is the id it inserted, if it inserted one.
    static func apply(_ write: WalletWrite, user: Int64, inserted: InsertedIDs) throws -> Step<Int64?> {
        switch write {
        case .setDisplayName(let name):
            return Step<Int>.execute([Statement(upsertDisplayName, user, name)]).map { _ in nil }
        case .insertAccount(let name, let at):
            return .rows(Statement(insertAccount, user, name, at).duplicate(means: WalletError.accountNameTaken)) {
                .done(try $0.first?.get("id"))
            }
        case .renameAccount(let id, let name):
            return .changes(Statement(renameAccount, name, id).duplicate(means: WalletError.accountNameTaken)) { _ in
                .done(nil)
            }
        case .deleteAccount(let id):
            return .changes(Statement(deleteAccount, id)) { _ in .done(nil) }
        case .setBalance(let id, let from, let to):
            return .changes(Statement(setBalance, to.cents, id, from.cents)) { changed in
                guard changed == 1 else { throw StoredDataCorrupt("a balance changed while its row was locked") }
                return .done(nil)
            }
        case .insertOperation(let line):
            return .rows(
                Statement(
                    insertOperation, line.account, line.kind.rawValue, line.amount.cents, line.balanceAfter.cents,
                    line.counterparty, line.at)
            ) { .done(try $0.first?.get("id")) }
        case .rememberKey(let key, let draft, let at):
            let receipt = try inserted.resolve(draft)
            return .changes(
                Statement(
                    insertKey, user, key.value, receipt.action.rawValue, receipt.accountID, receipt.operationID, at,
                    key.fingerprint)
            ) { _ in .done(nil) }
        }
    }

    public static func purgeKeys(before cutoff: Double) -> Step<Int> {
        .execute([Statement(SQL("DELETE FROM wallet_operation_keys WHERE created_at < $1"), cutoff)])
    }
}
