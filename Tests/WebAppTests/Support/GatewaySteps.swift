import Foundation
import GatewayCore
import NIOHTTP1
import Testing

@testable import WebApp

/// The steps of the gateway mode suites: a server in gateway mode for `example.test` with its
/// rules, the headers a proxy sends with its check, and a sign-in by text.
protocol GatewaySteps {}

extension GatewaySteps {
    /// The gateway domain.
    static var domain: GatewayDomain { try! GatewayDomain("example.test") }
    /// admin.example.test lets one number in; photos.example.test every +1 530 number.
    static var rules: GatewayRules {
        try! GatewayRules(
            json: Data(#"{"hosts": {"admin.example.test": ["+14155550100"], "photos.example.test": ["+1530"]}}"#.utf8),
            domain: domain)
    }

    /// A server in gateway mode for `example.test`, its public address login.example.test.
    func withGateway(https: Bool = false, _ body: (TestServer) async throws -> Void) async throws {
        try await withServer(
            { configuration in
                configuration.https = https
                configuration.gateway = try! Gateway(
                    publicURL: "\(https ? "https" : "http")://login.example.test", domain: Self.domain,
                    rules: Self.rules, https: https)
            }, body)
    }

    /// What the proxy sends with its check for a request to `host` at `uri`.
    static func forwarded(_ host: String, _ uri: String = "/", proto: String = "http") -> HTTPHeaders {
        ["X-Forwarded-Proto": proto, "X-Forwarded-Host": host, "X-Forwarded-Uri": uri]
    }

    /// Login (with `rd` when given), the phone, the code; the response to the code.
    func signIn(
        _ server: TestServer, _ browser: Browser, rd: String?, phone: String = "5305550123", remember: Bool = false
    ) async throws -> TestResponse {
        _ = try await browser.get("/login" + (rd.map { "?rd=" + Browser.encode($0) } ?? ""))
        #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
        return try await browser.post(
            "/verify", form: [("code", try server.lastCode(to: "+1" + phone))] + (remember ? [("remember", "on")] : []))
    }
}
