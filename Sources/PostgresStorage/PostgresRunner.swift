import AuthCore
import Foundation
import PostgresNIO
import StorageSQL

/// Runs `StorageSQL`'s steps on PostgreSQL, shared by every app instance: a transaction first
/// takes the advisory locks its ``ReadList`` names (`pg_advisory_xact_lock`, released at
/// commit), so requests for the same number or client take turns on every instance and
/// requests for different ones never wait for each other. Every statement runs within the
/// backend's timeout (``PostgresBackend``).
public struct PostgresRunner: StepRunner {
    private let database: PostgresBackend
    public var dialect: Dialect { .postgres }

    public init(_ database: PostgresBackend) {
        self.database = database
    }

    /// A transaction PostgreSQL ended to break a deadlock (40P01) or for a serialization
    /// failure (40001) runs again, up to three times within one timeout
    /// (``PostgresBackend/transaction(runningAgainOn:attempts:pause:timeout:_:)``): its step is
    /// pure and decides from its own reads, so the second run decides from what the first one's
    /// rival wrote. (Two transactions that count in the glance's hourly rows in opposite orders
    /// deadlock: a number's change against a delivery report.)
    public func transaction<T: Sendable>(locking locks: [AuthLock], _ make: @escaping @Sendable () -> Step<T>)
        async throws -> T
    {
        let logger = database.logger
        return try await database.transaction(runningAgainOn: ["40P01", "40001"]) { connection in
            try await connection.lock(locks.map(Self.lockName), logger)
            return try await connection.run(make(), logger)
        }
    }

    public func read<T: Sendable>(_ make: @escaping @Sendable () -> Step<T>) async throws -> T {
        let logger = database.logger
        return try await database.withConnection { connection in try await connection.run(make(), logger) }
    }

    /// The advisory lock's name for each kind of ``AuthLock``.
    private static func lockName(_ lock: AuthLock) -> String {
        switch lock {
        case .phone(let phone): "phone:" + phone
        case .client(let client): "client:" + client
        case .allSends: "sends:all"
        case .send(let reference): "send:" + reference.hex
        case .passkey(let key): "passkey:" + key.base64EncodedString()
        }
    }
}
