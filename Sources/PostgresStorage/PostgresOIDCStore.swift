import Foundation
import Logging
import OIDCCore
import PostgresNIO

/// ``OIDCStore`` on PostgreSQL, shared by every instance: a code or refresh token is read
/// `FOR UPDATE`, so two requests presenting it at once, on any instances, take it one after the
/// other and only the first finds it unused.
public struct PostgresOIDCStore: OIDCStore {
    private let database: PostgresBackend

    public init(database: PostgresBackend) {
        self.database = database
    }

    public func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) async throws {
        let logger = database.logger
        _ = try await database.transaction { connection in
            try await connection.rows(
                """
                INSERT INTO oidc_grants (family, client_id, user_id, created_at)
                VALUES (\(grant.family), \(grant.clientID), \(grant.userID), \(now))
                """, logger)
            try await connection.rows(
                """
                INSERT INTO oidc_codes (hash, family, redirect_uri, code_challenge, nonce, scope, auth_time, method,
                                        expires_at)
                VALUES (\(hash), \(grant.family), \(grant.redirectURI), \(grant.codeChallenge), \(grant.nonce),
                        \(grant.scopes.joined(separator: " ")), \(grant.authTime), \(grant.method), \(grant.expiresAt))
                """, logger)
        }
    }

    public func takeCode(_ hash: Data, at now: Double) async throws -> Taken<CodeGrant> {
        let logger = database.logger
        return try await database.transaction { connection in
            guard
                let row = try await connection.rows(
                    """
                    SELECT c.family, g.client_id, g.user_id, c.redirect_uri, c.code_challenge, c.nonce, c.scope,
                           c.auth_time, c.method, c.expires_at, c.used_at, g.revoked_at, u.phone
                    FROM oidc_codes c JOIN oidc_grants g ON g.family = c.family JOIN users u ON u.id = g.user_id
                    WHERE c.hash = \(hash) FOR UPDATE OF c
                    """, logger
                ).first
            else { return .unknown }
            let (family, client, user, redirect, challenge, nonce, scope) = try row.decode(
                (Data, String, Int64, String, String?, String?, String).self)
            let columns = row.makeRandomAccess()
            let (authTime, method, expires) = (
                try columns[7].decode(Double.self), try columns[8].decode(String.self),
                try columns[9].decode(Double.self)
            )
            let (used, revoked, phone) = (
                try columns[10].decode(Double?.self), try columns[11].decode(Double?.self),
                try columns[12].decode(String.self)
            )
            if used != nil { return .reused(family: family) }
            if revoked != nil { return .unknown }
            try await connection.rows("UPDATE oidc_codes SET used_at = \(now) WHERE hash = \(hash)", logger)
            return .fresh(
                CodeGrant(
                    family: family, clientID: client, userID: user, redirectURI: redirect, codeChallenge: challenge,
                    nonce: nonce, scopes: scope.split(separator: " ").map(String.init), authTime: authTime,
                    method: method, expiresAt: expires), phone: phone)
        }
    }

    public func saveRefresh(_ hash: Data, _ grant: RefreshGrant) async throws {
        let logger = database.logger
        _ = try await database.transaction { connection in
            try await connection.rows(
                """
                INSERT INTO oidc_refresh_tokens (hash, family, scope, auth_time, method, expires_at)
                VALUES (\(hash), \(grant.family), \(grant.scopes.joined(separator: " ")), \(grant.authTime),
                        \(grant.method), \(grant.expiresAt))
                """, logger)
        }
    }

    public func takeRefresh(_ hash: Data, at now: Double) async throws -> Taken<RefreshGrant> {
        let logger = database.logger
        return try await database.transaction { connection in
            guard
                let row = try await connection.rows(
                    """
                    SELECT r.family, g.client_id, g.user_id, r.scope, r.auth_time, r.method, r.expires_at,
                           r.used_at, g.revoked_at, u.phone
                    FROM oidc_refresh_tokens r JOIN oidc_grants g ON g.family = r.family
                    JOIN users u ON u.id = g.user_id
                    WHERE r.hash = \(hash) FOR UPDATE OF r
                    """, logger
                ).first
            else { return .unknown }
            let (family, client, user, scope, authTime, method, expires) = try row.decode(
                (Data, String, Int64, String, Double, String, Double).self)
            let columns = row.makeRandomAccess()
            let (used, revoked, phone) = (
                try columns[7].decode(Double?.self), try columns[8].decode(Double?.self),
                try columns[9].decode(String.self)
            )
            if used != nil { return .reused(family: family) }
            if revoked != nil { return .unknown }
            try await connection.rows("UPDATE oidc_refresh_tokens SET used_at = \(now) WHERE hash = \(hash)", logger)
            return .fresh(
                RefreshGrant(
                    family: family, clientID: client, userID: user,
                    scopes: scope.split(separator: " ").map(String.init),
                    authTime: authTime, method: method, expiresAt: expires), phone: phone)
        }
    }

    public func revoke(family: Data, at now: Double) async throws {
        _ = try await database.rows(
            "UPDATE oidc_grants SET revoked_at = coalesce(revoked_at, \(now)) WHERE family = \(family)")
    }

    public func userinfo(family: Data) async throws -> (userID: Int64, phone: String)? {
        try await database.rows(
            """
            SELECT g.user_id, u.phone FROM oidc_grants g JOIN users u ON u.id = g.user_id
            WHERE g.family = \(family) AND g.revoked_at IS NULL
            """
        ).first.map { row in try row.decode((Int64, String).self) }
    }

    public func hasConsent(user: Int64, client: String, scopes: [String]) async throws -> Bool {
        guard
            let granted = try await database.rows(
                "SELECT scope FROM oidc_consents WHERE user_id = \(user) AND client_id = \(client)"
            ).first?.decode(String.self)
        else { return false }
        let had = granted.split(separator: " ").map(String.init)
        return scopes.allSatisfy(had.contains)
    }

    public func grantConsent(user: Int64, client: String, scopes: [String], at now: Double) async throws {
        let logger = database.logger
        _ = try await database.transaction { connection in
            let had =
                try await connection.rows(
                    "SELECT scope FROM oidc_consents WHERE user_id = \(user) AND client_id = \(client) FOR UPDATE",
                    logger
                ).first?.decode(String.self).split(separator: " ").map(String.init) ?? []
            let all = OIDCScopes.union(had, scopes).joined(separator: " ")
            try await connection.rows(
                """
                INSERT INTO oidc_consents (user_id, client_id, scope, granted_at) VALUES (\(user), \(client), \(all), \(now))
                ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
                """, logger)
        }
    }

    public func revokeConsent(user: Int64, client: String, at now: Double) async throws {
        let logger = database.logger
        _ = try await database.transaction { connection in
            try await connection.rows(
                "DELETE FROM oidc_consents WHERE user_id = \(user) AND client_id = \(client)", logger)
            try await connection.rows(
                """
                UPDATE oidc_grants SET revoked_at = \(now)
                WHERE user_id = \(user) AND client_id = \(client) AND revoked_at IS NULL
                """, logger)
        }
    }

    public func connectedApps(user: Int64, at now: Double) async throws -> [Consent] {
        try await database.rows(
            """
            SELECT client_id, scope, granted_at FROM oidc_consents WHERE user_id = \(user)
            UNION ALL
            SELECT g.client_id, '', min(g.created_at) FROM oidc_grants g
            JOIN oidc_refresh_tokens r ON r.family = g.family
            WHERE g.user_id = \(user) AND g.revoked_at IS NULL AND r.used_at IS NULL AND r.expires_at > \(now)
              AND g.client_id NOT IN (SELECT client_id FROM oidc_consents WHERE user_id = \(user))
            GROUP BY g.client_id
            ORDER BY 3 DESC
            """
        ).map { row in
            let (client, scope, granted) = try row.decode((String, String, Double).self)
            return Consent(clientID: client, scopes: scope.split(separator: " ").map(String.init), grantedAt: granted)
        }
    }

    public func purge(before now: Double) async throws -> Int {
        let kept = now - OIDCScopes.usedCodesKept
        let counts = try await database.rows(
            """
            WITH c AS (DELETE FROM oidc_codes WHERE expires_at <= \(kept) RETURNING 1),
                 r AS (DELETE FROM oidc_refresh_tokens WHERE expires_at <= \(now) RETURNING 1)
            SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM r)
            """)
        let grants = try await database.rows(
            """
            WITH g AS (DELETE FROM oidc_grants WHERE created_at <= \(kept)
                AND NOT EXISTS (SELECT 1 FROM oidc_refresh_tokens r WHERE r.family = oidc_grants.family)
                AND NOT EXISTS (SELECT 1 FROM oidc_codes c WHERE c.family = oidc_grants.family) RETURNING 1)
            SELECT count(*) FROM g
            """)
        return try (counts.first?.decode(Int.self) ?? 0) + (grants.first?.decode(Int.self) ?? 0)
    }
}
