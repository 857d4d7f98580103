import AuthCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The shared PostgreSQL database of one or more app instances: a pool of connections
/// (postgres-nio's `PostgresClient`) and the schema.
///
/// It is a service (swift-service-lifecycle): ``run()`` keeps the pool's connections going
/// until a graceful shutdown or ``close()``; the app runs it in its `ServiceGroup`, and the
/// HTTP server calls ``migrate()`` before it listens. Every app instance runs the same
/// migrations when it starts; they take a database-wide lock first, so instances started
/// together migrate once and never half-way.
public final class PostgresBackend: Service, Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How long any query or transaction may take before the caller is told "unavailable".
    let timeout: Duration
    private let startupTimeout: Duration
    private let place: String
    /// Where the server listens, for the watcher's reachability check.
    private let address: (host: String, port: Int)?
    /// Finished by ``close()``, which ends ``run()``.
    private let closing: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    /// The server was last found unreachable (its port refused a connection, or a connection
    /// was lost), and has not answered since: while it is so, a query waits at most
    /// ``downTimeout`` (not the whole timeout), so during an outage a person hears "briefly
    /// unavailable" within seconds, never after a long hang. A slow answer never sets it: a
    /// server that is merely busy, or a pool whose connections all wait on locks, keeps the
    /// whole timeout.
    private let isDown = Atomic<Bool>(false)
    /// When the last query answered (monotonic): the watcher looks only after a quiet second.
    private let lastAnswer = Mutex<ContinuousClock.Instant>(.now)
    static let downTimeout: Duration = .seconds(2)

    /// Whether the server is known to be down now (the watcher noticed, no answer since).
    var isKnownDown: Bool { isDown.load(ordering: .relaxed) }

    /// The pool for `configuration`; nothing connects until ``run()``.
    public init(configuration: Configuration, logger: Logger) {
        client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.logger = logger
        timeout = configuration.timeout
        startupTimeout = configuration.startupTimeout
        place = configuration.redacted
        address = configuration.socketPath == nil ? (configuration.host, configuration.port) : nil
        closing = AsyncStream.makeStream(of: Void.self)
    }

    /// Runs the pool until a graceful shutdown (postgres-nio's own `run` ends on it) or
    /// ``close()``; queries wait for it to run, and fail after it ended. Closed early, it still
    /// returns only at the graceful shutdown: a database that went away ends no other service.
    public func run() async {
        let client = self.client
        let closed = closing.stream
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask { for await _ in closed {} }
            group.addTask { await self.watch() }
            await group.next()
            group.cancelAll()
        }
        try? await gracefulShutdown()
    }

    /// Ends ``run()``: every connection closes.
    public func close() {
        closing.continuation.finish()
    }

    /// Brings the schema up to date (``run()`` must be running). Throws
    /// ``AuthCore/StorageUnavailable`` if the server does not answer within the configuration's
    /// `startupTimeout` (postgres-nio itself would keep retrying forever).
    public func migrate() async throws {
        do {
            try await migrate(timeout: startupTimeout)
        } catch let error as StorageUnavailable {
            throw StorageUnavailable("Could not reach PostgreSQL at \(place): \(error.description)")
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

    private func noteAnswer() {
        isDown.store(false, ordering: .relaxed)
        lastAnswer.withLock { $0 = .now }
    }

    private func noteDown() {
        isDown.store(true, ordering: .relaxed)
    }

    /// Once a second without a query answered, knocks on the server's port (a TCP connection,
    /// opened and closed, outside the pool): refused or unreachable, the server is down; taken,
    /// it is up. An outage is noticed within about two seconds even when no request came, and
    /// its end as soon. (A Unix socket is not watched: its waits keep the whole timeout.)
    private func watch() async {
        guard let address else { return }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            guard lastAnswer.withLock({ $0 }).duration(to: .now) >= .seconds(1) else { continue }
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(1))
            do {
                let channel = try await bootstrap.connect(host: address.host, port: address.port).get()
                try? await channel.close()
                isDown.store(false, ordering: .relaxed)
            } catch {
                noteDown()
            }
        }
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

    /// Runs one statement on a pooled connection and returns all its rows (the tests' own
    /// look at the tables; the stores run `StorageSQL`'s steps).
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

    /// `operation`'s result, or ``AuthCore/StorageUnavailable`` once the timeout passes; the
    /// server's refusals come out translated (``PostgresRefusal``).
    ///
    /// On timeout the caller is answered at once and the operation is cancelled: a request still
    /// waiting for a connection stops waiting, and a statement already sent finishes (or fails)
    /// in the background on its own connection, after which ``transaction(timeout:_:)`` rolls
    /// back rather than commits.
    private func withinTimeout<Result: Sendable>(
        _ limit: Duration? = nil, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let timeout = limit ?? (isDown.load(ordering: .relaxed) ? min(self.timeout, Self.downTimeout) : self.timeout)
        let race = TimeoutRace<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(
                    continuation,
                    work: Task {
                        do {
                            let result = try await operation()
                            self.noteAnswer()
                            race.finish(.success(result))
                        } catch {
                            let translated = PostgresRefusal.translated(error)
                            if PostgresRefusal.isUnreachable(error) { self.noteDown() }
                            race.finish(.failure(translated))
                        }
                    },
                    timer: Task {
                        // The whole timeout, or the outage's shorter one as soon as the server
                        // is known down (a wait begun just before the watcher noticed is cut too).
                        let began = ContinuousClock.now
                        var waited = Duration.zero
                        while waited < timeout {
                            if limit == nil, waited >= Self.downTimeout, self.isDown.load(ordering: .relaxed) { break }
                            try await Task.sleep(for: min(.milliseconds(250), timeout - waited))
                            waited = began.duration(to: .now)
                        }
                        race.finish(
                            .failure(
                                StorageUnavailable("PostgreSQL did not answer within \(waited.components.seconds) s.")))
                    })
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}
