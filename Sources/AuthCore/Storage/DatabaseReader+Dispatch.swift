import Dispatch
import GRDB

extension DatabaseReader {
    /// Runs a read on a Dispatch worker thread with GRDB's synchronous `read`, and resumes the
    /// caller with its result.
    ///
    /// Like GRDB's own `async` read it never runs SQLite on the caller's thread (so never on an
    /// event loop), but it costs one plain thread hand-off instead of GRDB's async machinery:
    /// the profile in docs/BENCHMARKS.md shows the difference on every signed-in page.
    public func readOnWorkerThread<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.read(value) })
            }
        }
    }
}
