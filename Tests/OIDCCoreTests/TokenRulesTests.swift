import Crypto
import Encodings
import Foundation
import Testing

@testable import AuthCore
@testable import OIDCCore

/// The token endpoint's decisions without a database: what each stored code or refresh token
/// leads to, and exactly what it changes.
@Suite("Token rules")
struct TokenRulesTests {
    let now = 1_800_000_000.0
    let hash = Data(repeating: 7, count: 32)
    let family = Data(repeating: 1, count: 16)

    func code(challenge: String? = nil, scopes: [Scope] = [.openid, .phone], expiresIn: Double = 60)
        -> CodeGrant
    {
        CodeGrant(
            family: family, clientID: "app", userID: 42, redirectURI: "https://app.example/cb",
            codeChallenge: challenge, nonce: "n", scopes: scopes, authTime: now - 5, method: .passkey,
            expiresAt: now + expiresIn)
    }

    func stored(_ grant: CodeGrant, used: Bool = false, revoked: Bool = false) -> StoredGrant<CodeGrant> {
        StoredGrant(grant: grant, phone: "+15305550123", usedAt: used ? now - 1 : nil, familyRevokedAt: revoked ? now - 1 : nil,
            familyCreatedAt: now - 60)
    }

    func redeem(
        _ stored: StoredGrant<CodeGrant>?, client: String = "app", redirect: String = "https://app.example/cb",
        verifier: String? = nil
    ) -> OIDCDecision<TokenRules.Outcome> {
        TokenRules.redeem(
            code: stored, hash: hash, client: client, redirectURI: redirect, verifier: verifier,
            newRefreshToken: "new-refresh", now: now)
    }

    @Test("a fresh code issues tokens and is marked used; offline_access adds a refresh token saved by its hash")
    func fresh() throws {
        let plain = redeem(stored(code()))
        #expect(plain.changes == [.markCodeUsed(hash: hash, at: now)])
        guard case .issue(let issue) = plain.outcome else { Issue.record("refused"); return }
        #expect(issue.userID == 42 && issue.phone == "+15305550123" && issue.refreshToken == nil)
        #expect(issue.method == .passkey && issue.nonce == "n")

        let offline = redeem(stored(code(scopes: [.openid, .offlineAccess])))
        guard case .issue(let withRefresh) = offline.outcome else { Issue.record("refused"); return }
        #expect(withRefresh.refreshToken == "new-refresh")
        #expect(offline.changes.count == 2)
        guard case .saveRefresh(let saved, let grant) = offline.changes[1] else { Issue.record("no refresh"); return }
        #expect(saved == OIDCProvider.hash("new-refresh"))
        #expect(grant.family == family && grant.expiresAt == now + RefreshGrant.lifetime)
    }

    @Test("unknown or revoked: refused, nothing changed; used before: refused and its family revoked")
    func unusable() {
        #expect(redeem(nil).changes.isEmpty)
        #expect(redeem(stored(code(), revoked: true)).changes.isEmpty)
        let replay = redeem(stored(code(), used: true))
        #expect(replay.outcome == .refuse(TokenRules.unusableCode, replay: true))
        #expect(replay.changes == [.revoke(family: family, at: now)])
    }

    @Test("another client's code revokes its family; a bent redirect, an expired code, a PKCE failure only use it up")
    func refusals() {
        let used = OIDCChange.markCodeUsed(hash: hash, at: now)
        #expect(redeem(stored(code()), client: "other").changes == [used, .revoke(family: family, at: now)])
        // Compared as bytes: a canonically equal but different client id is another client.
        #expect(redeem(stored(code()), client: "app\u{301}").changes.count == 2)
        #expect(redeem(stored(code()), redirect: "https://app.example/cb/").changes == [used])
        #expect(redeem(stored(code(expiresIn: 0))).changes == [used])
        let challenge = Data(SHA256.hash(data: Data("verifier-of-enough-length-0123456789-abcdefghij".utf8)))
            .base64URLEncodedString()
        for verifier in [nil, "wrong-verifier-of-enough-length-0123456789-abcdef"] as [String?] {
            let decision = redeem(stored(code(challenge: challenge)), verifier: verifier)
            #expect(decision.changes == [used])
            guard case .refuse = decision.outcome else { Issue.record("issued"); return }
        }
        // A verifier for a code issued without a challenge is a downgrade.
        guard case .refuse = redeem(stored(code()), verifier: "verifier-of-enough-length-0123456789-abcdefghij").outcome
        else { Issue.record("issued"); return }
        guard case .issue = redeem(stored(code(challenge: challenge)), verifier: "verifier-of-enough-length-0123456789-abcdefghij").outcome
        else { Issue.record("refused"); return }
    }

    @Test("a refresh narrows the tokens' scopes, never the new refresh token's; a reused one revokes its family")
    func refresh() {
        let grant = RefreshGrant(
            family: family, clientID: "app", userID: 42, scopes: [.openid, .phone, .offlineAccess],
            authTime: now - 100, method: .code, expiresAt: now + 60)
        let fresh = StoredGrant(
            grant: grant, phone: "+15305550123", usedAt: nil, familyRevokedAt: nil, familyCreatedAt: now - 60)
        let narrowed = TokenRules.refresh(fresh, hash: hash, client: "app", asked: [.openid], newRefreshToken: "r2", now: now)
        guard case .issue(let issue) = narrowed.outcome else { Issue.record("refused"); return }
        #expect(issue.scopes == [.openid])
        guard case .saveRefresh(_, let saved) = narrowed.changes.last else { Issue.record("no refresh"); return }
        #expect(saved.scopes == grant.scopes)
        #expect(narrowed.changes.first == .markRefreshUsed(hash: hash, at: now))

        var reused = fresh
        reused.usedAt = now - 1
        let replay = TokenRules.refresh(reused, hash: hash, client: "app", asked: nil, newRefreshToken: "r3", now: now)
        #expect(replay.changes == [.revoke(family: family, at: now)])
    }

    @Test("a refresh-token family ends at its fixed lifetime however often it is used; the last token it gives never outlives it")
    func familyLifetime() {
        let grant = RefreshGrant(
            family: family, clientID: "app", userID: 42, scopes: [.openid, .offlineAccess], authTime: now - 100,
            method: .code, expiresAt: now + 60)
        let lifetime: TimeInterval = 90 * 86_400
        // Used every day: the token is fresh, but the family began 90 days ago.
        let old = StoredGrant(
            grant: grant, phone: "+15305550123", usedAt: nil, familyRevokedAt: nil, familyCreatedAt: now - lifetime)
        let refused = TokenRules.refresh(
            old, hash: hash, client: "app", asked: nil, newRefreshToken: "r2", now: now, familyLifetime: lifetime)
        guard case .refuse(let error, _) = refused.outcome else { Issue.record("issued"); return }
        #expect(error.code == .invalidGrant)
        #expect(refused.changes == [.markRefreshUsed(hash: hash, at: now), .revoke(family: family, at: now)])
        // A day before the end: issued, and the new refresh token expires with the family.
        var young = old
        young.familyCreatedAt = now - lifetime + 86_400
        let issued = TokenRules.refresh(
            young, hash: hash, client: "app", asked: nil, newRefreshToken: "r2", now: now, familyLifetime: lifetime)
        guard case .saveRefresh(_, let saved) = issued.changes.last else { Issue.record("no refresh"); return }
        #expect(saved.expiresAt == now + 86_400)
    }
}
