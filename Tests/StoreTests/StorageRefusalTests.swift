import Foundation
import Testing

@testable import AuthCore
@testable import WalletCore

/// What the database refuses comes out of every store as the same typed errors, so the app
/// answers them alike on both databases: a CHECK constraint is ``SchemaCheckFailed`` (422), a
/// database that cannot take the write now is ``StorageUnavailable`` (503).
@Suite("Storage refusals")
struct StorageRefusalTests {
    @Test(
        "a value the schema's CHECK refuses is SchemaCheckFailed from both stores, never the driver's error",
        arguments: Backend.all)
    func checkConstraint(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            // Past the rules on purpose: a 41-character name, a 3-byte code digest.
            let name = String(repeating: "x", count: 41)
            await #expect(throws: SchemaCheckFailed.self) {
                try await database.wallet.transaction(reading: WalletReads(user: f.alice)) { _ in
                    WalletDecision(
                        writes: [.setDisplayName(name)],
                        receipt: ReceiptDraft(action: .setName, account: nil, operation: nil, replayed: false))
                }
            }
            await #expect(throws: SchemaCheckFailed.self) {
                try await database.auth.transaction(reading: ReadList()) { _ in
                    AuthDecision(
                        (),
                        changes: [
                            .storeCode(
                                phone: "+15305550123",
                                code: StoredCode(digest: Data(count: 3), sentAt: 1, expiresAt: 2, failedAttempts: 0))
                        ])
                }
            }
            #expect(try await database.count("wallet_profiles") == 0)
            #expect(try await database.count("verifications") == 0)
        }
    }

    @Test("a full SQLite database is StorageUnavailable (503), not a 500, and nothing of the write stays")
    func diskFull() async throws {
        try await withDatabase(.sqlite) { database in
            // The database may not grow by a single page: as good as a full disk.
            let pages = try #require(try await database.integer("PRAGMA page_count"))
            try await database.execute("PRAGMA max_page_count = \(pages)")
            let sends = (0..<2_000).map { _ in AuthChange.recordSend(phone: "+15305550123", client: "client", at: 1) }
            await #expect(throws: StorageUnavailable.self) {
                try await database.auth.transaction(reading: ReadList()) { _ in AuthDecision((), changes: sends) }
            }
            #expect(try await database.count("code_sends") == 0)
        }
    }
}
