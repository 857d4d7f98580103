import AuthCore
import GRDB
import StorageSQL

/// Runs `StorageSQL`'s steps on the app's SQLite database: a transaction is one GRDB `write`
/// (SQLite runs them one at a time, so every lock a ``ReadList`` names is implied), a read runs
/// on a worker thread (``GRDB/DatabaseReader/readOnWorkerThread(_:)``), and SQLite's refusals
/// come out translated (``SQLiteRefusal``).
public struct SQLiteRunner: StepRunner {
    private let writer: any DatabaseWriter
    public var dialect: Dialect { .sqlite }

    public init(_ database: SQLiteDatabase) {
        self.writer = database.writer
    }

    public func transaction<T: Sendable>(locking locks: [AuthLock], _ make: @escaping @Sendable () -> Step<T>)
        async throws -> T
    {
        try await writer.translatedWrite { db in try db.run(make()) }
    }

    public func read<T: Sendable>(_ make: @escaping @Sendable () -> Step<T>) async throws -> T {
        try await writer.readOnWorkerThread { db in try db.run(make()) }
    }
}
