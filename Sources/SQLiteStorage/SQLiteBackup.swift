import Foundation
import GRDB

/// A consistent copy of a live SQLite database, taken while it serves: SQLite's online backup
/// (through GRDB) reads one snapshot (a WAL read transaction) while writers go on, so the copy
/// holds every transaction committed before it began and nothing half-written. The copy is
/// written beside its destination under a name of its own, private (0600), checked (`PRAGMA
/// integrity_check`), made a single file (rollback journal), and only then linked into place
/// (never over an existing file): a failed backup leaves no file that looks like one.
public enum SQLiteBackup {
    /// Why no copy was made.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// Copies the database at `source` to `destination` (which must not exist); returns the
    /// copy's size in bytes.
    public static func copy(_ source: String, to destination: String, busyTimeout: TimeInterval = 10) throws -> Int {
        let files = FileManager.default
        guard files.fileExists(atPath: source) else { throw Refused(description: "No database at \(source).") }
        guard !destination.isEmpty else { throw Refused(description: "--to needs a file name.") }
        guard (try? files.destinationOfSymbolicLink(atPath: destination)) == nil, !files.fileExists(atPath: destination)
        else {
            throw Refused(description: "\(destination) exists: a backup never replaces a file.")
        }
        let parent = (destination as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
            files.isWritableFile(atPath: folder)
        else {
            throw Refused(description: "\(folder) is not a folder this user can write in.")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let live = try DatabasePool(path: source, configuration: configuration)
        defer { try? live.close() }
        // A name of its own (two backups at once never meet), made empty and private (0600: the
        // copy holds what the database does) before anything is written into it.
        let partial = destination + ".partial-" + UUID().uuidString
        guard files.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Refused(description: "Could not write in \(folder).")
        }
        defer {
            for made in [partial, partial + "-wal", partial + "-shm", partial + "-journal"] {
                try? files.removeItem(atPath: made)
            }
        }
        do {
            let copy = try DatabaseQueue(path: partial)
            try live.backup(to: copy)
            let checked = try copy.writeWithoutTransaction { db -> [String] in
                // One self-contained file: the copy's WAL folded in and turned off.
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                return try String.fetchAll(db, sql: "PRAGMA integrity_check")
            }
            try copy.close()
            guard checked == ["ok"] else {
                throw Refused(description: "The copy failed its integrity check: \(checked.prefix(3))")
            }
            // link(2) refuses an existing name, where rename(2) would replace it.
            guard link(partial, destination) == 0 else {
                throw Refused(
                    description: errno == EEXIST
                        ? "\(destination) exists: a backup never replaces a file."
                        : "Could not write \(destination): \(String(cString: strerror(errno))).")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw Refused(description: "The disk is full: no backup was written.")
        }
        return (try? files.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
    }
}
