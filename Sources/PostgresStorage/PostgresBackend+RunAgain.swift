import AuthCore
import PostgresNIO

extension PostgresBackend {
    /// Runs `body` in one transaction (``transaction(timeout:_:)``) and, when PostgreSQL ends it
    /// with one of `codes` (40P01: chosen to end a deadlock; 40001: a serialization failure;
    /// 55P03: a `lock_timeout` passed), runs it again, up to `attempts` runs in all, within one
    /// `timeout` (the backend's when `nil`): a later run gets what is left of it, so a request
    /// waits no longer for being run again. `body` must be safe to run again: it decides from
    /// its own reads, and sends, counts and logs nothing before the commit.
    func transaction<Result: Sendable>(
        runningAgainOn codes: Set<String>, attempts: Int = 3, pause: Duration = .zero, timeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let whole = timeout ?? self.timeout
        let began = ContinuousClock.now
        var attempt = 1
        while true {
            do {
                // The first run has the usual timeout (the outage's shorter one when none was
                // given); a later one what is left of the whole, and no more than the outage's
                // when none was given and the server went down meanwhile.
                var left = attempt == 1 ? timeout : whole - began.duration(to: .now)
                if attempt > 1, timeout == nil, isKnownDown, let rest = left { left = min(rest, Self.downTimeout) }
                if let left, left <= .zero {
                    throw StorageUnavailable("PostgreSQL did not answer within \(whole.components.seconds) s.")
                }
                return try await transaction(timeout: left, body)
            } catch let error as PSQLError where attempt < attempts && codes.contains(error.serverInfo?[.sqlState] ?? "") {
                logger.notice("Transaction run again", metadata: ["sqlstate": "\(error.serverInfo?[.sqlState] ?? "")"])
                attempt += 1
                if pause > .zero { try await Task.sleep(for: pause * attempt) }
            }
        }
    }
}
