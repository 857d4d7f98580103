import Dispatch
import GRDB
import NIOPosix

extension DatabaseReader {
    /// Runs a read on a Dispatch worker thread with GRDB's synchronous `read`, and resumes the
    /// caller with its result.
    ///
    /// Like GRDB's own `async` read it never runs SQLite on the caller's thread (so never on an
    /// event loop), but it costs one plain thread hand-off instead of GRDB's async machinery:
    /// the profile in docs/BENCHMARKS.md shows the difference on every signed-in page.
    public func readOnWorkerThread<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // Called on an event loop (a request's handler), the result is handed back on that same
        // loop: the handler goes on where its connection lives instead of on whichever loop
        // Swift concurrency picks, which would then have to pass the response back.
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let result = Result { try self.read(value) }
                if let loop {
                    loop.execute { continuation.resume(with: result) }
                } else {
                    continuation.resume(with: result)
                }
            }
        }
    }
}
