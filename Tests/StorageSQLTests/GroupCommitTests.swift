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
    /// A database file of its own with a table `t(x)` that refuses negative numbers, and the
    /// number of COMMITs run so far.
    struct Fixture {
        let database: SQLiteDatabase
        let runner: SQLiteRunner
        let commits: NIOLockedValueBox<Int>
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID())")
            let commits = NIOLockedValueBox(0)
            database = try SQLiteDatabase(path: folder.appendingPathComponent("db.sqlite").path) { sql in
                if sql.hasPrefix("COMMIT") { commits.withLockedValue { $0 += 1 } }
            }
            try database.writer.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER NOT NULL CHECK (x >= 0))") }
            commits.withLockedValue { $0 = 0 }
            self.commits = commits
            self.runner = SQLiteRunner(database)
        }

        func insert(_ x: Int) async throws -> Int {
            try await runner.transaction(locking: []) {
                Step.execute([Statement(SQL("INSERT INTO t (x) VALUES ($1)"), arguments: [.integer(Int64(x))])])
            }
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

    @Test("transactions that wait for the writer share one commit; a refused or throwing one is rolled back alone")
    func sharedCommit() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let outcomes = NIOLockedValueBox([Int: Bool]())
        try await f.holdWriter(until: 20) {
            for x in 1...20 {
                Task {
                    let ok: Bool
                    switch x {
                    case 7:  // The schema's CHECK refuses it.
                        ok = (try? await f.insert(-7)) != nil
                    case 13:  // Writes, then throws: its write must go too.
                        ok =
                            (try? await f.runner.transaction(locking: []) {
                                Step.execute([Statement(SQL("INSERT INTO t (x) VALUES (13)"))]).then { _ in
                                    .next { throw Refused() }
                                }
                            }) != nil
                    default:
                        ok = (try? await f.insert(x)) != nil
                    }
                    outcomes.withLockedValue { $0[x] = ok }
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while outcomes.withLockedValue({ $0.count }) < 20, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let told = outcomes.withLockedValue { $0 }
        #expect(told.filter { !$0.value }.keys.sorted() == [7, 13])
        // The holder's transaction, and one for the twenty (counted before the read below,
        // which commits a read transaction of its own).
        #expect(f.commits.withLockedValue { $0 } == 2)
        #expect(try f.rows() == Array(1...20).filter { $0 != 7 && $0 != 13 })
    }

    @Test("a transaction SQLite ends fails every caller of its batch, and none of their writes is kept")
    func lostBatch() async throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.folder) }
        let outcomes = NIOLockedValueBox([Int: Bool]())
        try await f.holdWriter(until: 3) {
            for x in 1...3 {
                Task {
                    let ok: Bool
                    if x == 2 {
                        // As SQLite does on a full disk or an I/O error: the whole transaction is gone.
                        ok = (try? await f.runner.transaction(locking: []) {
                            Step.execute([Statement(SQL("ROLLBACK"))])
                        }) != nil
                    } else {
                        ok = (try? await f.insert(x)) != nil
                    }
                    outcomes.withLockedValue { $0[x] = ok }
                }
                // In order: the first insert is queued before the rollback, the last after it.
                let queued = x
                let deadline = Date().addingTimeInterval(60)
                while f.database.commits.waitingCount < queued, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while outcomes.withLockedValue({ $0.count }) < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(outcomes.withLockedValue { $0 } == [1: false, 2: false, 3: false])
        #expect(try f.rows() == [])
    }
}
