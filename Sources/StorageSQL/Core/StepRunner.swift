import AuthCore

/// Runs ``Step``s on one database: each store adapter (`SQLiteStorage`, `PostgresStorage`)
/// is one of these, and the stores (``SQLAuthStore``, ``SQLOIDCStore``, ``SQLWalletStore``)
/// are written once over it.
///
/// `make` builds the step inside the transaction; it may be called again when the database
/// asks for a retry, so it must be pure.
public protocol StepRunner: Sendable {
    /// Which text of each ``SQL`` this database runs.
    var dialect: Dialect { get }

    /// Runs the step in one transaction, after taking `locks` (PostgreSQL's advisory locks,
    /// held until commit; SQLite's one writer at a time implies them). Committed when it
    /// returns, rolled back when it throws.
    func transaction<T: Sendable>(locking locks: [AuthLock], _ make: @escaping @Sendable () -> Step<T>)
        async throws -> T

    /// Runs a step that only reads, outside a write transaction, never on an event loop.
    func read<T: Sendable>(_ make: @escaping @Sendable () -> Step<T>) async throws -> T
}

extension StepRunner {
    public func transaction<T: Sendable>(_ make: @escaping @Sendable () -> Step<T>) async throws -> T {
        try await transaction(locking: [], make)
    }
}
