import Foundation

/// A value bound to a statement's parameter, by kind. A NULL reaches PostgreSQL untyped
/// (postgres-nio's `appendNull`): put a nullable parameter only where PostgreSQL can infer its
/// type (an INSERT's column, `coalesce` with a column), or `CAST` it in the statement.
public enum SQLValue: Sendable, Hashable {
    case integer(Int64?)
    case real(Double?)
    case text(String?)
    case blob(Data?)
    case boolean(Bool?)
}

/// A Swift value that binds as one of ``SQLValue``'s kinds.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Data: SQLBindable { public var sqlValue: SQLValue { .blob(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .boolean(self) } }
extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }

extension Optional: SQLBindable where Wrapped: SQLBindable & NullTyped {
    public var sqlValue: SQLValue { self?.sqlValue ?? Wrapped.null }
}

/// What a NULL of this Swift type binds as.
public protocol NullTyped {
    static var null: SQLValue { get }
}

extension Int64: NullTyped { public static var null: SQLValue { .integer(nil) } }
extension Int: NullTyped { public static var null: SQLValue { .integer(nil) } }
extension Double: NullTyped { public static var null: SQLValue { .real(nil) } }
extension String: NullTyped { public static var null: SQLValue { .text(nil) } }
extension Data: NullTyped { public static var null: SQLValue { .blob(nil) } }
extension Bool: NullTyped { public static var null: SQLValue { .boolean(nil) } }
