import Foundation
import Testing

@testable import OIDCCore

/// Where an authorization request leads (``AuthorizationRules``), without a database: signed
/// out, a sign-in too old for `prompt=login`, `max_age` or `acr_values` unless it was made for
/// this request, a clock set back, consent asked of a third-party app only, and `prompt=none`
/// refusing wherever a page would be needed.
@Suite("OpenID Connect authorization decisions")
struct AuthorizationRulesTests {
    let registry = ClientRegistry([
        OIDCClient(id: "app", name: "App", redirectURIs: ["https://app.example.com/cb"], secretSHA256: Data([1])),
        OIDCClient(
            id: "ours", name: "Ours", redirectURIs: ["https://ours.example.com/cb"], secretSHA256: Data([2]),
            firstParty: true),
    ])
    static let now = 1_800_000_000.0
    /// Signed in 20 minutes ago.
    let person = OIDCProvider.Person(userID: 7, authTime: now - 1200, method: .code)

    func request(_ client: String = "app", _ extra: [(String, String)] = []) throws -> AuthorizationRequest {
        let redirect = client == "app" ? "https://app.example.com/cb" : "https://ours.example.com/cb"
        return try AuthorizationRequest.parse(
            [("client_id", client), ("redirect_uri", redirect), ("response_type", "code"), ("scope", "openid phone")]
                + extra, registry: registry)
    }

    func decide(
        _ request: AuthorizationRequest, signedIn: Bool = true, authTime: Double? = nil, pendingSince: Double? = nil,
        consented: Bool? = true, askConsent: Bool = true
    ) -> AuthorizationRules.Decision {
        let person = signedIn ? OIDCProvider.Person(userID: 7, authTime: authTime ?? self.person.authTime, method: .code) : nil
        return AuthorizationRules.decide(
            request, person: person, pendingSince: pendingSince, consented: consented, askConsent: askConsent,
            freshProofWithin: 600, now: Self.now)
    }

    @Test("signed out: Login, or login_required for prompt=none")
    func signedOut() throws {
        #expect(decide(try request(), signedIn: false) == .signIn(again: false))
        #expect(
            decide(try request("app", [("prompt", "none")]), signedIn: false)
                == .refuse(.loginRequired, "The person is not signed in."))
    }

    @Test("prompt=login, max_age and acr_values ask for a sign-in again, unless it was made for this request")
    func freshness() throws {
        for extra in [[("prompt", "login")], [("max_age", "600")], [("acr_values", "phr")]] {
            let asking = try request("app", extra)
            #expect(decide(asking) == .signIn(again: true), "\(extra)")
            // The request first came 30 minutes ago: the sign-in 20 minutes ago was made for it.
            #expect(decide(asking, pendingSince: Self.now - 1800) == .issueCode, "\(extra)")
            // It came 10 minutes ago, after the sign-in: that sign-in was not made for it.
            #expect(decide(asking, pendingSince: Self.now - 600) == .signIn(again: true), "\(extra)")
        }
        // Young enough for max_age and acr_values, with no pending request.
        #expect(decide(try request("app", [("max_age", "3600")])) == .issueCode)
        #expect(decide(try request("app", [("acr_values", "phr")]), authTime: Self.now - 60) == .issueCode)
        #expect(
            decide(try request("app", [("max_age", "600"), ("prompt", "none")]))
                == .refuse(.loginRequired, "The sign-in is older than max_age."))
    }

    @Test("a sign-in dated after now (the clock was set back) is no fresh sign-in for max_age")
    func clockSetBack() throws {
        #expect(decide(try request("app", [("max_age", "600")]), authTime: Self.now + 3600) == .signIn(again: true))
    }

    @Test("consent: asked of a third-party app not agreed to or with prompt=consent, never of a first-party one")
    func consent() throws {
        #expect(decide(try request(), consented: false) == .consent)
        #expect(decide(try request(), consented: true) == .issueCode)
        #expect(decide(try request("app", [("prompt", "consent")]), consented: true) == .consent)
        // prompt=login consent: a fresh sign-in first, then the consent page even when agreed.
        let both = try request("app", [("prompt", "login consent")])
        #expect(decide(both, consented: true) == .signIn(again: true))
        #expect(decide(both, pendingSince: Self.now - 1800, consented: true) == .consent)
        #expect(
            decide(try request("app", [("prompt", "none")]), consented: false)
                == .refuse(.consentRequired, "The person has not agreed yet."))
        #expect(decide(try request("ours"), consented: false) == .issueCode)
        #expect(decide(try request("ours", [("prompt", "consent")]), consented: false) == .issueCode)
        // The consent is read only when the answer turns on it.
        #expect(decide(try request(), consented: nil) == .readConsent)
        #expect(decide(try request("app", [("prompt", "none")]), consented: nil) == .readConsent)
        #expect(decide(try request("ours"), consented: nil) == .issueCode)
        #expect(decide(try request("app", [("prompt", "consent")]), consented: nil) == .consent)
        #expect(decide(try request(), signedIn: false, consented: nil) == .signIn(again: false))
        #expect(decide(try request("app", [("max_age", "600")]), consented: nil) == .signIn(again: true))
        #expect(decide(try request(), consented: nil, askConsent: false) == .consent)
        // The consent page asks: its sign-in checks still hold, then it is the page's to judge.
        #expect(decide(try request(), askConsent: false) == .consent)
        #expect(decide(try request("app", [("prompt", "login")]), askConsent: false) == .signIn(again: true))
        // ... and prompt=none with a sign-in too old is refused there too, never allowed.
        #expect(
            decide(try request("app", [("prompt", "none"), ("max_age", "600")]), askConsent: false)
                == .refuse(.loginRequired, "The sign-in is older than max_age."))
    }
}
