import GRDB
import NIOConcurrencyHelpers
import NIOPosix

/// Write transactions that arrive while another is being written share its commit (a "group
/// commit"): SQLite has one writer, so under load the transactions waiting for it are run one
/// after another inside one SQLite transaction, and committed together.
///
/// Each caller still gets its own outcome: a transaction that throws is undone alone and its
/// caller gets the error, the others commit. Savepoints would undo it, but they cost about a
/// fifth of a sign-in's time on the writer (each page a transaction changes is copied to SQLite's
/// sub-journal first), so a batch runs without them: a transaction that fails having changed no
/// row (a refused decision, a CHECK or UNIQUE refusal of its first change) leaves nothing to undo;
/// one that fails after changing rows has the batch rolled back and run again, each transaction
/// in a savepoint of its own, and the next ``savepointBatches`` batches start with savepoints, so
/// failures sent on purpose cost about what savepoints always did, plus at most one batch run
/// twice in every ``savepointBatches`` + 1 (``Mode``). Nobody hears back before
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
        /// How many batches still run with savepoints, after one that needed them.
        var savepointBatchesLeft = 0
        /// How many batches were run again with savepoints (``batchesRunAgain``).
        var runAgain = 0
    }

    /// How a batch runs its transactions.
    enum Mode: Sendable {
        /// One after another in the batch's transaction; one that fails after changing rows
        /// cannot be undone alone, and the batch is run again ``withSavepoints``.
        case withoutSavepoints
        /// Each in a savepoint of its own, undone alone when it fails.
        case withSavepoints
    }

    /// At most this many transactions share a commit: the first of a batch waits for all the
    /// others, and a batch that fails as a whole fails them all.
    static let largestBatch = 64

    /// After a batch with a transaction that failed having changed rows, this many batches run
    /// with savepoints: requests made to fail that way cannot have batch after batch run twice.
    static let savepointBatches = 16

    /// One caller's transaction, type-erased: `run` does its work (in a savepoint or not), keeps
    /// the outcome (a run again replaces it) and returns its error if it failed; `finish` hands
    /// the caller that outcome, or the error that lost the whole batch.
    private struct Job: Sendable {
        let run: @Sendable (Database, Mode) -> (any Error)?
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// How many batches were run again with savepoints (for tests).
    var batchesRunAgain: Int { state.withLockedValue { $0.runAgain } }

    /// How the next batch will run (for tests).
    var nextMode: Mode { state.withLockedValue { $0.savepointBatchesLeft > 0 ? .withSavepoints : .withoutSavepoints } }

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// How many transactions wait for the writer now (for tests).
    var waitingCount: Int { state.withLockedValue { $0.waiting.count } }

    /// Runs `updates` as one transaction of its own (in a shared one), returning
    /// after the commit that keeps it; SQLite's refusals come out translated (``SQLiteRefusal``).
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        // Resumed on the caller's event loop, as reads are (readOnWorkerThread).
        let loop = MultiThreadedEventLoopGroup.currentEventLoop
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = NIOLockedValueBox<Result<T, any Error>>(.failure(CancellationError()))
            let job = Job(
                run: { db, mode in
                    let result = Result { () throws -> T in
                        guard mode == .withSavepoints else { return try updates(db) }
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

    /// One transaction for `batch` (two when it is run again with savepoints); then every
    /// caller is told.
    private func commit(_ batch: [Job], _ db: Database) {
        var mode = nextMode
        while true {
            switch transaction(batch, db, mode) {
            case .committed(let savepointsNeeded):
                state.withLockedValue { state in
                    state.savepointBatchesLeft =
                        savepointsNeeded ? Self.savepointBatches : max(0, state.savepointBatchesLeft - 1)
                }
                for job in batch { job.finish(nil) }
                return
            case .failed(let error):
                for job in batch { job.finish(error) }
                return
            case .runAgain:
                // Never the answer of a batch run with savepoints.
                state.withLockedValue { $0.runAgain += 1 }
                mode = .withSavepoints
            }
        }
    }

    /// How a batch's transaction ended.
    private enum Batch {
        /// Committed; `savepointsNeeded`: a transaction failed that only a savepoint could undo.
        case committed(savepointsNeeded: Bool)
        /// Rolled back: a transaction failed after changing rows, with no savepoint to undo it.
        case runAgain
        /// Lost as a whole; every caller gets this error.
        case failed(any Error)
    }

    /// Runs `batch` in one SQLite transaction, each job `mode`'s way, and commits it.
    private func transaction(_ batch: [Job], _ db: Database, _ mode: Mode) -> Batch {
        var savepointsNeeded = false
        var runAgain = false
        do {
            try db.inTransaction(.immediate) {
                for job in batch {
                    let changesBefore = db.totalChangesCount
                    let failure = job.run(db, mode)
                    // SQLite ended the whole transaction (a full disk mid-statement, an I/O
                    // error): the writes of the jobs before went with it, and GRDB would refuse
                    // every later statement (SQLITE_ABORT). Every job of the batch fails with the
                    // cause, which SQLiteRefusal translates (a full disk is a 503, as before).
                    if !db.isInsideTransaction {
                        throw failure ?? DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction ended")
                    }
                    // A job that failed having changed rows (its count counts every row inserted,
                    // changed or deleted, by triggers too; a statement SQLite refused undid its
                    // own): a savepoint undid it, else the batch is undone and run again.
                    if failure != nil, db.totalChangesCount != changesBefore {
                        savepointsNeeded = true
                        if mode == .withoutSavepoints {
                            runAgain = true
                            return .rollback
                        }
                    }
                }
                return .commit
            }
        } catch {
            return .failed(error)
        }
        return runAgain ? .runAgain : .committed(savepointsNeeded: savepointsNeeded)
    }
}
