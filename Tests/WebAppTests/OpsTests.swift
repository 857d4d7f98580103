import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// Health, readiness, metrics and request ids: what operators and load balancers see.
@Suite("Operations")
struct OpsTests {
    @Test("/healthz and /readyz answer without cookies; /readyz says when the database is gone")
    func health() async throws {
        try await withServer { server in
            let probe = Browser(baseURL: server.baseURL)
            for path in ["/healthz", "/readyz"] {
                let response = try await probe.get(path)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers["Set-Cookie"].isEmpty, "\(path)")
                #expect(response.header("Cache-Control") == "no-store")
            }
            #expect(try await probe.get("/healthz").body == "ok\n")
            try await server.app.storage.close()
            let notReady = try await probe.get("/readyz")
            #expect(notReady.status == .serviceUnavailable)
            #expect(try await probe.get("/healthz").status == .ok)
        }
    }

    @Test("the 404 and 405 of the health and metrics routes carry the security headers and are counted")
    func opsErrors() async throws {
        try await withServer { server in
            let probe = Browser(baseURL: server.baseURL)
            let unknown = try await probe.get("/healthz/x")
            let wrongMethod = try await probe.send(.POST, "/metrics")
            #expect(unknown.status == .notFound)
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.header("Allow") == "GET, HEAD")
            for response in [unknown, wrongMethod] {
                #expect(response.header("Content-Security-Policy") == (try await HTTPBehaviourTests.pagePolicy(server)))
                #expect(response.header("X-Content-Type-Options") == "nosniff")
                #expect(response.header("X-Frame-Options") == "DENY")
                #expect(response.headers["Set-Cookie"].isEmpty)
            }
            let text = try await probe.get("/metrics").body
            #expect(sample(text, "http_requests_total", ["route": "none", "status": "404"]) == 1)
            #expect(sample(text, "http_requests_total", ["route": "none", "status": "405"]) == 1)
        }
    }

    @Test("events_total counts what was written: a lockout once however many tries it refuses, a session ended by expiry in the purge")
    func eventsCountedOnce() async throws {
        try await withServer({ $0.policy.maxFailuresPerPhone = 2 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let code = try server.lastCode()
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            let wrongAgain = String(format: "%06d", (Int(code)! + 2) % 1_000_000)
            _ = try await browser.post("/verify", form: [("code", wrong)])
            _ = try await browser.post("/verify", form: [("code", wrongAgain)])
            for _ in 0..<3 {
                server.clock.advance(by: 5)
                _ = try await browser.post("/verify", form: [("code", code)])
            }
            var text = try await browser.get("/metrics").body
            #expect(sample(text, "events_total", ["type": "code.wrong"]) == 2)
            #expect(sample(text, "events_total", ["type": "phone.locked"]) == 1)

            let other = Browser(baseURL: server.baseURL)
            _ = try await other.post("/login", form: [("phone", "4155550100")])
            _ = try await other.post("/verify", form: [("code", try server.lastCode(to: "+14155550100"))])
            server.clock.advance(by: 40 * 86_400)
            _ = try await server.app.signIn.purgeExpired()
            text = try await browser.get("/metrics").body
            #expect(sample(text, "events_total", ["type": "session.ended"]) == 1)
        }
    }

    @Test("/metrics counts requests by route and status, times them, and counts sign-in events")
    func metrics() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            _ = try await browser.get("/login")
            _ = try await browser.get("/nowhere")
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let code = try server.lastCode()
            _ = try await browser.post(
                "/verify", form: [("code", String(format: "%06d", (Int(code)! + 1) % 1_000_000))])
            _ = try await browser.post("/verify/resend")
            _ = try await browser.post("/verify", form: [("code", code)])
            _ = try await browser.get("/accounts/7")

            let text = try await browser.get("/metrics").body
            #expect(sample(text, "http_requests_total", ["route": "/login", "status": "200"]) == 2)
            #expect(sample(text, "http_requests_total", ["route": "/login", "status": "303"]) == 1)
            #expect(sample(text, "http_requests_total", ["route": "none", "status": "404"]) == 1)
            #expect(sample(text, "http_requests_total", ["route": "/verify", "status": "422"]) == 1)
            #expect(sample(text, "http_request_duration_seconds_count", ["route": "/login"]) == 3)
            #expect(sample(text, "sign_in_codes_sent_total") == 1)
            #expect(sample(text, "sign_in_verifications_total", ["outcome": "incorrect"]) == 1)
            #expect(sample(text, "sign_in_verifications_total", ["outcome": "signed_in"]) == 1)
            #expect(sample(text, "sign_in_limit_hits_total", ["limit": "resend_cooldown"]) == 1)
            // Events by type, once committed.
            #expect(sample(text, "events_total", ["type": "code.sent"]) == 1)
            #expect(sample(text, "events_total", ["type": "code.wrong"]) == 1)
            #expect(sample(text, "events_total", ["type": "session.created"]) == 1)
            // Raw paths never become labels: /accounts/7 is counted under its pattern.
            #expect(!text.contains("/accounts/7"))
            #expect(sample(text, "http_requests_total", ["route": "/accounts/:id", "status": "404"]) == 1)
        }
    }

    @Test("a request id is echoed: the client's when valid, ours otherwise")
    func requestID() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let kept = try await browser.get("/login", headers: ["X-Request-Id": "lb-7f3a.42_x"])
            #expect(kept.header("X-Request-Id") == "lb-7f3a.42_x")
            let replaced = try await browser.get("/login", headers: ["X-Request-Id": "has spaces; and more"])
            let ours = try #require(replaced.header("X-Request-Id"))
            #expect(ours != "has spaces; and more")
            #expect(ours.wholeMatch(of: /[0-9a-f]{1,4}-\d+\.\d+/) != nil)
        }
    }

    @Test("health, readiness and metrics answer only on their exact paths")
    func exactOpsPaths() async throws {
        try await withServer { server in
            let probe = Browser(baseURL: server.baseURL)
            for path in ["/metrics", "/healthz", "/readyz"] {
                let exact = try await probe.get(path).status
                #expect(exact == .ok, "\(path)")
                for variant in [path + "/", "/" + path, path + "//", path.uppercased(), path + "/x"] {
                    let status = try await probe.get(variant).status
                    #expect(status == .notFound, "\(variant)")
                }
            }
        }
    }

    @Test("with --ops-port, health, readiness and metrics are served there and not on the main port")
    func opsPort() async throws {
        try await withServer({ $0.opsPort = 0 }) { server in
            let opsPort = try #require(await server.app.opsListeningAddress()?.port)
            #expect(opsPort != server.port)
            let main = Browser(baseURL: server.baseURL)
            let ops = Browser(baseURL: "http://127.0.0.1:\(opsPort)")
            for path in ["/metrics", "/healthz", "/readyz"] {
                let onMain = try await main.get(path).status
                let onOps = try await ops.get(path).status
                #expect(onMain == .notFound, "\(path)")
                #expect(onOps == .ok, "\(path)")
            }
            #expect(try await main.get("/login").status == .ok)
            #expect(try await ops.get("/login").status == .notFound)
            #expect(sample(try await ops.get("/metrics").body, "http_requests_total", ["route": "/login"]) == 1)
        }
    }
}
