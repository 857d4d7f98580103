import Foundation
import GRDB
import Testing

@testable import SQLiteStorage
@testable import StorageSQL

/// `Database.run` binds a step's values straight to the cached SQLite statement (not through
/// GRDB's `StatementArguments`): each kind of value arrives as written, `$N` binds by its number,
/// nothing is left over from the statement's last run, and a wrong count or a failed statement is
/// an error for that step only.
@Suite("Steps' values bound on SQLite")
struct SQLiteBindingTests {
    @Test("text, integers, reals, blobs, booleans and NULL arrive as written; $N binds by its number")
    func everyKind() throws {
        let queue = try DatabaseQueue()
        let sql = SQL("SELECT $1 AS t, $2 AS i, $3 AS r, $4 AS b, $5 AS f, $6 AS n, $2 + $2 AS twice, $7 AS empty")
        let statement = Statement(
            sql, arguments: [.text("é'x\"; --"), .integer(42), .real(1.5), .blob(Data([0, 1, 255])), .boolean(true),
                             .text(nil), .text("")])
        let row = try #require(try queue.write { db in try db.run(Step<[any SQLRow]>.query(statement)) }.first)
        #expect(try row.get("t") as String == "é'x\"; --")
        #expect(try row.get("i") as Int64 == 42)
        #expect(try row.get("r") as Double == 1.5)
        #expect(try row.get("b") as Data == Data([0, 1, 255]))
        #expect(try row.get("f") as Int64 == 1)
        #expect(try row.optional("n", as: String.self) == nil)
        #expect(try row.get("twice") as Int64 == 84)
        #expect(try row.get("empty") as String == "")
        // Numbered out of order: `$2` first in the text still takes the second value.
        let swapped = try queue.write { db in
            try db.run(Step<[any SQLRow]>.query(Statement(SQL("SELECT $2 AS second, $1 AS first"), arguments: [.integer(1), .integer(2)])))
        }
        #expect(try swapped.first?.get("first") as Int64? == 1)
        #expect(try swapped.first?.get("second") as Int64? == 2)
    }

    @Test("the cached statement's next run keeps nothing of its last values")
    func nothingLeftOver() throws {
        let queue = try DatabaseQueue()
        let sql = SQL("SELECT $1 AS a")
        let first = try queue.write { db in try db.run(Step<[any SQLRow]>.query(Statement(sql, arguments: [.text("before")]))) }
        let second = try queue.write { db in try db.run(Step<[any SQLRow]>.query(Statement(sql, arguments: [.text(nil)]))) }
        #expect(try first.first?.optional("a", as: String.self) == "before")
        #expect(try second.first?.optional("a", as: String.self) == nil)
    }

    @Test("too few or too many values throw for that step, and the statement runs right after")
    func wrongCount() throws {
        let queue = try DatabaseQueue()
        let sql = SQL("SELECT $1 + $2 AS sum")
        for values in [[SQLValue.integer(1)], [.integer(1), .integer(2), .integer(3)], []] {
            #expect(throws: DatabaseError.self) {
                try queue.write { db in try db.run(Step<[any SQLRow]>.query(Statement(sql, arguments: values))) }
            }
        }
        let sum = try queue.write { db in try db.run(Step<[any SQLRow]>.query(Statement(sql, arguments: [.integer(1), .integer(2)]))) }
        #expect(try sum.first?.get("sum") as Int64? == 3)
    }

    @Test("a statement that failed (a duplicate) does not spoil its next run")
    func afterFailure() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY)") }
        let insert = SQL("INSERT INTO t (k) VALUES ($1)")
        _ = try queue.write { db in try db.run(Step<Int>.execute([Statement(insert, arguments: [.text("a")])])) }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.run(Step<Int>.execute([Statement(insert, arguments: [.text("a")])])) }
        }
        let changed = try queue.write { db in try db.run(Step<Int>.execute([Statement(insert, arguments: [.text("b")])])) }
        #expect(changed == 1)
    }
}
