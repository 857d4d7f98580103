import Crypto
import Encodings
import Foundation
import Testing

@testable import OIDCCore

/// What the provider accepts before it does anything (issue 28): the clients file, each
/// authorization request and each token request, refused with the right answer and never a
/// redirect to an address the client did not register.
@Suite("OpenID Connect requests")
struct RequestTests {
    static let secret = "a-secret-of-enough-entropy-0123456789"
    static let secretHash = Data(SHA256.hash(data: Data(secret.utf8))).hexString
    let registry = ClientRegistry([
        OIDCClient(
            id: "app", name: "App", redirectURIs: ["https://app.example.com/cb"],
            secretSHA256: Data(SHA256.hash(data: Data(RequestTests.secret.utf8)))),
        OIDCClient(id: "public", name: "Public", redirectURIs: ["http://127.0.0.1:9000/cb"], secretSHA256: nil),
    ])

    @Test(
        "the clients file: each broken rule names the client and the field",
        arguments: [
            (
                #"{"clients": [{"name": "A", "redirect_uris": ["https://a/cb"], "public": true}]}"#,
                "client #1: client_id"
            ),
            (
                #"{"clients": [{"client_id": "a b", "name": "A", "redirect_uris": ["https://a/cb"], "public": true}]}"#,
                "client_id"
            ),
            (
                #"{"clients": [{"client_id": "a", "redirect_uris": ["https://a/cb"], "public": true}]}"#,
                #"client "a": name"#
            ),
            (#"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": [], "public": true}]}"#, "redirect_uris"),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["http://evil.example/cb"], "public": true}]}"#,
                "redirect_uris"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb#x"], "public": true}]}"#,
                "redirect_uris"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"]}]}"#,
                "client_secret_sha256 is missing"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"], "client_secret_sha256": "zz"}]}"#,
                "64 hex digits"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"], "public": true, "client_secret_sha256": "\#(secretHash)"}]}"#,
                "choose one"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"], "public": true}, {"client_id": "a", "name": "B", "redirect_uris": ["https://b/cb"], "public": true}]}"#,
                "listed twice"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"], "public": true, "post_logout_redirect_uris": ["javascript:alert(1)"]}]}"#,
                "post_logout_redirect_uris"
            ),
            (
                #"{"clients": [{"client_id": "a", "name": "A", "redirect_uris": ["https://a/cb"], "public": true, "backchannel_logout_uri": "http://evil.example/logout"}]}"#,
                "backchannel_logout_uri"
            ),
            (#"not json"#, "is not"),
        ])
    func clientsFile(_ json: String, _ expected: String) {
        do {
            _ = try ClientRegistry.load(Data(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test("a good clients file loads")
    func goodFile() throws {
        let registry = try ClientRegistry.load(
            Data(
                #"{"clients": [{"client_id": "grafana", "name": "Grafana", "redirect_uris": ["https://g.example.com/cb"], "client_secret_sha256": "\#(Self.secretHash)", "first_party": true, "backchannel_logout_uri": "https://g.example.com/logout?backchannel=1"}]}"#
                    .utf8))
        #expect(registry["grafana"]?.accepts(secret: Self.secret) == true)
        #expect(registry["grafana"]?.accepts(secret: Self.secret + "x") == false)
        #expect(registry["grafana"]?.firstParty == true)
        #expect(registry["grafana"]?.backchannelLogoutURI == "https://g.example.com/logout?backchannel=1")
    }

    func parse(_ pairs: [(String, String)]) throws(AuthorizationError) -> AuthorizationRequest {
        try AuthorizationRequest.parse(pairs, registry: registry)
    }

    let good: [(String, String)] = [
        ("client_id", "app"), ("redirect_uri", "https://app.example.com/cb"), ("response_type", "code"),
        ("scope", "openid phone email"), ("state", "st"),
    ]

    func replacing(_ name: String, with value: String?) -> [(String, String)] {
        good.filter { $0.0 != name } + (value.map { [(name, $0)] } ?? [])
    }

    @Test("an unknown client, or a redirect URI not registered exactly, is a page: never a redirect")
    func pageErrors() {
        #expect(throws: AuthorizationError.page(.unknownClient)) { try parse(replacing("client_id", with: "nobody")) }
        #expect(throws: AuthorizationError.page(.unknownClient)) { try parse(replacing("client_id", with: nil)) }
        for bent in [
            "https://app.example.com/cb/", "https://app.example.com/cb?x=1", "https://app.example.com/cb/../cb",
            "https://APP.example.com/cb", "https://evil.example/cb", "",
        ] {
            #expect(throws: AuthorizationError.page(.redirectURIMismatch), "\(bent)") {
                try parse(replacing("redirect_uri", with: bent))
            }
        }
        #expect(throws: AuthorizationError.page(.redirectURIMismatch)) {
            try parse(good + [("redirect_uri", "https://app.example.com/cb")])
        }
    }

    @Test("redirect URIs and client ids are compared byte for byte: a KELVIN SIGN is not a K")
    func byteForByte() {
        let kelvin = "\u{212A}"
        #expect("K" == kelvin)  // what Swift's == would have let through
        let registry = ClientRegistry([
            OIDCClient(
                id: "Kiosk", name: "Kiosk", redirectURIs: ["https://kiosk.example.com/OK"], secretSHA256: nil,
                postLogoutRedirectURIs: ["https://kiosk.example.com/K"])
        ])
        let pairs = [
            ("client_id", "Kiosk"), ("redirect_uri", "https://kiosk.example.com/O" + kelvin), ("response_type", "code"),
            ("scope", "openid"), ("code_challenge", String(repeating: "a", count: 43)), ("code_challenge_method", "S256"),
        ]
        #expect(throws: AuthorizationError.page(.redirectURIMismatch)) {
            try AuthorizationRequest.parse(pairs, registry: registry)
        }
        #expect(registry[kelvin + "iosk"] == nil)
        #expect(registry["Kiosk"]?.registers(postLogoutRedirectURI: "https://kiosk.example.com/" + kelvin) == false)
        #expect(registry["Kiosk"]?.registers(postLogoutRedirectURI: "https://kiosk.example.com/K") == true)
        #expect(registry["Kiosk"]?.registers(redirectURI: "https://kiosk.example.com/OK") == true)
    }

    @Test(
        "every other refusal goes back with its error and the state",
        arguments: [
            ("response_type", "token", AuthorizationError.Code.unsupportedResponseType),
            ("response_type", "code id_token", .unsupportedResponseType),
            ("scope", "phone", .invalidScope),
            ("code_challenge_method", "plain", .invalidRequest),
            ("max_age", "-1", .invalidRequest),
            ("prompt", "none login", .invalidRequest),
            ("request", "eyJ...", .requestNotSupported),
            ("request_uri", "https://x", .requestURINotSupported),
            ("response_mode", "fragment", .invalidRequest),
            ("nonce", String(repeating: "n", count: 513), .invalidRequest),
        ])
    func redirectErrors(_ name: String, _ value: String, _ code: AuthorizationError.Code) {
        var pairs = replacing(name, with: value)
        if name == "code_challenge_method" { pairs.append(("code_challenge", String(repeating: "a", count: 43))) }
        do {
            _ = try parse(pairs)
            Issue.record("accepted \(name)=\(value)")
        } catch .redirect(let refusal) {
            #expect(refusal.code == code)
            #expect(refusal.state == "st")
            let url = refusal.url(issuer: "https://login.example.com")
            #expect(url.hasPrefix("https://app.example.com/cb?error=\(code.rawValue)&"))
            #expect(url.hasSuffix("&state=st&iss=https%3A%2F%2Flogin.example.com"))
        } catch {
            Issue.record("a page for \(name)=\(value)")
        }
    }

    @Test("a public client must use PKCE S256; the scopes kept are the known ones")
    func publicClient() throws {
        let base: [(String, String)] = [
            ("client_id", "public"), ("redirect_uri", "http://127.0.0.1:9000/cb"), ("response_type", "code"),
            ("scope", "openid offline_access profile"),
        ]
        #expect(throws: AuthorizationError.self) { try parse(base) }
        #expect(throws: AuthorizationError.self) {
            try parse(base + [("code_challenge", "short"), ("code_challenge_method", "S256")])
        }
        let request = try parse(
            base + [("code_challenge", String(repeating: "A", count: 43)), ("code_challenge_method", "S256")])
        #expect(request.scopes == [.openid, .offlineAccess])
        #expect(request.prompt == .normal)
    }

    @Test("PKCE: S256 of the verifier, nothing else")
    func pkce() {
        let verifier = "dBjftJeZ4CVP-mJ0kzDyHw3jSOdx4rmE5ZHHTwMB0h0"
        #expect(PKCE.verifies(verifier, challenge: "kUF-_1zbc0A3hR97WmgxQj7DfeR5gEBxkKUCsdc3T5M"))
        #expect(!PKCE.verifies(verifier, challenge: verifier))  // plain
        #expect(!PKCE.verifies("short", challenge: "kUF-_1zbc0A3hR97WmgxQj7DfeR5gEBxkKUCsdc3T5M"))
        #expect(!PKCE.verifies(verifier + "x", challenge: "kUF-_1zbc0A3hR97WmgxQj7DfeR5gEBxkKUCsdc3T5M"))
    }

    @Test("token requests: one authentication method, the right secret, known grant types")
    func tokenRequests() throws {
        func parse(_ form: [(String, String)], basic: (String, String)? = nil) throws(TokenError) -> TokenRequest {
            let header = basic.map { "Basic " + Data("\($0.0):\($0.1)".utf8).base64EncodedString() }
            return try TokenRequest.parse(form, authorization: header, registry: registry)
        }
        let code: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", "c"), ("redirect_uri", "https://app.example.com/cb"),
        ]
        #expect(try parse(code, basic: ("app", Self.secret)).client.id == "app")
        #expect(try parse(code + [("client_id", "app"), ("client_secret", Self.secret)]).client.id == "app")
        #expect(throws: TokenError(.invalidClient, "Client authentication failed.", basic: true)) {
            try parse(code, basic: ("app", "wrong"))
        }
        #expect(throws: TokenError(.invalidRequest, "Authenticate by one method only.")) {
            try parse(code + [("client_secret", Self.secret)], basic: ("app", Self.secret))
        }
        #expect(throws: TokenError.self) { try parse(code + [("client_id", "app")]) }  // no secret
        #expect(throws: TokenError.self) { try parse(code + [("client_id", "public"), ("client_secret", "x")]) }
        #expect(throws: TokenError.self) { try parse(code + [("client_id", "nobody")]) }
        #expect(throws: TokenError(.unsupportedGrantType, "Only authorization_code and refresh_token are supported.")) {
            try parse([("grant_type", "password"), ("client_id", "public")])
        }
        #expect(throws: TokenError.self) { try parse(code + [("code", "again"), ("client_id", "public")]) }
        #expect(try parse(code + [("client_id", "public")]).client.isPublic)
    }
}
