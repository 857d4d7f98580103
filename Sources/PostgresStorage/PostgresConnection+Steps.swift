import AuthCore
import Foundation
import Logging
import PostgresNIO
import StorageSQL

extension PostgresConnection {
    /// Runs `step`'s statements in order (their PostgreSQL text) until its result: everything a
    /// store method does, written once in `StorageSQL`.
    func run<Result>(_ step: Step<Result>, _ logger: Logger) async throws -> Result {
        var step = step
        while true {
            switch step {
            case .done(let result):
                return result
            case .next(let make):
                step = try make()
            case .rows(let statement, let next):
                let rows = try await translatingDuplicate(statement) {
                    try await self.query(try Self.query(statement), logger: logger).collect()
                }
                step = try next(rows.map { PostgresNamedRow(row: $0.makeRandomAccess()) as any SQLRow })
            case .changes(let statement, let next):
                let result = try await translatingDuplicate(statement) {
                    // The future-based query keeps the command tag ("UPDATE 1"): the rows changed.
                    try await self.query(try Self.query(statement), logger: logger).get()
                }
                step = try next(result.metadata.rows ?? 0)
            }
        }
    }

    static func query(_ statement: StorageSQL.Statement) throws -> PostgresQuery {
        var binds = PostgresBindings(capacity: statement.arguments.count)
        for argument in statement.arguments {
            switch argument {
            case .integer(let value): binds.append(value)
            case .real(let value): binds.append(value)
            case .text(let value): binds.append(value)
            case .blob(let value): try binds.append(value, context: .default)
            case .boolean(let value): binds.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: statement.sql.postgres, binds: binds)
    }

    /// Runs `body`, throwing what a broken unique constraint (SQLSTATE 23505) means for
    /// `statement`, if it says.
    private func translatingDuplicate<T>(_ statement: StorageSQL.Statement, _ body: () async throws -> T)
        async throws -> T
    {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw statement.duplicateMeans ?? error
        }
    }
}

/// A PostgreSQL row read by column name.
struct PostgresNamedRow: SQLRow {
    let row: PostgresRandomAccessRow

    private func value<T: PostgresDecodable>(_ column: String, _ type: T.Type) throws -> T?
    where T._DecodableType == T {
        guard row.contains(column) else { throw columnCorrupt(column, "there") }
        do {
            return try row[column].decode(T?.self)
        } catch {
            throw columnCorrupt(column, "\(T.self)")
        }
    }

    func integer(_ column: String) throws -> Int64? { try value(column, Int64.self) }
    func real(_ column: String) throws -> Double? { try value(column, Double.self) }
    func text(_ column: String) throws -> String? { try value(column, String.self) }
    func blob(_ column: String) throws -> Data? { try value(column, Data.self) }
    func boolean(_ column: String) throws -> Bool? { try value(column, Bool.self) }
}
