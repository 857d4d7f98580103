import Foundation
import GRDB
import NIOCore

/// The SQLite database file: opens it as a WAL `DatabasePool` and runs the named, forward-only
/// migrations at start-up, before any request is served.
public final class AuthDatabase: Sendable {
    /// The pool; readers run concurrently, writers one at a time on GRDB's own queues, never on
    /// the caller's thread (so never on an event loop).
    public let pool: DatabasePool

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Parameter onStatement: called on the thread that runs each SQL statement, before it
    ///   runs; tests use it to prove no statement runs on an event loop.
    public init(path: String, onStatement: (@Sendable () -> Void)? = nil) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Wait for a competing writer (another process, a checkpoint) instead of failing at once.
        configuration.busyMode = .timeout(5)
        // At least one reader connection per read queue (one per core), so a queue never waits
        // for a connection (readOnWorkerThread).
        configuration.maximumReaderCount = max(5, System.coreCount)
        configuration.prepareDatabase { db in
            // With WAL, NORMAL keeps every committed transaction across a process crash (kill -9)
            // and only risks the last ones on power loss, at a fraction of FULL's fsync cost.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let onStatement { db.trace(options: .statement) { _ in onStatement() } }
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(pool)
    }

    /// Closes the database; called once at shutdown, after the last request.
    public func close() throws {
        try pool.close()
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sign-in") { db in
            let e164 = "GLOB '+1[2-9][0-9][0-9][2-9][0-9][0-9][0-9][0-9][0-9][0-9]'"
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        phone TEXT NOT NULL UNIQUE CHECK (phone \(e164)),
                        created_at REAL NOT NULL,
                        last_sign_in_at REAL NOT NULL
                    );
                    CREATE TABLE verifications (
                        phone TEXT PRIMARY KEY NOT NULL CHECK (phone \(e164)),
                        code_digest BLOB NOT NULL CHECK (length(code_digest) = 32),
                        sent_at REAL NOT NULL,
                        expires_at REAL NOT NULL CHECK (expires_at > sent_at),
                        failed_attempts INTEGER NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0)
                    ) WITHOUT ROWID;
                    CREATE TABLE sessions (
                        key BLOB PRIMARY KEY NOT NULL CHECK (length(key) = 32),
                        pending_phone TEXT CHECK (pending_phone \(e164)),
                        user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        last_seen_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        absolute_expires_at REAL NOT NULL,
                        CHECK ((pending_phone IS NULL) <> (user_id IS NULL))
                    ) WITHOUT ROWID;
                    CREATE INDEX sessions_by_expiry ON sessions(expires_at);
                    CREATE INDEX sessions_by_user ON sessions(user_id);
                    CREATE INDEX verifications_by_expiry ON verifications(expires_at);
                    """)
        }
        migrator.registerMigration("v2-send-and-failure-limits") { db in
            try db.execute(
                sql: """
                    CREATE TABLE code_sends (
                        id INTEGER PRIMARY KEY,
                        phone TEXT NOT NULL,
                        client TEXT,
                        sent_at REAL NOT NULL
                    );
                    CREATE INDEX code_sends_by_phone ON code_sends(phone, sent_at);
                    CREATE INDEX code_sends_by_client ON code_sends(client, sent_at);
                    CREATE TABLE failed_checks (
                        id INTEGER PRIMARY KEY,
                        phone TEXT NOT NULL,
                        failed_at REAL NOT NULL
                    );
                    CREATE INDEX failed_checks_by_phone ON failed_checks(phone, failed_at);
                    """)
        }
        return migrator
    }
}
