import AuthCore
import Foundation

/// One row a statement returned, read by column name. Each store wraps its driver's row
/// (GRDB's `Row`, postgres-nio's `PostgresRandomAccessRow`) in one of these.
///
/// A getter returns nil for NULL, and throws ``AuthCore/StoredDataCorrupt`` when the column is
/// missing or holds another kind of value: what comes back from storage is never trusted with
/// a trap.
public protocol SQLRow {
    func integer(_ column: String) throws -> Int64?
    func real(_ column: String) throws -> Double?
    func text(_ column: String) throws -> String?
    func blob(_ column: String) throws -> Data?
    func boolean(_ column: String) throws -> Bool?
}

/// A Swift value read from one column.
public protocol SQLColumnValue {
    /// The value, or nil for NULL.
    static func read(_ column: String, of row: some SQLRow) throws -> Self?
}

extension Int64: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> Int64? { try row.integer(column) }
}
extension Int: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> Int? {
        try row.integer(column).map {
            guard let value = Int(exactly: $0) else { throw StoredDataCorrupt("\(column) out of range") }
            return value
        }
    }
}
extension Double: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> Double? { try row.real(column) }
}
extension String: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> String? { try row.text(column) }
}
extension Data: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> Data? { try row.blob(column) }
}
extension Bool: SQLColumnValue {
    public static func read(_ column: String, of row: some SQLRow) throws -> Bool? { try row.boolean(column) }
}

extension SQLRow {
    /// The column's value; a NULL there is ``AuthCore/StoredDataCorrupt``.
    public func get<T: SQLColumnValue>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try T.read(column, of: self) else { throw StoredDataCorrupt("\(column) is NULL") }
        return value
    }

    /// The column's value, nil for NULL.
    public func optional<T: SQLColumnValue>(_ column: String, as type: T.Type = T.self) throws -> T? {
        try T.read(column, of: self)
    }
}

/// A column whose value is missing or of another kind than the code reads.
public func columnCorrupt(_ column: String, _ expected: String) -> StoredDataCorrupt {
    StoredDataCorrupt("column \(column) is missing or not \(expected)")
}
