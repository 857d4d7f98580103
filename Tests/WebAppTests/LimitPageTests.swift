import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

@Suite("Limits as the pages show them")
struct LimitPageTests {
    /// Login shown again by a per-client limit that frees a place in an hour: 429, `Retry-After`
    /// and the sentence saying why.
    func expectRefusedForAnHour(
        _ response: TestResponse, _ sentence: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .tooManyRequests, sourceLocation: sourceLocation)
        #expect(response.header("Retry-After") == "3600", sourceLocation: sourceLocation)
        #expect(response.body.contains(sentence), sourceLocation: sourceLocation)
    }

    @Test(
        "the per-client limit answers 429 with Retry-After and a sentence; X-Forwarded-For only counts with --trust-proxy"
    )
    func perClient() async throws {
        try await withServer({ $0.policy.maxCodesPerClient = 2 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            // Without --trust-proxy a forged header does not give a fresh address.
            for (index, phone) in ["5305550101", "5305550102", "5305550103"].enumerated() {
                browser.clearCookies()
                let response = try await browser.post(
                    "/login", form: [("phone", phone)], headers: ["X-Forwarded-For": "198.51.100.\(index)"])
                if index < 2 {
                    #expect(response.location == "/verify")
                } else {
                    expectRefusedForAnHour(
                        response, "Too many codes were requested from your network. Please try again in 1 hour.")
                    #expect(response.body.contains(#"value="5305550103""#))
                }
            }
            #expect(try server.outbox().count == 2)
        }
        try await withServer({
            $0.policy.maxCodesPerClient = 1
            $0.server.trustProxy = true
        }) { server in
            let browser = Browser(baseURL: server.baseURL)
            for (index, phone) in ["5305550101", "5305550102"].enumerated() {
                browser.clearCookies()
                let response = try await browser.post(
                    "/login", form: [("phone", phone)], headers: ["X-Forwarded-For": "203.0.113.7, 198.51.100.\(index)"]
                )
                #expect(response.location == "/verify", "proxy-reported client \(index)")
            }
        }
    }

    @Test(
        "posting Login again and again during the cooldown makes no more than the client's pending sessions: then 429")
    func signInsPerClient() async throws {
        try await withServer({ $0.policy.maxSignInsPerClient = 3 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            for attempt in 0..<4 {
                browser.clearCookies()
                let response = try await browser.post("/login", form: [("phone", "5305550123")])
                if attempt < 3 {
                    #expect(response.location == "/verify")
                } else {
                    expectRefusedForAnHour(
                        response, "Too many sign-ins were started from your network. Please try again in 1 hour.")
                    #expect(response.setCookie("session") == nil)
                    // Login's summary and its sentence under the field both count down.
                    let end = Int(server.clock.now.timeIntervalSince1970.rounded(.up)) + 3600
                    #expect(
                        response.body.ranges(of: #"data-retry-at="\#(end)" data-said="in 1 hour">Too many sign-ins"#)
                            .count == 2)
                }
            }
            #expect(try await server.tableCounts(["sessions"]) == ["sessions": 3])
            #expect(try server.outbox().count == 1)
        }
    }

    @Test("Login refused a text while the code already sent still works offers to enter that code, which works")
    func loginOffersTheSentCode() async throws {
        try await withServer({ $0.policy.maxCodesPerPhone = 1 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let code = try server.lastCode()
            // Back to Login ("Use a different number"), the same number again after the cooldown.
            server.clock.advance(by: 31)
            let refused = try await browser.post("/login", form: [("phone", "(530) 555-0123")])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.body.contains("Too many codes were sent to this number. Please try again in 10 minutes."))
            #expect(
                refused.body.contains(
                    #"<p class="still-works" id="code-still-works"><a href="/verify" id="enter-sent-code">Enter the code we already sent</a> It expires in 10 minutes.</p>"#
                ))
            #expect(try await browser.get("/verify").status == .ok)
            #expect(try await browser.post("/verify", form: [("code", code)]).location == "/home")
            #expect(try server.outbox().count == 1)

            // Another browser has no code of its own on the way: it is not offered one.
            let stranger = Browser(baseURL: server.baseURL)
            let elsewhere = try await stranger.post("/login", form: [("phone", "5305550123")])
            #expect(elsewhere.status == .tooManyRequests)
            #expect(!elsewhere.body.contains("enter-sent-code"))
        }
    }

    @Test("the per-number limit refuses a resend with 429; the page can count its minutes down from the time it ends")
    func perPhone() async throws {
        try await withServer({ $0.policy.maxCodesPerPhone = 1 }) { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            server.clock.advance(by: 31)
            let resend = try await browser.post("/verify/resend")
            #expect(resend.status == .tooManyRequests)
            #expect(resend.header("Retry-After") == "569")
            #expect(resend.body.contains("Too many codes were sent to this number. Please try again in 10 minutes."))
            let end = Int(server.clock.now.timeIntervalSince1970.rounded(.up)) + 569
            #expect(
                resend.body.contains(#"role="alert" data-retry-at="\#(end)" data-said="in 10 minutes">Too many codes"#))
            #expect(resend.body.contains(/<script src="\/public\/countdown\.[0-9a-f]{8}\.js" defer><\/script>/))
            #expect(try server.outbox().count == 1)
        }
    }
}
