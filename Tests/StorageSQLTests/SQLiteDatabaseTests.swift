import Foundation
import GRDB
import Testing

@testable import SQLiteStorage

/// How the app's SQLite file is opened: the settings its speed and durability rest on.
@Suite("SQLite's file settings")
struct SQLiteDatabaseTests {
    @Test("the file is a WAL database, synchronous NORMAL, checkpointed every 4,000 pages and cut back to 32 MB, on the writer and the readers alike")
    func settings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-settings-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("db.sqlite").path)
        defer { try? database.close() }
        func settings(_ db: Database) throws -> [String] {
            try ["journal_mode", "synchronous", "wal_autocheckpoint", "journal_size_limit"].map {
                try String.fetchOne(db, sql: "PRAGMA \($0)") ?? ""
            }
        }
        let expected = ["wal", "1", "4000", "32768000"]
        #expect(try database.writer.writeWithoutTransaction(settings) == expected)
        #expect(try database.writer.read(settings) == expected)
    }
}
