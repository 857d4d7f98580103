import AuthCore
import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing

@testable import SQLiteStorage
@testable import StorageSQL

/// SQLite's write transactions that wait for the writer share its next commit (``GroupCommit``),
/// and each caller still gets its own outcome.
@Suite("SQLite's group commit")
struct GroupCommitTests {
    /// A database file of its own with a table `t(x)` that refuses negative numbers, the
    /// number of write transactions begun so far (`BEGIN IMMEDIATE`; reads begin deferred), and
    /// of savepoints.
    struct Fixture {
        let database: SQLiteDatabase
        let runner: SQLiteRunner
        let commits: NIOLockedValueBox<Int>
        let savepoints: NIOLockedValueBox<Int>
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID())")
            let commits = NIOLockedValueBox(0)
            let savepoints = NIOLockedValueBox(0)
            database = try SQLiteDatabase(path: folder.appendingPathComponent("db.sqlite").path) { sql in
                if sql.hasPrefix("BEGIN IMMEDIATE") { commits.withLockedValue { $0 += 1 } }
                if sql.hasPrefix("SAVEPOINT") { savepoints.withLockedValue { $0 += 1 } }
            }
            try database.writer.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER NOT NULL CHECK (x >= 0))") }
            commits.withLockedValue { $0 = 0 }
            self.commits = commits
            self.savepoints = savepoints
            self.runner = SQLiteRunner(database)
        }

        /// Inserts `x`, then throws: its row must not be kept.
        func insertThenThrow(_ x: Int) async throws -> Int {
            try await runner.transaction(locking: []) {
                Step.execute([Statement(SQL("INSERT INTO t (x) VALUES ($1)"), arguments: [.integer(Int64(x))])]).then {
                    _ in .next { throw Refused() }
                }
            }
        }

        /// Twenty transactions queued behind the writer, each inserting its number but those
        /// `failing` runs; the numbers whose callers were told they failed.
        func twenty(_ failing: [Int: @Sendable (Int) async throws -> Int]) async throws -> [Int] {
            let outcomes = NIOLockedValueBox([Int: Bool]())
            try await holdWriter(until: 20) {
                for x in 1...20 {
                    Task {
                        // Answered only after the commit that keeps it: another connection sees it.
                        let ok =
                            if let run = failing[x] { (try? await run(x)) != nil } else {
                                (try? await insert(x)) != nil && (try? count(x)) == 1
                            }
                        outcomes.withLockedValue { $0[x] = ok }
                    }
                }
            }
            let deadline = Date().addingTimeInterval(60)
            while outcomes.withLockedValue({ $0.count }) < 20, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            return outcomes.withLockedValue { $0 }.filter { !$0.value }.keys.sorted()
        }

        func insert(_ x: Int) async throws -> Int {
            try await runner.transaction(locking: []) {
                Step.execute([Statement(SQL("INSERT INTO t (x) VALUES ($1)"), arguments: [.integer(Int64(x))])])
            }
        }

        /// The rows holding `x`, read on another connection than the writer's.
        func count(_ x: Int) throws -> Int? {
            try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE x = ?", arguments: [x]) }
        }

        func rows() throws -> [Int] {
            try database.writer.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") }
        }

        /// Holds the writer in a transaction of its own, runs `body` (which queues transactions
        /// behind it), and lets go once `waiting` of them wait. The waits are for conditions,
        /// bounded generously for a loaded machine.
        func holdWriter(until waiting: Int, then body: () async throws -> Void) async throws {
            let held = DispatchSemaphore(value: 0)
            let holding = NIOLockedValueBox(false)
            let holder = Task {
                try await runner.transaction(locking: []) {
                    .next {
                        holding.withLockedValue { $0 = true }
                        held.wait()
                        return .done(0)
                    }
                }
            }
            var deadline = Date().addingTimeInterval(60)
            while !holding.withLockedValue({ $0 }), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            try await body()
            deadline = Date().addingTimeInterval(60)
            while database.commits.waitingCount < waiting, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(database.commits.waitingCount == waiting)
            held.signal()
            _ = try await holder.value
        }
    }

    struct Refused: Error {}

    @Test("transactions that wait for the writer share one commit, without savepoints; one refused before it changed a row fails alone")
    func sharedCommit() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let failed = try await f.twenty([
            7: { x in try await f.insert(-x) },  // The schema's CHECK refuses it.
            13: { _ in try await f.runner.transaction(locking: []) { .next { throw Refused() } } },  // A decision's refusal.
        ])
        #expect(failed == [7, 13])
        // The holder's transaction, and one for the twenty: no savepoint, nothing run again.
        #expect(f.commits.withLockedValue { $0 } == 2)
        #expect(f.savepoints.withLockedValue { $0 } == 0)
        #expect(f.database.commits.batchesRunAgain == 0)
        #expect(try f.rows() == Array(1...20).filter { $0 != 7 && $0 != 13 })
    }

    @Test("one that throws after changing a row is undone alone: its batch runs again with savepoints, and so do the next 16 batches")
    func throwingAfterAChange() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let failed = try await f.twenty([13: { x in try await f.insertThenThrow(x) }])
        #expect(failed == [13])
        #expect(try f.rows() == Array(1...20).filter { $0 != 13 })
        // The holder's, the batch undone, and the batch again with a savepoint each.
        #expect(f.database.commits.batchesRunAgain == 1)
        #expect(f.commits.withLockedValue { $0 } == 3)
        #expect(f.savepoints.withLockedValue { $0 } == 20)
        #expect(f.database.commits.nextMode == .withSavepoints)
        // The next batches, each alone here, have their savepoints; the one after them has none.
        for x in 21...36 { _ = try await f.insert(x) }
        #expect(f.savepoints.withLockedValue { $0 } == 36)
        #expect(f.database.commits.nextMode == .withoutSavepoints)
        _ = try await f.insert(100)
        #expect(f.savepoints.withLockedValue { $0 } == 36)
        #expect(try f.rows().count == 36)
    }

    @Test("a statement refused after a change of the same transaction: undone alone, and the refused statement serves the next transaction")
    func refusedAfterAChange() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let insert = SQL("INSERT INTO t (x) VALUES ($1)")
        let failed = try await f.twenty([
            5: { x in
                try await f.runner.transaction(locking: []) {
                    Step.execute([
                        Statement(insert, arguments: [.integer(Int64(x))]), Statement(insert, arguments: [.integer(-1)]),
                    ])
                }
            }
        ])
        #expect(failed == [5])
        #expect(try f.rows() == Array(1...20).filter { $0 != 5 })
        #expect(f.database.commits.batchesRunAgain == 1)
        // The statement SQLite refused, cached, runs again at once.
        await #expect(throws: SchemaCheckFailed.self) { _ = try await f.insert(-2) }
        #expect(try await f.insert(21) == 1)
        #expect(try f.rows().count == 20)
    }

    @Test("a full disk mid-statement ends the whole transaction: every caller of the batch hears StorageUnavailable (a 503), and nothing is kept")
    func fullDiskMidStatement() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        // No trigger on `big`: a one-row insert has no statement journal, so SQLite answers a
        // page it cannot add by rolling back the whole transaction, not the statement alone.
        try await f.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE big (pad BLOB)")
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 4)")
        }
        let outcomes = NIOLockedValueBox([Int: String]())
        try await f.holdWriter(until: 3) {
            for x in 1...3 {
                Task {
                    let outcome: String
                    do {
                        if x == 2 {
                            _ = try await f.runner.transaction(locking: []) {
                                Step.execute([Statement(SQL("INSERT INTO big (pad) VALUES (zeroblob(1000000))"))])
                            }
                        } else {
                            _ = try await f.insert(x)
                        }
                        outcome = "kept"
                    } catch is StorageUnavailable {
                        outcome = "503"
                    } catch {
                        outcome = "\(error)"
                    }
                    outcomes.withLockedValue { $0[x] = outcome }
                }
                // In order: the first insert is queued before the one that fills the disk.
                let queued = x
                let deadline = Date().addingTimeInterval(60)
                while f.database.commits.waitingCount < queued, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while outcomes.withLockedValue({ $0.count }) < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(outcomes.withLockedValue { $0 } == [1: "503", 2: "503", 3: "503"])
        #expect(try f.rows() == [])
    }

    @Test("no more than largestBatch transactions share a commit")
    func batchesAreBounded() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let total = GroupCommit.largestBatch + 6
        let done = NIOLockedValueBox(0)
        try await f.holdWriter(until: total) {
            for x in 1...total {
                Task {
                    _ = try? await f.insert(x)
                    done.withLockedValue { $0 += 1 }
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while done.withLockedValue({ $0 }) < total, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        // The holder's, a full batch, and the six left over.
        #expect(f.commits.withLockedValue { $0 } == 3)
        #expect(try f.rows().count == total)
    }
}
