import Testing

@testable import StorageSQL

@Suite("One statement text, two dialects")
struct SQLTextTests {
    @Test(
        "SQLite's text numbers the same parameters ?N and drops every row lock; quotes and comments are left alone",
        arguments: [
            ("SELECT a FROM t WHERE b = $2 AND c = $1", "SELECT a FROM t WHERE b = ?2 AND c = ?1"),
            ("SELECT * FROM t WHERE k = $1 FOR UPDATE", "SELECT * FROM t WHERE k = ?1"),
            ("SELECT * FROM c JOIN g ON g.f = c.f WHERE c.h = $1 FOR UPDATE OF c", "SELECT * FROM c JOIN g ON g.f = c.f WHERE c.h = ?1"),
            ("SELECT 1 FROM t WHERE id = $1 for update of a, b skip locked", "SELECT 1 FROM t WHERE id = ?1"),
            ("SELECT 1 FROM t WHERE id = $1 FOR NO KEY UPDATE NOWAIT", "SELECT 1 FROM t WHERE id = ?1"),
            ("SELECT 1 FROM t WHERE id = $1 FOR SHARE", "SELECT 1 FROM t WHERE id = ?1"),
            ("SELECT '$1 FOR UPDATE' AS s, x FROM t WHERE y = $1", "SELECT '$1 FOR UPDATE' AS s, x FROM t WHERE y = ?1"),
            ("SELECT \"$1\" FROM t WHERE y = $1", "SELECT \"$1\" FROM t WHERE y = ?1"),
            ("SELECT x -- the person's row, $1\nFROM t WHERE y = $2", "SELECT x -- the person's row, $1\nFROM t WHERE y = ?2"),
            ("SELECT x /* it's $1 */ FROM t WHERE y = $2", "SELECT x /* it's $1 */ FROM t WHERE y = ?2"),
            ("SELECT formula FROM t WHERE cost = $10", "SELECT formula FROM t WHERE cost = ?10"),
            ("SELECT $ FROM t", "SELECT $ FROM t"),
        ])
    func sqliteForm(_ postgres: String, _ sqlite: String) {
        let sql = SQL(postgres)
        #expect(sql.postgres == postgres)
        #expect(sql.sqlite == sqlite)
    }

    @Test("the statements the stores run have no $ parameter and no row lock left in their SQLite text")
    func storesStatements() {
        let statements = [
            AuthReads.sessionByKey, AuthReads.codeByPhone, AuthReads.costTotal, AuthReads.costReached,
            AuthReads.settledCodes, AuthReads.finalDeliveries, OIDCQueries.codeByHash, OIDCQueries.refreshByHash,
            OIDCQueries.consentScopesLocked, OIDCQueries.connected, WalletQueries.lockUser,
            WalletQueries.accountOfUserLocked, WalletQueries.overviewOfUser, AuthChanges.upsertPendingSession,
            AuthChanges.insertDevice,
        ] + AuthReads.newestByKind.values
        for sql in statements {
            #expect(!sql.sqlite.contains("$"), "\(sql.sqlite)")
            #expect(!sql.sqlite.uppercased().contains("FOR UPDATE"), "\(sql.sqlite)")
        }
    }
}
