import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// What SMS pumping and code burning meet over HTTP: the spend budget, the exchange limit,
/// clients grouped by IPv6 /64, and codes only their asker can try.
@Suite("SMS spend and bound codes")
struct SpendLimitTests {
    @Test("past the spend budget the page and the API say so with 503 and Retry-After, and /metrics shows it")
    func budget() async throws {
        try await withServer({ $0.policy.maxTextsPerHour = 2 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            for phone in ["5305550101", "4155550102"] {
                browser.clearCookies()
                #expect(try await browser.post("/login", form: [("phone", phone)]).location == "/verify")
            }
            browser.clearCookies()
            let refused = try await browser.post("/login", form: [("phone", "2125550103")])
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.header("Retry-After") == "3600")
            #expect(refused.body.contains("We can&#39;t send text messages right now. Please try again later."))
            #expect(refused.body.contains(#"value="2125550103""#))

            let api = try await APIClient(server).send("+12125550104")
            #expect(api.status == 503)
            #expect(api.errorCode == "sms_unavailable")
            #expect(api.response.header("Retry-After") == "3600")
            #expect(try server.outbox().count == 2)

            let metrics = try await browser.get("/metrics").body
            #expect(sample(metrics, "sms_budget_remaining", ["window": "hour"]) == 0)
            #expect(sample(metrics, "sms_budget_remaining", ["window": "day"]) == 1998)
            #expect(sample(metrics, "sign_in_limit_hits_total", ["limit": "budget"]) == 2)
            // An hour later texts go out again.
            server.clock.advance(by: 3601)
            browser.clearCookies()
            #expect(try await browser.post("/login", form: [("phone", "2125550103")]).location == "/verify")
        }
    }

    @Test("rotating addresses inside one IPv6 /64 behind the proxy are one client; another /64 is another")
    func ipv6Rotation() async throws {
        try await withServer({
            $0.server.trustProxy = true
            $0.policy.maxCodesPerClient = 3
        }) { server in
            let browser = Browser(baseURL: server.baseURL)
            var statuses: [UInt] = []
            for index in 1...6 {
                browser.clearCookies()
                let response = try await browser.post(
                    "/login", form: [("phone", "530555\(String(format: "%04d", 200 + index))")],
                    headers: ["X-Forwarded-For": "2001:db8:7:9:\(String(index, radix: 16)):abcd::\(index)"])
                statuses.append(response.status.code)
            }
            #expect(statuses == [303, 303, 303, 429, 429, 429])
            browser.clearCookies()
            let other = try await browser.post(
                "/login", form: [("phone", "5305550300")], headers: ["X-Forwarded-For": "2001:db8:7:a::1"])
            #expect(other.location == "/verify")
        }
    }

    @Test("someone who knows the number but not the verification id cannot burn the code over the API")
    func codeBurning() async throws {
        try await withServer { server in
            let owner = APIClient(server)
            let sent = try await owner.send("5305550123")
            #expect(sent.json["sent"] as? Bool == true)
            let id = try #require(sent.json["verification_id"] as? String)
            #expect(id.count == 43)

            let attacker = APIClient(server)
            let again = try await attacker.send("5305550123")
            #expect(again.json["sent"] as? Bool == false)
            #expect(again.json["verification_id"] == nil)
            for guess in 0..<10 {
                let reply = try await attacker.check(
                    "5305550123", String(format: "%06d", guess), id: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                #expect(reply.status == 422)
                #expect(reply.errorCode == "verification_not_found")
            }
            let signedIn = try await owner.check("5305550123", try server.lastCode(), id: id)
            #expect(signedIn.status == 200)
        }
    }

    @Test("numbers of one exchange get at most the exchange's texts an hour; the page says so")
    func exchange() async throws {
        try await withServer({ $0.policy.maxTextsPerExchange = 2 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            var statuses: [UInt] = []
            for line in 1...3 {
                browser.clearCookies()
                statuses.append(
                    try await browser.post("/login", form: [("phone", "530555\(String(format: "%04d", line))")])
                        .status.code)
            }
            #expect(statuses == [303, 303, 429])
            browser.clearCookies()
            let refused = try await browser.post("/login", form: [("phone", "5305550009")])
            #expect(refused.body.contains("We can&#39;t send a code to this number right now."))
            #expect(try await browser.post("/login", form: [("phone", "5305560009")]).location == "/verify")
        }
    }
}
