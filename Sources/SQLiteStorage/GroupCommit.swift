import GRDB
import NIOConcurrencyHelpers
import NIOPosix

/// Write transactions that arrive while another is being written share its commit (a "group
/// commit"): SQLite has one writer, so under load the transactions waiting for it are run one
/// after another inside one SQLite transaction, each in a savepoint of its own, and committed
/// together.
///
/// Each caller still gets its own outcome: a transaction that throws is rolled back to its
/// savepoint alone and its caller gets the error, the others commit. Nobody hears back before
/// the commit that holds their changes, so an answer never tells of a change that a crash could
/// still lose. When SQLite gives up the whole transaction (a full disk, say), every caller of the
/// batch gets that error: none of their changes were kept. So does every caller of a batch whose
/// `BEGIN IMMEDIATE` waited past the busy timeout for another process's write lock (a 503 each,
/// where one request at a time waited before). At most ``largestBatch`` share a commit.
///
/// What it saves is what each commit costs beyond its statements: its own `BEGIN IMMEDIATE`
/// and `COMMIT`, the WAL frames of the pages every sign-in touches (the hour's and minute's
/// counts, the indexes' last pages, written once per batch instead of once per transaction),
/// and GRDB's hand-off of each write to its queue (docs/BENCHMARKS.md). With nothing else
/// waiting, a transaction is committed alone, at once.
final class GroupCommit: Sendable {
    private let writer: any DatabaseWriter
    private let state = NIOLockedValueBox(State())

    private struct State {
        var waiting: [Job] = []
        var writing = false
    }

    /// At most this many transactions share a commit: the first of a batch waits for all the
    /// others, and a batch that fails as a whole fails them all.
    static let largestBatch = 64

    /// One caller's transaction, type-erased: `run` does its work in a savepoint, keeps the
    /// outcome and returns its error if it failed; `finish` hands the caller that outcome, or
    /// the error that lost the whole batch.
    private struct Job: Sendable {
        let run: @Sendable (Database) -> (any Error)?
        let finish: @Sendable ((any Error)?) -> Void
    }

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// How many transactions wait for the writer now (for tests).
    var waitingCount: Int { state.withLockedValue { $0.waiting.count } }

    /// Runs `updates` as one transaction of its own (a savepoint of a shared one), returning
    /// after the commit that keeps it; SQLite's refusals come out translated (``SQLiteRefusal``).
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // Resumed on the caller's event loop, as reads are (readOnWorkerThread).
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = NIOLockedValueBox<Result<T, any Error>>(.failure(CancellationError()))
            let job = Job(
                run: { db in
                    let result = Result { () throws -> T in
                        var value: T?
                        try db.inSavepoint {
                            value = try updates(db)
                            return .commit
                        }
                        guard let value else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no result") }
                        return value
                    }
                    outcome.withLockedValue { $0 = result }
                    if case .failure(let error) = result { return error }
                    return nil
                },
                finish: { batchError in
                    let result = (batchError.map { .failure($0) } ?? outcome.withLockedValue { $0 })
                        .mapError(SQLiteRefusal.translated)
                    if let loop {
                        loop.execute { continuation.resume(with: result) }
                    } else {
                        continuation.resume(with: result)
                    }
                })
            let start = state.withLockedValue { state in
                state.waiting.append(job)
                defer { state.writing = true }
                return !state.writing
            }
            if start { writer.asyncWriteWithoutTransaction { db in self.drain(db) } }
        }
    }

    /// On the writer's queue: commits what is waiting, batch after batch, until nothing is.
    private func drain(_ db: Database) {
        while true {
            let batch = state.withLockedValue { state in
                let batch = Array(state.waiting.prefix(Self.largestBatch))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            if batch.isEmpty { return }
            commit(batch, db)
        }
    }

    /// One transaction for `batch`, each job in its savepoint; then every caller is told.
    private func commit(_ batch: [Job], _ db: Database) {
        do {
            try db.inTransaction(.immediate) {
                for job in batch {
                    let failure = job.run(db)
                    // SQLite ended the whole transaction (a full disk mid-statement, an I/O
                    // error): the writes of the jobs before went with it, and GRDB would refuse
                    // every later statement (SQLITE_ABORT). Every job of the batch fails with the
                    // cause, which SQLiteRefusal translates (a full disk is a 503, as before).
                    if !db.isInsideTransaction {
                        throw failure ?? DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction ended")
                    }
                }
                return .commit
            }
        } catch {
            for job in batch { job.finish(error) }
            return
        }
        for job in batch { job.finish(nil) }
    }
}
