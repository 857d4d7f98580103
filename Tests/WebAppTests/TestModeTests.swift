import AuthCore
import Foundation
import HTTPLite
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import SMSProviders
import Testing

@testable import WebApp

/// SMS test mode (every code is 123456) only where it is safe: never with a proxy in front,
/// only for this machine, and saying so on every page.
@Suite("SMS test mode")
struct TestModeTests {
    @Test("test mode refuses to start with --trust-proxy or --https, also when configured in code")
    func refusedBehindProxy() async throws {
        for configure: (inout AppConfiguration) -> Void in [{ $0.server.trustProxy = true }, { $0.https = true }] {
            await #expect(throws: SMSConfigurationError.self) {
                try await withServer({
                    $0.sms = .test
                    configure(&$0)
                }) { _ in }
            }
        }
    }

    @Test(
        "a request that came through a proxy gets 403 on pages, the API and static files; a direct one is served",
        arguments: ["Forwarded", "X-Forwarded-For", "X-Real-IP"])
    func proxiedRefused(_ header: String) async throws {
        try await withServer({ $0.sms = .test }) { server in
            let browser = Browser(baseURL: server.baseURL)
            for path in ["/login", "/api/v1/openapi.json", "/public/app.css", "/healthz"] {
                let refused = try await browser.get(path, headers: [header: "for=203.0.113.7"])
                #expect(refused.status == .forbidden, "\(path)")
                #expect(refused.body.contains("answers only this machine"), "\(path)")
                #expect(refused.header("X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(refused.setCookie("csrf") == nil, "\(path)")
                #expect(try await browser.get(path).status == .ok, "\(path)")
            }
            let api = try await browser.send(
                .POST, "/api/v1/verifications", headers: [header: "203.0.113.7", "Content-Type": "application/json"],
                body: Data(#"{"phone_number": "5305550123"}"#.utf8))
            #expect(api.status == .forbidden)
            // Nothing was decided or stored for the refused call.
            let counts = try await server.tableCounts(["verifications", "code_sends", "sessions"])
            #expect(counts == ["verifications": 0, "code_sends": 0, "sessions": 0])
        }
    }

    @Test("only a loopback peer is local: another address, or an unknown one, is refused")
    func loopbackPeers() async throws {
        func request(_ peer: String?, _ headers: HTTPFields = [:]) throws -> Request {
            Request(
                method: .get, uri: "/login", headers: headers,
                remoteAddress: try peer.map { try SocketAddress(ipAddress: $0, port: 50_000) })
        }
        for peer in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] {
            #expect(TestModeGuard.isLocal(try request(peer)), "\(peer)")
        }
        for peer in ["192.0.2.1", "10.0.0.1", "::ffff:192.0.2.1", "2001:db8::1", "fe80::1", nil] {
            #expect(!TestModeGuard.isLocal(try request(peer)), "\(peer ?? "unknown")")
        }
        #expect(!TestModeGuard.isLocal(try request("127.0.0.1", [.xRealIP: "127.0.0.1"])))

        // The middleware itself: a remote peer never reaches what it guards.
        let context = AppContext(
            source: RequestContextSource(
                logger: Logger(label: "test"), remoteAddress: try SocketAddress(ipAddress: "192.0.2.1", port: 1)))
        await #expect(throws: StatusError.self) {
            try await TestModeGuard().handle(try request("192.0.2.1"), context: context) { _, _ in
                Issue.record("a remote request reached the app")
                return Response(status: .ok)
            }
        }
    }

    @Test("every page says 'Test mode: every code is 123456' at the top; outside test mode none does")
    func banner() async throws {
        let banner = #"<p class="test-mode" role="status" id="test-mode">Test mode: every code is 123456</p>"#
        try await withServer({ $0.sms = .test }) { server in
            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/login").body.contains(banner))
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
            #expect(try await browser.get("/verify").body.contains(banner))
            #expect(try await browser.post("/verify", form: [("code", "123456")]).location == "/home")
            #expect(try await browser.get("/home").body.contains(banner))
            let missing = try await browser.get("/no-such-page")
            #expect(missing.status == .notFound)
            #expect(missing.body.contains(banner))
        }
        try await withServer { server in
            let login = try await Browser(baseURL: server.baseURL).get("/login")
            #expect(!login.body.contains("Test mode"))
        }
    }
}
