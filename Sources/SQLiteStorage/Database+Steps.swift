import AuthCore
import Foundation
import GRDB
import GRDBSQLite
import StorageSQL

extension Database {
    /// Runs `step`'s statements in order (their SQLite text, each prepared once and cached)
    /// until its result: everything a store method does, written once in `StorageSQL`.
    func run<Result>(_ step: Step<Result>) throws -> Result {
        var step = step
        while true {
            switch step {
            case .done(let result):
                return result
            case .next(let make):
                step = try make()
            case .rows(let statement, let next):
                let prepared = try prepare(statement)
                let rows = try translatingDuplicate(statement) { try GRDBRow.fetchAll(prepared, on: self) }
                step = try next(rows)
            case .changes(let statement, let next):
                let prepared = try prepare(statement)
                try translatingDuplicate(statement) { try stepThrough(prepared) { _ in } }
                step = try next(changesCount)
            }
        }
    }

    /// Runs `prepared` (its values bound) to its end, handing `row` each row it returns.
    ///
    /// Straight on SQLite: GRDB's own execution also keeps what its observation, regions and
    /// cancellation need, which this app does not use, and that was about a tenth of the
    /// writer's time under sign-ins (docs/BENCHMARKS.md); so a transaction observer, should one
    /// ever be added, would not see the steps' changes. A failure ends the step with
    /// SQLite's error, its extended code and message as GRDB gives them, so nothing of that
    /// transaction runs after it (a ``GroupCommit`` batch checks after each of its transactions
    /// that SQLite did not end the batch's). The statement stays cached: ``prepare(_:)`` resets
    /// it before its next run.
    func stepThrough(_ prepared: GRDB.Statement, _ row: (SQLiteStatement) throws -> Void) throws {
        let handle = prepared.sqliteStatement
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return
            case SQLITE_ROW:
                try row(handle)
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: prepared.sql)
            }
        }
    }

    /// The cached statement for `statement`'s SQLite text, with its values bound.
    ///
    /// The values are bound straight to SQLite (GRDB's own binding of each `DatabaseValue`),
    /// not through `StatementArguments`: building and checking those cost about 90 µs of a full
    /// sign-in's CPU (its forty-odd statements). GRDB is told the statement is bound with no
    /// arguments of its own, so it only resets it before running it, which keeps the bindings.
    private func prepare(_ statement: StorageSQL.Statement) throws -> GRDB.Statement {
        // Every statement runs in a transaction (a read's, or a ``GroupCommit`` batch's). Once
        // SQLite has ended it (a full disk, an I/O error), a statement would run on its own and
        // commit at once: refused, as GRDB's own execution refuses it.
        guard sqlite3_get_autocommit(sqliteConnection) == 0 else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted", sql: statement.sql.sqlite)
        }
        let prepared = try cachedStatement(sql: statement.sql.sqlite)
        let handle = prepared.sqliteStatement
        // A count that does not match the statement is an error for this request, as GRDB's
        // throwing `setArguments` made it (its `arguments` setter would trap the whole process).
        // SQLite counts `?NNN` parameters up to the largest NNN.
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard statement.arguments.count == expected else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(statement.arguments.count), not \(expected)",
                sql: statement.sql.sqlite)
        }
        // A statement that failed stays cached (``stepThrough(_:_:)``), and SQLite's reset
        // returns its last error once: reset here first, so the unchecked setter's own reset
        // (GRDB's `try!`) never finds that error, which would end the whole process.
        sqlite3_reset(handle)
        prepared.setUncheckedArguments(StatementArguments())
        for (index, value) in statement.arguments.enumerated() {
            let code = value.databaseValue.bind(to: handle, at: CInt(index + 1))
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: statement.sql.sqlite)
            }
        }
        return prepared
    }

    /// Runs `body`, throwing what a broken unique constraint means for `statement`, if it says.
    private func translatingDuplicate<T>(_ statement: StorageSQL.Statement, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw statement.duplicateMeans ?? error
        }
    }
}

extension SQLValue {
    /// The value as GRDB binds it (a Bool as 0 or 1, as SQLite keeps it).
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value?.databaseValue ?? .null
        case .real(let value): value?.databaseValue ?? .null
        case .text(let value): value?.databaseValue ?? .null
        case .blob(let value): value?.databaseValue ?? .null
        case .boolean(let value): value.map { ($0 ? 1 : 0 as Int64).databaseValue } ?? .null
        }
    }
}

/// A GRDB row read by column name. The rows of one statement share its column names, read
/// once (GRDB's own lookup by name lowercases the name on every call), and each row's values
/// are copied once from the cursor (`Row.fetchAll` copies every row into a `Row`).
struct GRDBRow: SQLRow {
    /// The statement's column names, in order. A statement names a handful, so a scan that
    /// compares short strings costs less than hashing them into a dictionary per statement.
    final class Columns: Sendable {
        let names: [String]

        init(_ names: [String]) { self.names = names }

        /// The first column of that name, as written, else ignoring case (as SQLite does).
        func position(of column: String) -> Int? {
            names.firstIndex(of: column)
                ?? names.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
        }
    }

    let columns: Columns
    let values: [DatabaseValue]

    /// Every row `statement` returns (its arguments already set), each value copied once.
    static func fetchAll(_ statement: GRDB.Statement, on db: Database) throws -> [any SQLRow] {
        let columns = Columns(statement.columnNames)
        let count = CInt(columns.names.count)
        var rows: [any SQLRow] = []
        try db.stepThrough(statement) { handle in
            rows.append(GRDBRow(columns: columns, values: (0..<count).map { DatabaseValue(sqliteStatement: handle, index: $0) }))
        }
        return rows
    }

    private func value<T: DatabaseValueConvertible>(_ column: String, _ type: T.Type) throws -> T? {
        guard let position = columns.position(of: column) else { throw columnCorrupt(column, "there") }
        let stored = values[position]
        if stored.isNull { return nil }
        guard let value = T.fromDatabaseValue(stored) else { throw columnCorrupt(column, "\(T.self)") }
        return value
    }

    func integer(_ column: String) throws -> Int64? { try value(column, Int64.self) }
    func real(_ column: String) throws -> Double? { try value(column, Double.self) }
    func text(_ column: String) throws -> String? { try value(column, String.self) }
    func blob(_ column: String) throws -> Data? { try value(column, Data.self) }
    func boolean(_ column: String) throws -> Bool? { try value(column, Bool.self) }
}
