import Foundation

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

    /// `$N` becomes `?N`, and every row-lock clause (`FOR UPDATE`, `FOR SHARE`, … with `OF`,
    /// `NOWAIT` or `SKIP LOCKED`) goes; text in quotes ('…', "…") and comments (`--`, `/* */`) is
    /// copied as it is.
    static func sqliteForm(of text: String) -> String {
        let characters = Array(text)
        var output = ""
        output.reserveCapacity(characters.count)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            // Quoted text and comments: copied to their end.
            let end: String? =
                switch character {
                case "'": "'"
                case "\"": "\""
                case "-" where index + 1 < characters.count && characters[index + 1] == "-": "\n"
                case "/" where index + 1 < characters.count && characters[index + 1] == "*": "*/"
                default: nil
                }
            if let end {
                let start = index
                index += character == "'" || character == "\"" ? 1 : 2
                let closing = Array(end)
                while index < characters.count, !characters[index...].starts(with: closing) { index += 1 }
                index = min(characters.count, index + end.count)
                output += String(characters[start..<index])
                continue
            }
            if character == "$", index + 1 < characters.count, characters[index + 1].isNumber {
                output.append("?")
                index += 1
                continue
            }
            if let lockEnd = lockClause(characters, at: index) {
                while output.last?.isWhitespace == true { output.removeLast() }
                index = lockEnd
                continue
            }
            output.append(character)
            index += 1
        }
        return output
    }

    /// Where a row-lock clause starting at `index` ends, if one starts there (at a word start).
    private static func lockClause(_ characters: [Character], at index: Int) -> Int? {
        guard characters[index] == "F" || characters[index] == "f",
            index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == "_")
        else { return nil }
        let rest = String(characters[index...])
        guard
            let match = rest.range(
                of: #"^FOR\s+(NO\s+KEY\s+UPDATE|KEY\s+SHARE|UPDATE|SHARE)(\s+OF\s+[\w.]+(\s*,\s*[\w.]+)*)?(\s+NOWAIT|\s+SKIP\s+LOCKED)?\b"#,
                options: [.regularExpression, .caseInsensitive])
        else { return nil }
        return index + rest.distance(from: rest.startIndex, to: match.upperBound)
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
        self.arguments = arguments.map { $0.sqlValue }
    }

    public init(_ sql: SQL, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }
}
