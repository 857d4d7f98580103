import Foundation
import GRDB

/// What Home shows: the person's phone and name and their accounts.
struct HomeData: Sendable {
    struct Account: Sendable {
        let id: Int64
        let name: String
        let balanceCents: Int64
    }

    let phone: String
    let displayName: String?
    let accounts: [Account]
}

/// The peer's SQLite database through GRDB: sessions keyed by the SHA-256 of their token, as
/// Phone Login keys them, the people, their names and their accounts.
struct PeerStore: Sendable {
    let pool: DatabasePool

    init(path: String) throws {
        pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, phone TEXT NOT NULL UNIQUE);
                    CREATE TABLE IF NOT EXISTS sessions (
                        key BLOB PRIMARY KEY NOT NULL,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        last_seen_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        absolute_expires_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS wallet_profiles (
                        user_id INTEGER PRIMARY KEY REFERENCES users(id), display_name TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS accounts (
                        id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
                        name TEXT NOT NULL, balance_cents INTEGER NOT NULL);
                    CREATE INDEX IF NOT EXISTS accounts_by_user ON accounts(user_id);
                    """)
        }
    }

    /// Signs in the person `bench/run` signs in on our server (+1 415 555 0100, with the same
    /// two accounts) and returns the session's token for its cookie.
    func seed() async throws -> String {
        let token = RandomToken.make(bytes: 32)
        let now = Date().timeIntervalSince1970
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO users (id, phone) VALUES (1, '+14155550100')")
            try db.execute(sql: "DELETE FROM accounts")
            try db.execute(
                sql: "INSERT INTO accounts (user_id, name, balance_cents) VALUES (1, 'Everyday', 0), (1, 'Savings', 0)")
            try db.execute(
                sql: """
                    INSERT INTO sessions (key, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                    VALUES (?, 1, ?, ?, ?, ?)
                    """,
                arguments: [SessionKey.storageKey(of: token), now, now, now + 7 * 86_400, now + 30 * 86_400])
        }
        return token
    }

    /// The signed-in person's Home, or `nil` for an unknown or expired session: the session,
    /// the person, their name and accounts in one read transaction.
    func home(sessionKey: Data, now: Date) async throws -> HomeData? {
        let now = now.timeIntervalSince1970
        return try await pool.read { db in
            guard
                let session = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT u.id, u.phone FROM sessions s JOIN users u ON u.id = s.user_id
                            WHERE s.key = ? AND s.expires_at > ? AND s.absolute_expires_at > ?
                            """),
                    arguments: [sessionKey, now, now])
            else { return nil }
            let user: Int64 = session[0]
            let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT display_name FROM wallet_profiles WHERE user_id = ?"),
                arguments: [user])
            let accounts = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT id, name, balance_cents FROM accounts WHERE user_id = ? ORDER BY id"),
                arguments: [user]
            ).map { HomeData.Account(id: $0[0], name: $0[1], balanceCents: $0[2]) }
            return HomeData(phone: session[1], displayName: name, accounts: accounts)
        }
    }
}
