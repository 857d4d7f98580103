import Foundation
import Testing

@testable import AuthCore
@testable import OIDCCore

/// The OpenID Connect provider's consent on every backend (issue 28): kept per person and
/// client, and the apps a person has connected, each of which can be disconnected.
@Suite("OpenID Connect provider: consent and connected apps")
struct OIDCConsentTests: OIDCProviderFixture {
    @Test(
        "consent: asked once per person and client, then remembered; revoking it revokes the tokens",
        arguments: Backend.all)
    func consent(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let person = OIDCProvider.Person(
                userID: try await signedIn(provider, database).0.userID, authTime: 1, method: .code)
            let request = try authorize("grafana", scope: "openid phone", pkce: false)
            #expect(try await provider.next(for: request, person: person, pendingSince: nil) == .consent)
            let url = try await provider.approve(request, person: person)
            #expect(url.hasPrefix("https://grafana.example.com/login/generic_oauth?code="))
            guard case .redirect = try await provider.next(for: request, person: person, pendingSince: nil) else {
                Issue.record("consent was not remembered")
                return
            }
            #expect(try await provider.consents(of: person.userID).map(\.clientID) == ["grafana"])
            let tokens = try await provider.token(
                try tokenRequest("grafana", try code(from: url), verifier: nil, secret: "s3cret-s3cret-s3cret"))
            try await database.oidc.revokeConsent(user: person.userID, client: "grafana", at: 2)
            #expect(try await provider.userinfo(accessToken: tokens.access_token) == nil)
            #expect(try await provider.next(for: request, person: person, pendingSince: nil) == .consent)
            #expect(provider.deny(request).contains("error=access_denied"))
        }
    }

    @Test("a first-party app holding a refresh token is listed, and disconnecting it ends it", arguments: Backend.all)
    func firstPartyListed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let (person, url) = try await signedIn(provider, database)
            let tokens = try await provider.token(try tokenRequest("mobile", try code(from: url)))
            #expect(try await provider.consents(of: person.userID).map(\.clientID) == ["mobile"])
            try await provider.disconnect(user: person.userID, client: "mobile")
            #expect(try await provider.consents(of: person.userID).isEmpty)
            #expect(try await provider.userinfo(accessToken: tokens.access_token) == nil)
        }
    }
}
