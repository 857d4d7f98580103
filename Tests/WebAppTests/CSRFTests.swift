import AuthCore
import Encodings
import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// Cross-site request forgery: every form post must carry the visitor's signed token.
@Suite("CSRF protection")
struct CSRFTests {
    @Test("the first page sets a signed token cookie and every form carries it; no session is created")
    func pagesCarryToken() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let page = try await browser.get("/login")
            let cookie = try #require(page.setCookie("csrf"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let token = try #require(browser.csrfToken)
            #expect(Self.fields(page.body).map(Self.unmask) == [token])
            #expect(page.setCookie("session") == nil)
            // The next page reuses the token instead of setting a new one.
            #expect(try await browser.get("/login").setCookie("csrf") == nil)

            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let verify = try await browser.get("/verify")
            #expect(Self.fields(verify.body).map(Self.unmask) == [token, token])
        }
    }

    @Test(
        "the form field is the token masked afresh on every page (BREACH): the same token renders differently each time, and both, and the plain token, are accepted"
    )
    func maskedPerPage() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let first = try #require(Self.fields(try await browser.get("/login").body).first)
            let second = try #require(Self.fields(try await browser.get("/login").body).first)
            let token = try #require(browser.csrfToken)
            #expect(first != second)
            #expect(!first.contains(token) && !second.contains(token))
            #expect(Self.unmask(first) == token && Self.unmask(second) == token)
            for (index, field) in [first, second, token].enumerated() {
                let phone = "53055501\(20 + index)"
                let answer = try await browser.post("/login", form: [("phone", phone), ("csrf", field)], csrf: false)
                #expect(answer.status == .seeOther, "field \(index)")
            }
            // A masked field of another token, or a pad with the token XORed wrongly, is refused.
            var tampered = Array(Data(base64URLEncoded: first)!)
            tampered[tampered.count - 1] ^= 1
            let refused = try await browser.post(
                "/login", form: [("phone", "5305550123"), ("csrf", Data(tampered).base64URLEncodedString())],
                csrf: false)
            #expect(refused.status == .forbidden)
        }
    }

    /// Every hidden CSRF field's value in a page, in order.
    static func fields(_ page: String) -> [String] {
        page.matches(of: /name="csrf" value="([^"]*)"/).map { String($0.1) }
    }

    /// A masked field's token: the pad XOR the rest, as the server unmasks it.
    static func unmask(_ field: String) -> String? {
        guard let data = Data(base64URLEncoded: field), data.count % 2 == 0 else { return nil }
        let half = data.count / 2
        return Data(zip(data.prefix(half), data.suffix(half)).map { $0 ^ $1 }).base64URLEncodedString()
    }

    @Test(
        "a post without the token, with another token or a forged one gets 403 and sends nothing",
        arguments: ["missing", "other", "forged", "no-cookie"])
    func refused(_ kind: String) async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            let token = try #require(browser.csrfToken)
            var form = [("phone", "5305550123")]
            switch kind {
            case "other":
                let other = Browser(baseURL: server.baseURL)
                _ = try await other.get("/login")
                form.append(("csrf", try #require(other.csrfToken)))
            case "forged":
                let forged = String(repeating: "A", count: 43)
                browser.setCookie("csrf", forged)
                form.append(("csrf", forged))
            case "no-cookie":
                browser.clearCookies()
                form.append(("csrf", token))
            default:
                break
            }
            let response = try await browser.post("/login", form: form, csrf: false)
            #expect(response.status == .forbidden)
            #expect(response.body.contains("did not come from this site"))
            #expect(response.setCookie("session") == nil)
            #expect(try server.outbox().isEmpty)
        }
    }

    @Test("a token older than 24 hours is refused like a forged one; the next page sets a fresh one that works")
    func expiredToken() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.get("/login")
            let old = try #require(browser.csrfToken)
            server.clock.advance(by: 86_401)
            let refused = try await browser.post("/login", form: [("phone", "5305550123")])
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("did not come from this site"))
            #expect(try server.outbox().isEmpty)
            let page = try await browser.get("/login")
            let fresh = try #require(page.setCookie("csrf"))
            #expect(!fresh.contains(old))
            #expect(try await browser.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("browsers' own cross-site signals are refused even with a token")
    func crossSiteHeaders() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            for headers: HTTPHeaders in [
                ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"], ["Origin": "https://evil.example"],
            ] {
                let response = try await browser.post("/login", form: [("phone", "5305550123")], headers: headers)
                #expect(response.status == .forbidden, "\(headers)")
            }
            #expect(try server.outbox().isEmpty)
            let sameOrigin = try await browser.post(
                "/login", form: [("phone", "5305550123")],
                headers: ["Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:\(server.port)"])
            #expect(sameOrigin.location == "/verify")
        }
    }

    @Test("logout cannot be forced from another site")
    func logoutNeedsToken() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            _ = try await browser.post("/verify", form: [("code", try server.lastCode())])
            #expect(try await browser.post("/logout", csrf: false).status == .forbidden)
            #expect(try await browser.get("/home").status == .ok)
        }
    }
}
