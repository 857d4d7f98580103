/// One statement's text, written once for both databases.
///
/// Parameters are numbered, PostgreSQL's way (`$1`, `$2`, … a number may repeat); SQLite gets
/// the same text with `?1`, `?2`, …, which it binds by the same numbers. (SQLite would also take
/// `$1`, but as a *name*, numbered by first appearance: `$2 … $1` would bind backwards.)
///
/// The real differences between the two dialects, named here and nowhere else:
/// - **Row locks.** `FOR UPDATE` (and `FOR UPDATE OF t`) is PostgreSQL's: it makes two
///   transactions on any instances take a row one after the other. SQLite runs one write
///   transaction at a time, so the lock is implied; its text is the same without the clause.
/// - **Statements tuned per database**, where each planner wants a different shape for the same
///   answer: ``init(sqlite:postgres:)``, with the reason beside the statement.
/// Everything else (`RETURNING`, `ON CONFLICT … DO UPDATE`, `count(*) FILTER (WHERE …)`, window
/// functions, `CAST(… AS BIGINT)`) both accept as written. Column types (`BYTEA`/`BLOB`,
/// `boolean`/`INTEGER`) differ only in the migrations.
public struct SQL: Sendable, Hashable {
    /// The text PostgreSQL runs.
    public let postgres: String
    /// The text SQLite runs.
    public let sqlite: String

    public init(_ text: String) {
        self.postgres = text
        self.sqlite = Self.sqliteForm(of: text)
    }

    /// A statement each database runs in its own shape, giving the same columns.
    public init(sqlite: String, postgres: String) {
        self.postgres = postgres
        self.sqlite = Self.sqliteForm(of: sqlite)
    }

    public func text(for dialect: Dialect) -> String {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }

    /// `$N` becomes `?N`, and a `FOR UPDATE [OF name]` clause goes. Outside quoted text only.
    static func sqliteForm(of text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var quoted = false
        for character in text {
            if character == "'" { quoted.toggle() }
            output.append(!quoted && character == "$" ? "?" : character)
        }
        guard let lock = output.range(of: #"\s+FOR UPDATE(\s+OF\s+\w+)?"#, options: .regularExpression) else {
            return output
        }
        output.removeSubrange(lock)
        return output
    }
}

/// Which database a statement runs on, for the few statements that differ (``SQL``).
public enum Dialect: Sendable {
    case sqlite, postgres
}

/// A statement and the values bound to its parameters, in order (`$1` is the first).
public struct Statement: Sendable {
    public let sql: SQL
    public let arguments: [SQLValue]
    /// What a unique constraint this statement breaks means to the person (an account name
    /// already taken), thrown instead of the database's error; nil: the database's error stands.
    public private(set) var duplicateMeans: (any Error & Sendable)?

    /// This statement, with a broken unique constraint thrown as `error`.
    public func duplicate(means error: any Error & Sendable) -> Statement {
        var statement = self
        statement.duplicateMeans = error
        return statement
    }

    public init(_ sql: SQL, _ arguments: any SQLBindable...) {
        self.sql = sql
        self.arguments = arguments.map(\.sqlValue)
    }

    public init(_ sql: SQL, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }
}
