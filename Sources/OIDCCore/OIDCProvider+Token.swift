import AuthCore
import Crypto
import Encodings
import EventsCore
import Foundation
import Logging

/// The token endpoint (RFC 6749 §4.1.3 and §6).
extension OIDCProvider {
    /// Exchanges a code or a refresh token: ``TokenRules`` decide on what the store read, in the
    /// transaction that read it; the tokens are signed after it commits.
    public func token(_ request: TokenRequest) async throws -> TokenResponse {
        let now = clock().timeIntervalSince1970
        let client = request.client.id
        let newRefreshToken = Self.randomToken()
        let familyLifetime = refreshFamilyLifetime
        let outcome: TokenRules.Outcome
        switch request.grant {
        case .authorizationCode(let code, let redirectURI, let verifier):
            let hash = Self.hash(code)
            outcome = try await store.redeemCode(hash) { stored in
                TokenRules.redeem(
                    code: stored, hash: hash, client: client, redirectURI: redirectURI, verifier: verifier,
                    familyLifetime: familyLifetime, newRefreshToken: newRefreshToken, now: now)
            }
        case .refreshToken(let token, let asked):
            let hash = Self.hash(token)
            outcome = try await store.redeemRefresh(hash) { stored in
                TokenRules.refresh(
                    stored, hash: hash, client: client, asked: asked, newRefreshToken: newRefreshToken, now: now,
                    familyLifetime: familyLifetime)
            }
        }
        switch outcome {
        case .refuse(let error, let replay):
            if replay {
                logger.warning(
                    "OIDC code or refresh token presented again: its family is revoked", metadata: ["client": "\(client)"])
            }
            throw error
        case .issue(let issue):
            return try await tokens(issue, client: request.client, now: now)
        }
    }

    /// Signs the access and ID tokens ``TokenRules`` decided on.
    private func tokens(_ issue: TokenRules.Issue, client: OIDCClient, now: Double) async throws -> TokenResponse {
        let issued = Date(timeIntervalSince1970: now.rounded(.down))
        let expires = issued.addingTimeInterval(Self.tokenLifetime)
        let subject = self.subject(of: issue.userID)
        let idToken = IDToken(
            iss: issuer, sub: subject, aud: client.id, exp: expires, iat: issued, authTime: Int(issue.authTime),
            nonce: issue.nonce, amr: Self.amr(issue.method),
            phoneNumber: issue.scopes.contains(.phone) ? issue.phone : nil, sid: issue.sid)
        let access = AccessToken(
            iss: issuer, sub: subject, clientID: client.id, exp: expires, iat: issued,
            scope: issue.scopes.text, family: issue.family.hexString, jti: Self.randomToken())
        return TokenResponse(
            access_token: try await signer.sign(access, type: "at+jwt"), expires_in: Int(Self.tokenLifetime),
            id_token: client.idTokenRS256
                ? try await signer.signRS256(idToken, type: "JWT") : try await signer.sign(idToken, type: "JWT"),
            refresh_token: issue.refreshToken,
            scope: issue.scopes.text)
    }
}
