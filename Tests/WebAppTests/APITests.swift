import Foundation
import NIOHTTP1
import SMSProviders
import Testing

@testable import WebApp

@Suite("JSON API")
struct APITests {
    @Test("send, check, me, logout: the original API's calls, then the bearer token")
    func happyPath() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let sent = try await api.send("(530) 555-0123")
            #expect(sent.status == 200)
            #expect(sent.json["phone_number"] as? String == "+15305550123")
            #expect(sent.json["expires_in"] as? Int == 600)
            #expect(sent.json["resend_after"] as? Int == 30)
            #expect(sent.response.header("Cache-Control") == "no-store")
            // The API sets no cookies: no session, no CSRF token.
            #expect(sent.response.headers["Set-Cookie"].isEmpty)

            let checked = try await api.check("530.555.0123", try server.lastCode())
            #expect(checked.status == 200)
            let token = try #require(checked.json["auth_token"] as? String)
            #expect(checked.json["token_type"] as? String == "Bearer")
            #expect(checked.json["expires_in"] as? Int == 7 * 24 * 3600)
            let user = try #require(checked.json["user"] as? [String: Any])
            #expect(user["phone_number"] as? String == "+15305550123")

            let me = try await api.call(.GET, "/me", token: token)
            #expect(me.status == 200)
            #expect(me.json["id"] as? Int == user["id"] as? Int)
            #expect(me.json["phone_number"] as? String == "+15305550123")

            #expect(try await api.call(.POST, "/logout", token: token).status == 204)
            let after = try await api.call(.GET, "/me", token: token)
            #expect(after.status == 401)
            #expect(after.errorCode == "unauthorized")
            #expect(after.response.header("WWW-Authenticate") == "Bearer")
        }
    }

    @Test("a code that is not six digits is 422 invalid_code and costs no try: the right code works after six of them")
    func malformedCode() async throws {
        try await withServer { server in
            let api = APIClient(server)
            _ = try await api.send("5305550123")
            for input in ["", "12345", "12345a", "one two", "1234567", "12-45"] {
                let reply = try await api.check("5305550123", input)
                #expect(reply.status == 422, "\(input)")
                #expect(reply.errorCode == "invalid_code", "\(input)")
                #expect(reply.errorMessage == "Enter the 6-digit code", "\(input)")
            }
            #expect(try await api.check("5305550123", try server.lastCode()).status == 200)
        }
    }

    @Test("the original API's errors: invalid_phone_number, incorrect_code, code_expired")
    func originalErrors() async throws {
        try await withServer { server in
            let api = APIClient(server)
            for input in ["", "(911) 555-0123", "12345", "+44 20 7946 0958", "phone"] {
                let reply = try await api.send(input)
                #expect(reply.status == 422)
                #expect(reply.errorCode == "invalid_phone_number")
                #expect(reply.errorMessage == "Your phone number is invalid")
            }
            #expect(try server.outbox().isEmpty)

            _ = try await api.send("5305550123")
            let code = try server.lastCode()
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            let incorrect = try await api.check("5305550123", wrong)
            #expect(incorrect.status == 422)
            #expect(incorrect.errorCode == "incorrect_code")
            #expect(incorrect.errorMessage == "Incorrect verification code")

            server.clock.advance(by: 601)
            let expired = try await api.check("5305550123", code)
            #expect(expired.status == 422)
            #expect(expired.errorCode == "code_expired")
            #expect(expired.errorMessage == "Your code expired")
            // Never sent at all reads the same.
            #expect(try await api.check("4155550199", "123456").errorCode == "code_expired")
            #expect(try await api.check("911", "123456").errorCode == "invalid_phone_number")
        }
    }

    @Test("five wrong codes: too_many_attempts; the right one no longer works")
    func tooManyAttempts() async throws {
        try await withServer { server in
            let api = APIClient(server)
            _ = try await api.send("5305550123")
            let code = try server.lastCode()
            for _ in 1...4 {
                #expect(try await api.check("5305550123", anyWrongCode(for: code)).errorCode == "incorrect_code")
            }
            #expect(try await api.check("5305550123", anyWrongCode(for: code)).errorCode == "too_many_attempts")
            let dead = try await api.check("5305550123", code)
            #expect(dead.status == 422)
            #expect(dead.errorCode == "too_many_attempts")
        }
    }

    @Test("limits: rate_limited with Retry-After; asking again in the cooldown sends nothing")
    func rateLimited() async throws {
        try await withServer { server in
            let api = APIClient(server)
            #expect(try await api.send("5305550123").status == 200)
            server.clock.advance(by: 10)
            let again = try await api.send("5305550123")
            #expect(again.status == 200)
            #expect(again.json["resend_after"] as? Int == 20)
            #expect(try server.outbox().count == 1)
            for _ in 2...5 {
                server.clock.advance(by: 31)
                #expect(try await api.send("5305550123").status == 200)
            }
            server.clock.advance(by: 31)
            let limited = try await api.send("5305550123")
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            let retryAfter = try #require(limited.response.header("Retry-After").flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 600)
            #expect(try server.outbox().count == 5)
        }
    }

    @Test(
        "malformed requests: bad_request, and nothing is sent",
        arguments: [
            ("{", "application/json", 400), ("[]", "application/json", 400), ("{}", "application/json", 400),
            (#"{"phone_number": 5305550123}"#, "application/json", 400),
            (#"{"phone_number": null}"#, "application/json", 400),
            (#"{"phone_number": "5305550123"}"#, "text/plain", 415),
            ("phone_number=5305550123", "application/x-www-form-urlencoded", 415),
        ])
    func badRequests(body: String, contentType: String, status: UInt) async throws {
        try await withServer { server in
            let api = APIClient(server)
            let reply = try await api.call(.POST, "/verifications", body: body, contentType: contentType)
            #expect(reply.status == status)
            #expect(reply.errorCode == "bad_request")
            #expect(reply.errorMessage?.isEmpty == false)
            #expect(try server.outbox().isEmpty)
            let check = try await api.call(
                .POST, "/verifications/check", body: #"{"phone_number": "5305550123", "verification_id": "x"}"#)
            #expect(check.status == 400)
            #expect(check.errorMessage == "The field code is missing.")
            let unbound = try await api.call(
                .POST, "/verifications/check", body: #"{"phone_number": "5305550123", "code": "123456"}"#)
            #expect(unbound.status == 400)
            #expect(unbound.errorMessage == "The field verification_id is missing.")
        }
    }

    @Test("unauthorized: no token, a malformed one, an unknown one, an expired one, a cookie")
    func unauthorized() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            #expect(try await api.call(.GET, "/me").status == 401)
            #expect(try await api.call(.GET, "/me", token: "not a token").status == 401)
            #expect(try await api.call(.GET, "/me", token: String(repeating: "A", count: 43)).status == 401)
            #expect(try await api.call(.POST, "/logout").status == 401)
            var headers = HTTPHeaders()
            headers.add(name: "Authorization", value: "Basic \(token)")
            #expect(try await api.browser.send(.GET, "/api/v1/me", headers: headers).status == .unauthorized)
            // A web session's cookie is no way into the API (it reads no cookies).
            let web = Browser(baseURL: server.baseURL)
            _ = try await web.post("/login", form: [("phone", "4155550199")])
            _ = try await web.post("/verify", form: [("code", try server.lastCode(to: "+14155550199"))])
            #expect(web.cookie("session") != nil)
            #expect(try await web.get("/api/v1/me").status == .unauthorized)
            #expect(try await api.call(.GET, "/me", token: token).status == 200)
            // Tokens expire like web sessions: 7 days without use.
            server.clock.advance(by: 7 * 24 * 3600 + 1)
            #expect(try await api.call(.GET, "/me", token: token).status == 401)
        }
    }

    @Test("unknown paths and methods under /api answer in JSON")
    func routing() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let missing = try await api.browser.send(.GET, "/api/v1/nope")
            #expect(missing.status == .notFound)
            #expect(missing.header("Content-Type") == "application/json")
            #expect(missing.body.contains(#""code":"not_found""#))
            let wrongMethod = try await api.call(.GET, "/verifications")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.errorCode == "method_not_allowed")
            #expect(wrongMethod.response.header("Allow") == "POST")
            // Security headers as on the pages.
            #expect(missing.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test("the OpenAPI document is served as it is in the repository")
    func openAPI() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let reply = try await api.call(.GET, "/openapi.json")
            #expect(reply.status == 200)
            let file = try String(
                contentsOf: packageRoot.appendingPathComponent("Public/openapi.json"), encoding: .utf8)
            #expect(reply.response.body == file)
            #expect(reply.json["openapi"] as? String == "3.0.3")
        }
    }

    @Test("test mode: every code is 123456, nothing is written to the outbox")
    func testMode() async throws {
        try await withServer({ $0.sms = .test }) { server in
            let api = APIClient(server)
            #expect(try await api.send("5305550123").status == 200)
            let checked = try await api.check("5305550123", "123456")
            #expect(checked.status == 200)
            #expect(checked.json["auth_token"] is String)
            #expect(try server.outbox().isEmpty)
        }
    }

    @Test("test mode refuses to start on an address other people can reach")
    func testModeLoopbackOnly() async throws {
        await #expect(throws: SMSConfigurationError.self) {
            try await withServer({
                $0.sms = .test
                $0.server.host = "0.0.0.0"
            }) { _ in }
        }
        #expect(Application.isLoopback("127.0.0.1"))
        #expect(Application.isLoopback("::1"))
        #expect(!Application.isLoopback("0.0.0.0"))
        #expect(!Application.isLoopback("127.0.0.1.evil.example"))
        #expect(!Application.isLoopback("192.168.1.2"))
    }

    @Test("a provider that cannot be reached: 503 sms_failed and the page's message; nothing counted")
    func deliveryFailure() async throws {
        // Port 1 on loopback: nothing listens, every connection is refused, at once: the deadline
        // is a bound only (a short one, run out on a loaded machine, would be a timeout, which
        // stays counted as a text that may have gone).
        let twilio = TwilioSender.Configuration(
            accountSID: "AC1", authToken: "t", sender: .number("+15005550006"), apiBase: "http://127.0.0.1:1",
            timeout: .seconds(120))
        try await withServer({ $0.sms = .twilio(twilio) }) { server in
            let api = APIClient(server)
            let reply = try await api.send("5305550123")
            #expect(reply.status == 503)
            #expect(reply.errorCode == "sms_failed")
            #expect(reply.errorMessage == "We couldn't send the text message. Please try again.")
            let page = try await Browser(baseURL: server.baseURL).post("/login", form: [("phone", "5305550123")])
            #expect(page.status == .serviceUnavailable)
            #expect(
                page.body.contains("We couldn&#39;t send the text message. Please try again.")
                    || page.body.contains("We couldn't send the text message. Please try again."))
            let counts = try await server.tableCounts(["verifications", "code_sends", "sessions"])
            #expect(counts == ["verifications": 0, "code_sends": 0, "sessions": 0])
        }
    }
}
