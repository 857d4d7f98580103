import ArgumentParser
import Foundation
import SQLiteStorage

/// `webapp backup --to FILE`: a consistent copy of the server's SQLite database, taken while it
/// serves (``SQLiteStorage/SQLiteBackup``). Restoring is starting a server with `--db FILE`, or
/// putting the file back as `<data-dir>/webapp.sqlite` (docs/RELIABILITY.md#backups).
/// PostgreSQL has its own tools: `pg_dump`.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp backup",
        abstract: "Copy the live SQLite database to a file, consistently, while the server runs.",
        discussion: """
            The copy holds every change committed before it began; a server started on it \
            (--db FILE) serves as the original did then. For PostgreSQL, use pg_dump and \
            pg_restore (docs/RELIABILITY.md#backups).
            """)

    @Option(help: "Where to write the copy (a new file: a backup never replaces one).")
    var to: String

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let configuration = try database.serverConfiguration()
        guard configuration.postgres == nil else {
            throw ValidationError("The database is PostgreSQL: back it up with pg_dump (docs/RELIABILITY.md#backups).")
        }
        do {
            let bytes = try SQLiteBackup.copy(configuration.resolvedDatabasePath, to: to)
            print("Backed up \(configuration.resolvedDatabasePath) to \(to) (\(bytes) bytes).")
        } catch let refused as SQLiteBackup.Refused {
            throw ValidationError(refused.description)
        }
    }
}
