/// A value the schema's CHECK constraints refused (SQLite's `SQLITE_CONSTRAINT_CHECK`,
/// PostgreSQL's SQLSTATE 23514): a limit the rules should have caught first, which the database,
/// the last line, caught instead. Nothing was written; the request is answered 422 with a plain
/// sentence, never a 500, and the rule that let the value through is the bug to fix.
public struct SchemaCheckFailed: Error, CustomStringConvertible {
    /// The database's own words (the constraint), for the log only: never shown to the person.
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
