import Dispatch
import GRDB
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

extension DatabaseReader {
    /// Runs a read with GRDB's synchronous `read` on one of a few serial reader queues, and
    /// resumes the caller with its result on the event loop it was called from.
    ///
    /// Like GRDB's own `async` read it never runs SQLite on the caller's thread (so never on an
    /// event loop), but it costs one plain thread hand-off instead of GRDB's async machinery.
    /// SQLite's refusals come out translated (``SQLiteRefusal``).
    /// The queues are serial and as many as the cores: under load each keeps one thread busy
    /// going through its backlog, where Dispatch's global queue started and woke many threads
    /// that then waited for GRDB's reader connections (Home went from 60% to about 70% of the
    /// static file's rate; docs/BENCHMARKS.md). A read is a few indexed rows, so one waiting
    /// behind another costs microseconds.
    public func readOnWorkerThread<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // Called on an event loop (a request's handler), the result is handed back on that same
        // loop: the handler goes on where its connection lives instead of on whichever loop
        // Swift concurrency picks, which would then have to pass the response back.
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        return try await withCheckedThrowingContinuation { continuation in
            SQLiteReadQueues.next().async {
                let result = Result { try self.read(value) }.mapError(SQLiteRefusal.translated)
                if let loop {
                    loop.execute { continuation.resume(with: result) }
                } else {
                    continuation.resume(with: result)
                }
            }
        }
    }
}

/// The serial queues SQLite reads run on, taken in turn.
private enum SQLiteReadQueues {
    static let queues = (0..<max(2, System.coreCount)).map {
        DispatchQueue(label: "phonelogin.sqlite-reads.\($0)", qos: .userInitiated)
    }
    static let turn = NIOLockedValueBox(0)

    static func next() -> DispatchQueue {
        queues[
            turn.withLockedValue { turn in
                turn = (turn + 1) % queues.count
                return turn
            }]
    }
}
