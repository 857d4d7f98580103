import AuthCore
import GRDB
import StorageSQL

/// Runs `StorageSQL`'s steps on the app's SQLite database: a transaction is one of a
/// ``GroupCommit`` batch (SQLite runs them one at a time, so every lock a ``ReadList`` names is
/// implied; those that wait for the writer share its next commit), a read runs
/// on a worker thread (``GRDB/DatabaseReader/readOnWorkerThread(_:)``), and SQLite's refusals
/// come out translated (``SQLiteRefusal``).
public struct SQLiteRunner: StepRunner {
    private let writer: any DatabaseWriter
    private let commits: GroupCommit
    public var dialect: Dialect { .sqlite }

    public init(_ database: SQLiteDatabase) {
        self.writer = database.writer
        self.commits = database.commits
    }

    public func transaction<T: Sendable>(locking locks: [AuthLock], _ make: @escaping @Sendable () -> Step<T>)
        async throws -> T
    {
        try await commits.write { db in try db.run(make()) }
    }

    public func read<T: Sendable>(_ make: @escaping @Sendable () -> Step<T>) async throws -> T {
        try await writer.readOnWorkerThread { db in try db.run(make()) }
    }
}
