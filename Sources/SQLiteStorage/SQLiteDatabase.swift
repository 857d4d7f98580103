import Foundation
import GRDB

/// The app's SQLite database: any GRDB writer (a WAL `DatabasePool` on a file in production, an
/// in-memory `DatabaseQueue` in tests), migrated by ``SQLiteMigrations`` before anything uses it.
public final class SQLiteDatabase: Sendable {
    /// Readers run concurrently (with a pool), writers one at a time on GRDB's own queues, never
    /// on the caller's thread (so never on an event loop).
    public let writer: any DatabaseWriter
    /// Every store's write transactions, sharing commits under load (``GroupCommit``).
    let commits: GroupCommit

    /// Migrates `writer` and keeps it.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        self.commits = GroupCommit(writer: writer)
        try SQLiteMigrations.migrator.migrate(writer)
    }

    /// Opens (creating if needed) the database file at `path` as a WAL pool and migrates it.
    ///
    /// - Parameters:
    ///   - busyTimeout: how long a write waits for a competing writer (another process, a
    ///     checkpoint) before it gives up; the request is then answered 503 (``SQLiteRefusal``).
    ///   - onStatement: called with each SQL statement's text (its arguments left out), on the
    ///     thread that runs it, before it runs; tests use it to prove no statement runs on an
    ///     event loop, or none after a change's commit.
    public convenience init(
        path: String, busyTimeout: TimeInterval = 5, onStatement: (@Sendable (String) -> Void)? = nil
    )
        throws
    {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Wait for a competing writer (another process, a checkpoint) instead of failing at once.
        configuration.busyMode = .timeout(busyTimeout)
        // At least one reader connection per read queue (one per core), so a queue never waits
        // for a connection (readOnWorkerThread).
        configuration.maximumReaderCount = max(5, ProcessInfo.processInfo.activeProcessorCount)
        configuration.prepareDatabase { db in
            // With WAL, NORMAL keeps every committed transaction across a process crash (kill -9)
            // and only risks the last ones on power loss (at most those since the last checkpoint,
            // which syncs the WAL: up to ``checkpointPages`` of changes; docs/RELIABILITY.md), at a
            // fraction of FULL's cost.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.checkpointPages)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walBytesKept)")
            if let onStatement { db.trace(options: .statement) { event in onStatement(event.description) } }
        }
        try self.init(writer: try DatabasePool(path: path, configuration: configuration))
    }

    /// How many pages the WAL holds before the writer copies them into the database file
    /// (SQLite's automatic checkpoint, run by the commit that passes it): 16 MB of 4 KB pages,
    /// where SQLite's default is 1,000. A checkpoint writes each page changed since the last one
    /// once, however often it changed (the indexes' last pages, the minute's count), and syncs
    /// the file; under sign-ins it had become a tenth of the writer's time, growing with the
    /// database; with a fourth as many, two 32 s sign-in loads reached 983 and 1,032 a second
    /// where 1,000 pages gave 872 and 955 (docs/BENCHMARKS.md). The cost: a WAL file of up to
    /// about 16 MB beside the database, read once at start-up after a crash.
    static let checkpointPages = 4_000

    /// The most a WAL file keeps on disk once its pages are all in the database again: twice a
    /// checkpoint's pages. A WAL that grew past it (a long read, a backup's snapshot, held the
    /// checkpoint back) is cut back to it, not left at its largest.
    static let walBytesKept = 2 * checkpointPages * 4096

    /// An empty database in memory, migrated: for tests.
    public static func inMemory() throws -> SQLiteDatabase {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        return try SQLiteDatabase(writer: try DatabaseQueue(configuration: configuration))
    }

    /// Throws unless the database answers now (for `/readyz`).
    public func ping() async throws {
        _ = try await writer.readOnWorkerThread { db in try db.execute(sql: "SELECT 1") }
    }

    /// Closes the database; called once at shutdown, after the last request. The server folds
    /// the WAL into the file first and empties it (`foldingWAL`), so a stopped server leaves one
    /// self-contained file (a backup copied over it is not mixed with an old WAL at the next
    /// start). A command run beside a live server (`webapp admin`, `events`, `webhooks`) does not:
    /// that checkpoint would hold off the server's writers while it waits for their readers.
    public func close(foldingWAL: Bool = true) throws {
        if foldingWAL {
            _ = try? writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try writer.close()
    }
}
