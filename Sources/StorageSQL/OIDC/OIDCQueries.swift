import AuthCore
import EventsCore
import Foundation
import OIDCCore

/// What ``OIDCCore/OIDCStore`` reads and writes, once for both databases: a code or refresh
/// token is read `FOR UPDATE` (PostgreSQL; SQLite's one writer implies it), so two requests
/// presenting it at once, on any instances, take it one after the other and only the first
/// finds it unused.
public enum OIDCQueries {
    static let insertGrant = SQL(
        "INSERT INTO oidc_grants (family, client_id, user_id, created_at, sid) VALUES ($1, $2, $3, $4, $5)")
    static let insertCode = SQL(
        """
        INSERT INTO oidc_codes
            (hash, family, redirect_uri, code_challenge, nonce, scope, auth_time, method, expires_at, by_call)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
        """)

    public static func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) -> Step<Int> {
        .execute([
            Statement(insertGrant, grant.family, grant.clientID, grant.userID, now, grant.sid),
            Statement(
                insertCode, hash, grant.family, grant.redirectURI, grant.codeChallenge, grant.nonce,
                grant.scopes.text, grant.authTime, grant.method.storedMethod, grant.expiresAt,
                grant.method.byCall),
        ])
    }

    static let codeByHash = SQL(
        """
        SELECT c.family, g.client_id, g.user_id, c.redirect_uri, c.code_challenge, c.nonce, c.scope, c.auth_time,
               c.method, c.by_call, c.expires_at, c.used_at, g.revoked_at, g.created_at AS family_created_at, g.sid,
               u.phone
        FROM oidc_codes c JOIN oidc_grants g ON g.family = c.family JOIN users u ON u.id = g.user_id
        WHERE c.hash = $1 FOR UPDATE OF c
        """)
    static let useCode = SQL("UPDATE oidc_codes SET used_at = $1 WHERE hash = $2")

    /// The code with this hash as stored (locked), `decide`'s outcome, and its changes written.
    public static func redeemCode<Outcome>(
        _ hash: Data, decide: @escaping (StoredGrant<CodeGrant>?) -> OIDCDecision<Outcome>
    ) -> Step<Outcome> {
        redeem(Statement(codeByHash, hash), decide) { row, family in
            CodeGrant(
                family: family, clientID: try row.get("client_id"), userID: try row.get("user_id"),
                redirectURI: try row.get("redirect_uri"), codeChallenge: try row.optional("code_challenge"),
                nonce: try row.optional("nonce"), scopes: scopes(try row.get("scope")),
                authTime: try row.get("auth_time"), method: try method(row), expiresAt: try row.get("expires_at"))
        }
    }

    static let refreshByHash = SQL(
        """
        SELECT r.family, g.client_id, g.user_id, r.scope, r.auth_time, r.method, r.by_call, r.expires_at, r.used_at,
               g.revoked_at, g.created_at AS family_created_at, g.sid, u.phone
        FROM oidc_refresh_tokens r JOIN oidc_grants g ON g.family = r.family JOIN users u ON u.id = g.user_id
        WHERE r.hash = $1 FOR UPDATE OF r
        """)
    static let useRefresh = SQL("UPDATE oidc_refresh_tokens SET used_at = $1 WHERE hash = $2")
    static let insertRefresh = SQL(
        """
        INSERT INTO oidc_refresh_tokens (hash, family, scope, auth_time, method, expires_at, by_call)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        """)

    /// The refresh token with this hash as stored (locked), `decide`'s outcome, and its changes.
    public static func redeemRefresh<Outcome>(
        _ hash: Data, decide: @escaping (StoredGrant<RefreshGrant>?) -> OIDCDecision<Outcome>
    ) -> Step<Outcome> {
        redeem(Statement(refreshByHash, hash), decide) { row, family in
            RefreshGrant(
                family: family, clientID: try row.get("client_id"), userID: try row.get("user_id"),
                scopes: scopes(try row.get("scope")), authTime: try row.get("auth_time"), method: try method(row),
                expiresAt: try row.get("expires_at"))
        }
    }

    /// What `find` finds (a code or refresh token with its grant and person), decided on, and the
    /// decision's changes written, in the caller's transaction.
    private static func redeem<Grant, Outcome>(
        _ find: Statement, _ decide: @escaping (StoredGrant<Grant>?) -> OIDCDecision<Outcome>,
        _ grant: @escaping (any SQLRow, Data) throws -> Grant
    ) -> Step<Outcome> {
        .rows(find) { rows in
            let stored = try rows.first.map { row in
                StoredGrant(
                    grant: try grant(row, try row.get("family")), phone: try row.get("phone"),
                    usedAt: try row.optional("used_at"), familyRevokedAt: try row.optional("revoked_at"),
                    familyCreatedAt: try row.get("family_created_at"), sid: try row.optional("sid"))
            }
            let decision = decide(stored)
            return Step<Int>.execute(decision.changes.map(statement)).map { _ in decision.outcome }
        }
    }

    static let revokeFamily = SQL("UPDATE oidc_grants SET revoked_at = coalesce(revoked_at, $1) WHERE family = $2")

    /// The statement that writes `change`.
    static func statement(_ change: OIDCChange) -> Statement {
        switch change {
        case .markCodeUsed(let hash, let at): Statement(useCode, at, hash)
        case .markRefreshUsed(let hash, let at): Statement(useRefresh, at, hash)
        case .revoke(let family, let at): Statement(revokeFamily, at, family)
        case .saveRefresh(let hash, let grant):
            Statement(
                insertRefresh, hash, grant.family, grant.scopes.text, grant.authTime,
                grant.method.storedMethod, grant.expiresAt, grant.method.byCall)
        }
    }

    /// How the person signed in, as stored; a value the code does not know is corrupt data.
    static func method(_ row: any SQLRow) throws -> SignInMethod {
        guard let method = SignInMethod(stored: try row.get("method"), byCall: try row.get("by_call")) else {
            throw StoredDataCorrupt("an OIDC grant with an unknown sign-in method")
        }
        return method
    }

    static let liveGrant = SQL(
        """
        SELECT g.user_id, u.phone FROM oidc_grants g JOIN users u ON u.id = g.user_id
        WHERE g.family = $1 AND g.revoked_at IS NULL
        """)

    public static func userinfo(family: Data) -> Step<UserInfo?> {
        .rows(Statement(liveGrant, family)) { rows in
            .done(try rows.first.map { UserInfo(userID: try $0.get("user_id"), phone: try $0.get("phone")) })
        }
    }

    static let sessionGrant = SQL("SELECT user_id FROM oidc_grants WHERE sid = $1 AND client_id = $2 LIMIT 1")

    /// Whose a grant of `client` from the browser session `sid` is (revoked or not: the app
    /// may still hold its session).
    public static func userOfSession(sid: String, client: String) -> Step<Int64?> {
        .rows(Statement(sessionGrant, sid, client)) { rows in .done(try rows.first?.get("user_id")) }
    }

    /// Whose the tokens of a live grant are.
    public struct UserInfo: Sendable {
        public var userID: Int64
        public var phone: String
    }

    static let consentScopes = SQL("SELECT scope FROM oidc_consents WHERE user_id = $1 AND client_id = $2")
    static let consentScopesLocked = SQL(
        "SELECT scope FROM oidc_consents WHERE user_id = $1 AND client_id = $2 FOR UPDATE")

    public static func hasConsent(user: Int64, client: String, scopes wanted: [Scope]) -> Step<Bool> {
        .rows(Statement(consentScopes, user, client)) { rows in
            guard let granted: String = try rows.first?.get("scope") else { return .done(false) }
            let had = scopes(granted)
            return .done(wanted.allSatisfy(had.contains))
        }
    }

    static let upsertConsent = SQL(
        """
        INSERT INTO oidc_consents (user_id, client_id, scope, granted_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (user_id, client_id) DO UPDATE SET scope = excluded.scope, granted_at = excluded.granted_at
        """)

    /// Adds `more` to what the person already granted the client.
    public static func grantConsent(user: Int64, client: String, scopes more: [Scope], at now: Double) -> Step<Int> {
        .rows(Statement(consentScopesLocked, user, client)) { rows in
            let had = try rows.first.map { scopes(try $0.get("scope")) } ?? []
            let all = Scope.union(had, more).text
            // A first consent connects the app (a wider one later is the same connection).
            let connected = rows.isEmpty ? [EventQueries.insert(Event(.appConnected, at: now, user: user, app: client))] : []
            return .execute([Statement(upsertConsent, user, client, all, now)] + connected)
        }
    }

    static let deleteConsent = SQL("DELETE FROM oidc_consents WHERE user_id = $1 AND client_id = $2")
    /// Disconnected: every grant ends, and none links the app to a browser session any more
    /// (the app was told that every session of the person ended; it is told nothing after).
    static let revokeClientGrants = SQL(
        """
        UPDATE oidc_grants SET revoked_at = coalesce(revoked_at, $1), sid = NULL
        WHERE user_id = $2 AND client_id = $3
        """)

    public static func revokeConsent(user: Int64, client: String, at now: Double, recording operatorEvent: Event? = nil)
        -> Step<Int>
    {
        .execute(
            [
                Statement(deleteConsent, user, client), Statement(revokeClientGrants, now, user, client),
                EventQueries.insert(Event(.appDisconnected, at: now, user: user, app: client)),
            ] + (operatorEvent.map { [EventQueries.insert($0)] } ?? []))
    }

    /// The apps a person consented to, and the first-party ones holding a live refresh token.
    static let connected = SQL(
        """
        SELECT client_id, scope, granted_at FROM oidc_consents WHERE user_id = $1
        UNION ALL
        SELECT g.client_id, '', min(g.created_at) FROM oidc_grants g
        JOIN oidc_refresh_tokens r ON r.family = g.family
        WHERE g.user_id = $1 AND g.revoked_at IS NULL AND r.used_at IS NULL AND r.expires_at > $2
          AND g.client_id NOT IN (SELECT client_id FROM oidc_consents WHERE user_id = $1)
        GROUP BY g.client_id
        ORDER BY 3 DESC
        """)

    public static func connectedApps(user: Int64, at now: Double) -> Step<[Consent]> {
        .rows(Statement(connected, user, now)) { rows in
            .done(
                try rows.map { row in
                    Consent(
                        clientID: try row.get("client_id"), scopes: scopes(try row.get("scope")),
                        grantedAt: try row.get("granted_at"))
                })
        }
    }

    /// Codes a day past their minute, expired refresh tokens, and grants left with neither:
    /// after a day, or ``OIDCCore/GrantRetention/sessionGrantsKept`` for one that names a browser
    /// session (its end is still to be told to the app).
    public static func purge(before now: Double) -> Step<Int> {
        let kept = now - GrantRetention.usedCodesKept
        return .execute([
            Statement(SQL("DELETE FROM oidc_codes WHERE expires_at <= $1"), kept),
            Statement(SQL("DELETE FROM oidc_refresh_tokens WHERE expires_at <= $1"), now),
            Statement(
                SQL(
                    """
                    DELETE FROM oidc_grants WHERE created_at <= $1 AND (sid IS NULL OR created_at <= $2)
                        AND NOT EXISTS (SELECT 1 FROM oidc_refresh_tokens r WHERE r.family = oidc_grants.family)
                        AND NOT EXISTS (SELECT 1 FROM oidc_codes c WHERE c.family = oidc_grants.family)
                    """), kept, now - GrantRetention.sessionGrantsKept),
        ])
    }

    /// The apps a person signed in to or agreed to (their grants, revoked or not, and their
    /// consents), each once: told when the account is deleted.
    static let appsOfUser = SQL(
        """
        SELECT client_id FROM oidc_grants WHERE user_id = $1
        UNION SELECT client_id FROM oidc_consents WHERE user_id = $1
        ORDER BY client_id
        """)

    public static func apps(of user: Int64) -> Step<[String]> {
        .rows(Statement(appsOfUser, user)) { rows in .done(try rows.map { try $0.get("client_id") }) }
    }

    /// A stored space-separated scope list. A name this version does not know (one a newer
    /// version wrote, during a rolling deploy or after a rollback) is left out: a grant or a
    /// consent read with fewer scopes gives less, never more.
    static func scopes(_ stored: String) -> [Scope] {
        Scope.known(in: stored)
    }
}
