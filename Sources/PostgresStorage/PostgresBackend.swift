import AuthCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOSSL
import PostgresNIO

/// The shared PostgreSQL database of one or more app instances: a pool of connections
/// (postgres-nio's `PostgresClient`) and the schema, migrated at start-up.
///
/// Every app instance runs the same migrations when it starts; they take a database-wide lock
/// first, so instances started together migrate once and never half-way.
public final class PostgresBackend: Sendable {
    let client: PostgresClient
    let logger: Logger
    private let timeout: Duration
    private let place: String
    private let runner: Task<Void, Never>

    /// Connects, migrates, and keeps the pool running until ``close()``. Throws
    /// ``AuthCore/StorageUnavailable`` if the server does not answer within the configured
    /// timeout (postgres-nio itself would keep retrying forever).
    public init(configuration: Configuration, logger: Logger) async throws {
        client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.logger = logger
        timeout = configuration.timeout
        place = configuration.redacted
        let client = self.client
        runner = Task { await client.run() }
        do {
            try await migrate(timeout: configuration.startupTimeout)
        } catch let error as StorageUnavailable {
            runner.cancel()
            throw StorageUnavailable("Could not reach PostgreSQL at \(place): \(error.description)")
        } catch {
            runner.cancel()
            throw error
        }
    }

    /// Answers when the server does (`SELECT 1`); throws otherwise. For `/readyz`.
    public func ping() async throws {
        let client = self.client
        let logger = self.logger
        // A probe wants a quick answer: at most 2 s, even when queries may take longer.
        try await withinTimeout(min(timeout, .seconds(2))) {
            _ = try await client.query("SELECT 1", logger: logger).collect()
        }
    }

    /// Closes every connection; queries after this fail.
    public func close() async {
        runner.cancel()
        await runner.value
    }

    // MARK: Every query goes through these, within the timeout

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back
    /// when it throws (the error that comes out is `body`'s, not the wrapper's), and rolled back
    /// too when its time ran out meanwhile: the caller was told "unavailable", so nothing of it
    /// may stay (a code stored without its text, a deposit the person will try again).
    func transaction<Result: Sendable>(
        timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        let client = self.client
        return try await withinTimeout(timeout) {
            do {
                return try await client.withTransaction(logger: logger) { connection in
                    let result = try await body(connection)
                    try Task.checkCancellation()  // timed out: roll back instead of committing
                    return result
                }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.commitError ?? error
            }
        }
    }

    /// Runs one statement on a pooled connection and returns all its rows.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = self.logger
        let client = self.client
        return try await withinTimeout { try await client.query(query, logger: logger).collect() }
    }

    /// Runs `body` on one pooled connection.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        let client = self.client
        return try await withinTimeout { try await client.withConnection { connection in try await body(connection) } }
    }

    /// `operation`'s result, or ``AuthCore/StorageUnavailable`` once the timeout passes.
    ///
    /// On timeout the caller is answered at once and the operation is cancelled: a request still
    /// waiting for a connection stops waiting, and a statement already sent finishes (or fails)
    /// in the background on its own connection, after which ``transaction(timeout:_:)`` rolls
    /// back rather than commits.
    private func withinTimeout<Result: Sendable>(
        _ limit: Duration? = nil, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let timeout = limit ?? self.timeout
        let race = Race<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    work: Task {
                        do {
                            race.finish(.success(try await operation()))
                        } catch {
                            race.finish(.failure(error))
                        }
                    },
                    timer: Task {
                        try await Task.sleep(for: timeout)
                        race.finish(
                            .failure(
                                StorageUnavailable("PostgreSQL did not answer within \(timeout.components.seconds) s."))
                        )
                    })
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    // MARK: Migrations

    /// Applies the migrations not yet recorded in `schema_migrations`, each in its own
    /// transaction, under a lock every instance takes.
    private func migrate(timeout: Duration) async throws {
        let logger = self.logger
        try await transaction(timeout: timeout) { connection in
            // One instance at a time per schema; released at commit.
            try await connection.rows(
                "SELECT pg_advisory_xact_lock(hashtextextended(\(PostgresMigrations.lockName) || current_schema(), 0))",
                logger)
            try await connection.rows(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    name text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            for migration in PostgresMigrations.all where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.rows(PostgresQuery(unsafeSQL: statement), logger)
                }
                try await connection.rows("INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger)
                logger.info("Applied database migration", metadata: ["migration": "\(migration.name)"])
            }
        }
    }
}

extension PostgresBackend {
    /// Where the database is and how to reach it, usually from a `postgres://` URL.
    public struct Configuration: Sendable {
        public enum TLSMode: String, Sendable {
            /// Plain TCP (a database on the same host or a private network).
            case disable
            /// TLS when the server offers it, plain otherwise (libpq's default).
            case prefer
            /// TLS or no connection; the server's certificate and name are verified.
            case require
        }

        public var host = "127.0.0.1"
        public var port = 5432
        /// A Unix-domain socket path; used instead of `host` and `port` when set.
        public var socketPath: String?
        public var username = "postgres"
        public var password: String?
        public var database: String?
        public var tls = TLSMode.prefer
        /// The schema the app's tables live in (`search_path`); the user's default when `nil`.
        public var schema: String?
        /// Most connections this instance opens.
        public var maxConnections = 20
        /// How long a query or transaction (including the wait for a connection) may take before
        /// the request gets "briefly unavailable" instead of hanging.
        public var timeout: Duration = .seconds(10)
        /// How long start-up waits for the server to answer and the migrations to run before
        /// giving up with an error (`?connect_timeout=SECONDS`).
        public var startupTimeout: Duration = .seconds(30)

        public init() {}

        /// Reads `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
        /// (also `postgresql://`; `?host=/path` for a Unix socket; `?schema=NAME` for the
        /// schema of the app's tables; `?connect_timeout=SECONDS` for ``startupTimeout``). User
        /// and password may be percent-encoded.
        public init(url text: String) throws {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "postgres" || scheme == "postgresql"
            else {
                throw ConfigurationError("Not a PostgreSQL URL (expected postgres://user@host/database).")
            }
            if let host = url.host, !host.isEmpty { self.host = host }
            if let port = url.port {
                guard (1...65535).contains(port) else { throw ConfigurationError("The port \(port) is out of range.") }
                self.port = port
            }
            if let user = url.user, !user.isEmpty { username = user }
            password = url.password
            let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
            database = path.isEmpty ? nil : path
            for item in url.queryItems ?? [] {
                let value = item.value ?? ""
                switch item.name {
                case "sslmode":
                    switch value {
                    case "disable": tls = .disable
                    case "allow", "prefer": tls = .prefer
                    case "require", "verify-ca", "verify-full": tls = .require
                    default: throw ConfigurationError("Unknown sslmode \"\(value)\" (disable, prefer or require).")
                    }
                case "host":
                    guard value.hasPrefix("/") else {
                        throw ConfigurationError("?host= must be the folder of a Unix socket (starting with /).")
                    }
                    socketPath = (value as NSString).appendingPathComponent(".s.PGSQL.\(port)")
                case "schema":
                    guard Self.isIdentifier(value) else {
                        throw ConfigurationError("?schema= must be a plain name (letters, digits, _).")
                    }
                    schema = value
                case "connect_timeout":
                    guard let seconds = Int(value), (1...600).contains(seconds) else {
                        throw ConfigurationError("connect_timeout must be 1 to 600 seconds.")
                    }
                    startupTimeout = .seconds(seconds)
                case "application_name":
                    break
                default:
                    throw ConfigurationError("Unknown parameter \"\(item.name)\" in the database URL.")
                }
            }
        }

        /// The URL again with the password hidden, for logs and messages.
        public var redacted: String {
            let user = password == nil ? username : "\(username):***"
            let place = socketPath ?? "\(host):\(port)"
            return "postgres://\(user)@\(place)/\(database ?? "")"
        }

        static func isIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, (1...63).contains(name.utf8.count) else { return false }
            return (CharacterSet.lowercaseLetters.contains(first) || first == "_")
                && name.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                }
        }

        /// The settings for postgres-nio's `PostgresClient`.
        public var clientConfiguration: PostgresClient.Configuration {
            let tlsConfiguration: PostgresClient.Configuration.TLS =
                switch tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            var configuration: PostgresClient.Configuration
            if let socketPath {
                configuration = .init(
                    unixSocketPath: socketPath, username: username, password: password, database: database)
            } else {
                configuration = .init(
                    host: host, port: port, username: username, password: password, database: database,
                    tls: tlsConfiguration)
            }
            configuration.options.maximumConnections = maxConnections
            configuration.options.additionalStartupParameters = [("application_name", "webapp")]
            if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
            return configuration
        }
    }

    /// A database URL that cannot be used; the message says why.
    public struct ConfigurationError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

extension PostgresConnection {
    /// Runs `query` and returns all its rows (none for a statement without `RETURNING`).
    @discardableResult
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }

    /// Takes the transaction-scoped lock named `kind:value` (held until commit or rollback).
    func lock(_ kind: String, _ value: String, _ logger: Logger) async throws {
        try await rows("SELECT pg_advisory_xact_lock(hashtextextended(\(kind + ":" + value), 0))", logger)
    }
}

/// The first of an operation and its timer to finish answers the caller, once; the other is
/// cancelled.
private final class Race<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, any Error>?
        /// Set when finished before `start` (cancelled early, or a very fast operation).
        var early: Swift.Result<Result, any Error>?
        var done = false
    }

    private let state = NIOLockedValueBox(State())

    func start(
        _ continuation: CheckedContinuation<Result, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>
    ) {
        let early = state.withLockedValue { state -> Swift.Result<Result, any Error>? in
            state.work = work
            state.timer = timer
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early {
            work.cancel()
            timer.cancel()
            continuation.resume(with: early)
        }
    }

    func finish(_ result: Swift.Result<Result, any Error>) {
        let (continuation, work, timer) = state.withLockedValue {
            state -> (CheckedContinuation<Result, any Error>?, Task<Void, Never>?, Task<Void, any Error>?) in
            guard !state.done else { return (nil, nil, nil) }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, nil, nil)
            }
            state.continuation = nil
            return (continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        work?.cancel()
        timer?.cancel()
        continuation.resume(with: result)
    }
}
