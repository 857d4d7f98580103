import Crypto
import Foundation
import OIDCCore
import Testing

@testable import WebApp

/// The consent page's form allows only what the authorization itself would show the page for:
/// its address and its hidden field are anyone's to write, so a request that asks for a sign-in
/// again, or that prompt=none refuses, goes back to /oidc/authorize instead of getting a code.
@Suite("OpenID Connect consent form")
struct ConsentPostTests {
    static let redirect = "https://notes.example.com/cb"

    static func on(_ configuration: inout AppConfiguration) {
        configuration.publicURL = "http://localhost:8080"
        configuration.oidcClients = ClientRegistry([
            OIDCClient(
                id: "notes", name: "Notes", redirectURIs: [redirect],
                secretSHA256: Data(SHA256.hash(data: Data("a-secret-of-enough-entropy-0123456789".utf8))))
        ])
    }

    @Test("allow on a request whose sign-in is too old (max_age, prompt=none or not) gives no code")
    func tooOldGivesNoCode() async throws {
        try await withServer(Self.on) { server in
            let person = Browser(baseURL: server.baseURL)
            _ = try await person.get("/login")
            _ = try await person.post("/login", form: [("phone", "4155550142")])
            #expect(
                try await person.post("/verify", form: [("code", try server.lastCode(to: "+14155550142"))]).location
                    == "/home")
            let base = "client_id=notes&redirect_uri=\(Self.redirect)&response_type=code&scope=openid&state=s"
            server.clock.advance(by: 120)
            for extra in ["&max_age=60&prompt=none", "&max_age=60"] {
                let query = base + extra
                let allowed = try await person.post("/oidc/consent", form: [("request", query), ("decision", "allow")])
                let location = try #require(allowed.location, "\(extra)")
                #expect(location == "/oidc/authorize?" + query, "\(extra)")
                #expect(!location.contains("code="), "\(extra)")
            }
            // A request the page is for is allowed, and the app gets its code.
            let allowed = try await person.post("/oidc/consent", form: [("request", base), ("decision", "allow")])
            #expect(allowed.location?.hasPrefix(Self.redirect + "?code=") == true)
        }
    }
}
