import Foundation
import GRDB
import OIDCCore

/// ``OIDCStore`` on SQLite: each method one write transaction (SQLite runs them one at a time,
/// so a code or refresh token is taken once however many requests present it).
public struct SQLiteOIDCStore: OIDCStore {
    private let writer: any DatabaseWriter

    public init(database: SQLiteDatabase) {
        self.writer = database.writer
    }

    public func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) async throws {
        try await writer.translatedWrite { db in
            try db.execute(
                sql: "INSERT INTO oidc_grants (family, client_id, user_id, created_at) VALUES (?, ?, ?, ?)",
                arguments: [grant.family, grant.clientID, grant.userID, now])
            try db.execute(
                sql: """
                    INSERT INTO oidc_codes (hash, family, redirect_uri, code_challenge, nonce, scope, auth_time, method,
                                            expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    hash, grant.family, grant.redirectURI, grant.codeChallenge, grant.nonce,
                    grant.scopes.joined(separator: " "), grant.authTime, grant.method, grant.expiresAt,
                ])
        }
    }

    public func takeCode(_ hash: Data, at now: Double) async throws -> Taken<CodeGrant> {
        try await writer.translatedWrite { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT c.family, g.client_id, g.user_id, c.redirect_uri, c.code_challenge, c.nonce, c.scope,
                               c.auth_time, c.method, c.expires_at, c.used_at, g.revoked_at, u.phone
                        FROM oidc_codes c JOIN oidc_grants g ON g.family = c.family JOIN users u ON u.id = g.user_id
                        WHERE c.hash = ?
                        """, arguments: [hash])
            else { return .unknown }
            let family: Data = row[0]
            if (row[10] as Double?) != nil { return .reused(family: family) }
            if (row[11] as Double?) != nil { return .unknown }
            try db.execute(sql: "UPDATE oidc_codes SET used_at = ? WHERE hash = ?", arguments: [now, hash])
            let scope: String = row[6]
            return .fresh(
                CodeGrant(
                    family: family, clientID: row[1], userID: row[2], redirectURI: row[3], codeChallenge: row[4],
                    nonce: row[5], scopes: scope.split(separator: " ").map(String.init), authTime: row[7],
                    method: row[8], expiresAt: row[9]), phone: row[12])
        }
    }

    public func saveRefresh(_ hash: Data, _ grant: RefreshGrant) async throws {
        try await writer.translatedWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO oidc_refresh_tokens (hash, family, scope, auth_time, method, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    hash, grant.family, grant.scopes.joined(separator: " "), grant.authTime, grant.method,
                    grant.expiresAt,
                ])
        }
    }

    public func takeRefresh(_ hash: Data, at now: Double) async throws -> Taken<RefreshGrant> {
        try await writer.translatedWrite { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT r.family, g.client_id, g.user_id, r.scope, r.auth_time, r.method, r.expires_at,
                               r.used_at, g.revoked_at, u.phone
                        FROM oidc_refresh_tokens r JOIN oidc_grants g ON g.family = r.family
                        JOIN users u ON u.id = g.user_id
                        WHERE r.hash = ?
                        """, arguments: [hash])
            else { return .unknown }
            let family: Data = row[0]
            if (row[7] as Double?) != nil { return .reused(family: family) }
            if (row[8] as Double?) != nil { return .unknown }
            try db.execute(sql: "UPDATE oidc_refresh_tokens SET used_at = ? WHERE hash = ?", arguments: [now, hash])
            let scope: String = row[3]
            return .fresh(
                RefreshGrant(
                    family: family, clientID: row[1], userID: row[2],
                    scopes: scope.split(separator: " ").map(String.init),
                    authTime: row[4], method: row[5], expiresAt: row[6]), phone: row[9])
        }
    }

    public func revoke(family: Data, at now: Double) async throws {
        try await writer.translatedWrite { db in
            try db.execute(
                sql: "UPDATE oidc_grants SET revoked_at = coalesce(revoked_at, ?) WHERE family = ?",
                arguments: [now, family])
        }
    }

    public func userinfo(family: Data) async throws -> (userID: Int64, phone: String)? {
        try await writer.readOnWorkerThread { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT g.user_id, u.phone FROM oidc_grants g JOIN users u ON u.id = g.user_id
                    WHERE g.family = ? AND g.revoked_at IS NULL
                    """, arguments: [family]
            ).map { row in (row[0], row[1]) }
        }
    }

    public func hasConsent(user: Int64, client: String, scopes: [String]) async throws -> Bool {
        let granted = try await writer.readOnWorkerThread { db in
            try String.fetchOne(
                db, sql: "SELECT scope FROM oidc_consents WHERE user_id = ? AND client_id = ?",
                arguments: [user, client])
        }
        guard let granted else { return false }
        let had = granted.split(separator: " ").map(String.init)
        return scopes.allSatisfy(had.contains)
    }

    public func grantConsent(user: Int64, client: String, scopes: [String], at now: Double) async throws {
        try await writer.translatedWrite { db in
            let had =
                try String.fetchOne(
                    db, sql: "SELECT scope FROM oidc_consents WHERE user_id = ? AND client_id = ?",
                    arguments: [user, client])?.split(separator: " ").map(String.init) ?? []
            let all = OIDCScopes.union(had, scopes)
            try db.execute(
                sql: """
                    INSERT INTO oidc_consents (user_id, client_id, scope, granted_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
                    """, arguments: [user, client, all.joined(separator: " "), now])
        }
    }

    public func revokeConsent(user: Int64, client: String, at now: Double) async throws {
        try await writer.translatedWrite { db in
            try db.execute(
                sql: "DELETE FROM oidc_consents WHERE user_id = ? AND client_id = ?", arguments: [user, client])
            try db.execute(
                sql: """
                    UPDATE oidc_grants SET revoked_at = ? WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL
                    """, arguments: [now, user, client])
        }
    }

    public func connectedApps(user: Int64, at now: Double) async throws -> [Consent] {
        try await writer.readOnWorkerThread { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT client_id, scope, granted_at FROM oidc_consents WHERE user_id = ?1
                    UNION ALL
                    SELECT g.client_id, '', min(g.created_at) FROM oidc_grants g
                    JOIN oidc_refresh_tokens r ON r.family = g.family
                    WHERE g.user_id = ?1 AND g.revoked_at IS NULL AND r.used_at IS NULL AND r.expires_at > ?2
                      AND g.client_id NOT IN (SELECT client_id FROM oidc_consents WHERE user_id = ?1)
                    GROUP BY g.client_id
                    ORDER BY 3 DESC
                    """,
                arguments: [user, now]
            ).map { row in
                let scope: String = row[1]
                return Consent(
                    clientID: row[0], scopes: scope.split(separator: " ").map(String.init), grantedAt: row[2])
            }
        }
    }

    public func purge(before now: Double) async throws -> Int {
        try await writer.translatedWrite { db in
            var count = 0
            for (sql, cutoff) in [
                ("DELETE FROM oidc_codes WHERE expires_at <= ?", now - OIDCScopes.usedCodesKept),
                ("DELETE FROM oidc_refresh_tokens WHERE expires_at <= ?", now),
                (
                    """
                    DELETE FROM oidc_grants WHERE created_at <= ?
                        AND NOT EXISTS (SELECT 1 FROM oidc_refresh_tokens r WHERE r.family = oidc_grants.family)
                        AND NOT EXISTS (SELECT 1 FROM oidc_codes c WHERE c.family = oidc_grants.family)
                    """, now - OIDCScopes.usedCodesKept
                ),
            ] {
                try db.execute(sql: sql, arguments: [cutoff])
                count += db.changesCount
            }
            return count
        }
    }
}
