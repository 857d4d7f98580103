import AuthCore
import Foundation

/// The token endpoint's decisions (RFC 6749 §4.1.3 and §6, RFC 7636, RFC 9700), pure: from the
/// code or refresh token as stored (``StoredGrant``) and the request, what to answer and what
/// to change. ``OIDCProvider`` asks the store to run one inside the transaction that read it;
/// the tokens themselves are signed afterwards.
public enum TokenRules {
    /// What the endpoint answers.
    public enum Outcome: Sendable, Equatable {
        case issue(Issue)
        /// `invalid_grant`, with why; `replay` when a used code or rotated refresh token came
        /// back (its family is revoked, and the log says so).
        case refuse(TokenError, replay: Bool = false)
    }

    /// The tokens to sign.
    public struct Issue: Sendable, Equatable {
        public var family: Data
        public var userID: Int64
        public var phone: String
        /// The access and ID tokens' scopes.
        public var scopes: [Scope]
        public var authTime: Double
        public var method: SignInMethod
        public var nonce: String?
        /// The browser session's `sid`, for the ID token.
        public var sid: String?
        /// The new refresh token, when the grant has `offline_access` (its hash is saved).
        public var refreshToken: String?
    }

    /// The same refusal whatever was wrong with a code nobody may use: unknown, used or expired.
    static let unusableCode = TokenError(.invalidGrant, "The code is unknown, used or expired.")
    static let unusableRefresh = TokenError(.invalidGrant, "The refresh token is unknown, used, revoked or expired.")

    /// An authorization code presented by `client` with `redirectURI` and `verifier`.
    ///
    /// - Parameter newRefreshToken: a fresh random token, kept only if the grant asks for one.
    public static func redeem(
        code stored: StoredGrant<CodeGrant>?, hash: Data, client: String, redirectURI: String, verifier: String?,
        familyLifetime: TimeInterval = RefreshGrant.familyLifetime,
        newRefreshToken: String, now: Double
    ) -> OIDCDecision<Outcome> {
        guard let stored, stored.familyRevokedAt == nil else { return OIDCDecision(.refuse(unusableCode)) }
        let grant = stored.grant
        // RFC 6749 §4.1.2: a code used twice revokes what it issued.
        guard stored.usedAt == nil else {
            return OIDCDecision(
                .refuse(unusableCode, replay: true), changes: [.revoke(family: grant.family, at: now)])
        }
        let used = OIDCChange.markCodeUsed(hash: hash, at: now)
        guard grant.clientID.utf8.elementsEqual(client.utf8) else {
            return OIDCDecision(
                .refuse(TokenError(.invalidGrant, "The code was issued to another client.")),
                changes: [used, .revoke(family: grant.family, at: now)])
        }
        guard grant.redirectURI.utf8.elementsEqual(redirectURI.utf8) else {
            return OIDCDecision(
                .refuse(TokenError(.invalidGrant, "redirect_uri is not the one the code was issued for.")),
                changes: [used])
        }
        // Issued after now (before the clock was set back) counts as expired, not as an hour longer.
        guard grant.expiresAt > now, SignInRules.hasHappened(grant.expiresAt - CodeGrant.lifetime, by: now) else {
            return OIDCDecision(.refuse(TokenError(.invalidGrant, "The code expired.")), changes: [used])
        }
        if let refusal = pkceRefusal(challenge: grant.codeChallenge, verifier: verifier) {
            return OIDCDecision(.refuse(refusal), changes: [used])
        }
        return issue(
            family: grant.family, client: client, userID: grant.userID, phone: stored.phone, scopes: grant.scopes,
            refreshScopes: grant.scopes, authTime: grant.authTime, method: grant.method, nonce: grant.nonce,
            sid: stored.sid, newRefreshToken: newRefreshToken, familyEnds: stored.familyCreatedAt + familyLifetime,
            now: now,
            changes: [used])
    }

    /// RFC 7636 §4.6, and RFC 9700 §2.1.1: a verifier for a code issued without a challenge is
    /// a downgrade.
    static func pkceRefusal(challenge: String?, verifier: String?) -> TokenError? {
        switch (challenge, verifier) {
        case (nil, nil): nil
        case (let challenge?, let verifier?) where PKCE.verifies(verifier, challenge: challenge): nil
        case (nil, _?): TokenError(.invalidGrant, "code_verifier given, but the request had no code_challenge.")
        default: TokenError(.invalidGrant, "code_verifier does not match the code_challenge.")
        }
    }

    /// A refresh token presented by `client`, asking for `asked` scopes (nil: the grant's). Its
    /// family ends `familyLifetime` after the sign-in that began it, however often it is used.
    public static func refresh(
        _ stored: StoredGrant<RefreshGrant>?, hash: Data, client: String, asked: [Scope]?, newRefreshToken: String,
        now: Double, familyLifetime: TimeInterval = RefreshGrant.familyLifetime
    ) -> OIDCDecision<Outcome> {
        guard let stored, stored.familyRevokedAt == nil else { return OIDCDecision(.refuse(unusableRefresh)) }
        let grant = stored.grant
        // RFC 9700 §4.14.2: a rotated refresh token that comes back was stolen, or is a replay.
        guard stored.usedAt == nil else {
            return OIDCDecision(
                .refuse(unusableRefresh, replay: true), changes: [.revoke(family: grant.family, at: now)])
        }
        let used = OIDCChange.markRefreshUsed(hash: hash, at: now)
        guard grant.clientID.utf8.elementsEqual(client.utf8) else {
            return OIDCDecision(
                .refuse(TokenError(.invalidGrant, "The refresh token was issued to another client.")),
                changes: [used, .revoke(family: grant.family, at: now)])
        }
        guard grant.expiresAt > now else {
            return OIDCDecision(.refuse(TokenError(.invalidGrant, "The refresh token expired.")), changes: [used])
        }
        let familyEnds = stored.familyCreatedAt + familyLifetime
        guard familyEnds > now else {
            return OIDCDecision(
                .refuse(TokenError(.invalidGrant, "The sign-in behind this refresh token is too old: sign in again.")),
                changes: [used, .revoke(family: grant.family, at: now)])
        }
        // RFC 6749 §6: these tokens may have fewer scopes than the grant (never more: others
        // asked for are left out, as at the authorization); the new refresh token keeps the
        // grant's, so a narrower refresh loses nothing.
        let known = asked ?? []
        let scopes = known.isEmpty ? grant.scopes : grant.scopes.filter { $0 == .openid || known.contains($0) }
        return issue(
            family: grant.family, client: client, userID: grant.userID, phone: stored.phone, scopes: scopes,
            refreshScopes: grant.scopes, authTime: grant.authTime, method: grant.method, nonce: nil, sid: stored.sid,
            newRefreshToken: newRefreshToken, familyEnds: familyEnds, now: now, changes: [used])
    }

    private static func issue(
        family: Data, client: String, userID: Int64, phone: String, scopes: [Scope], refreshScopes: [Scope],
        authTime: Double, method: SignInMethod, nonce: String?, sid: String?, newRefreshToken: String,
        familyEnds: Double, now: Double, changes: [OIDCChange]
    ) -> OIDCDecision<Outcome> {
        var changes = changes
        var refresh: String?
        if refreshScopes.contains(.offlineAccess) {
            refresh = newRefreshToken
            changes.append(
                .saveRefresh(
                    hash: OIDCProvider.hash(newRefreshToken),
                    RefreshGrant(
                        family: family, clientID: client, userID: userID, scopes: refreshScopes, authTime: authTime,
                        method: method, expiresAt: min(now + RefreshGrant.lifetime, familyEnds))))
        }
        return OIDCDecision(
            .issue(
                Issue(
                    family: family, userID: userID, phone: phone, scopes: scopes, authTime: authTime, method: method,
                    nonce: nonce, sid: sid, refreshToken: refresh)), changes: changes)
    }
}
