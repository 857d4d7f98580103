import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Recent activity" over HTTP: the person's own events, in words, newest first, paged; the same
/// in the API; nobody else's, and nothing a user agent holds is ever markup.
@Suite("Recent activity, end to end")
struct ActivityFlowTests {
    let devices = DevicesPageTests()

    @Test("sign-ins, a wrong code and a sign-out elsewhere, in words, newest first; a user agent full of markup is text")
    func page() async throws {
        try await withServer { server in
            let phone = try await devices.signIn(server, agent: DevicesPageTests.iPhone)
            // A second browser whose User-Agent is markup, with a wrong code first.
            let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)> Chrome/131.0 (Windows NT 10.0)"
            let other = Browser(baseURL: server.baseURL)
            let headers: HTTPHeaders = ["User-Agent": hostile]
            _ = try await other.get("/login", headers: headers)
            _ = try await other.post("/login", form: [("phone", "5305550123")], headers: headers)
            _ = try await other.post("/verify", form: [("code", "000000")], headers: headers)
            #expect(try await other.post("/verify", form: [("code", try server.lastCode())], headers: headers).location == "/home")
            server.clock.advance(by: 60)
            // From Recent activity ("Not you?"), back to it.
            #expect(
                try await phone.post("/devices/sign-out-others", form: [("from", "activity")]).location
                    == "/account/activity")

            let page = try await phone.get("/account/activity")
            #expect(page.status == .ok)
            #expect(page.body.contains("<h1>Recent activity</h1>"))
            #expect(page.body.contains("Not you?"))
            let sentences = page.body.matches(of: /<strong>([^<]+)<\/strong>/).map { String($0.1) }
            #expect(
                sentences == [
                    // The sentence names the browser whose sign-in ended, not the one that ended it.
                    "Not you?", "Chrome on Windows was signed out from another device", "Signed in with a code by text",
                    "A wrong code was typed for (•••)\u{00A0}•••-0123", "A code was texted to (•••)\u{00A0}•••-0123",
                    "Signed in with a code by text", "A code was texted to (•••)\u{00A0}•••-0123",
                ])
            // The network as people read it; no delivery tag until the provider's last word.
            #expect(page.body.contains("from 127.0.0.x"))
            #expect(!page.body.contains("on its way") && !page.body.contains("/24"))
            #expect(page.body.contains("Safari on iPhone"))
            // The code texted names the browser that asked for it, too.
            #expect(page.body.matches(of: /texted to[^<]*<\/strong>\s*<div class="muted"><time[^>]*>[^<]*<\/time> · Safari on iPhone/).count == 1)
            // A way back, for a person without a Back button.
            #expect(page.body.contains(#"<p class="back"><a href="/devices">Back to your devices</a></p>"#))
            #expect(!page.body.contains("<script>alert") && !page.body.contains("<img src=x"))
            #expect(!page.body.contains("530") || !page.body.contains("5305550123"))
            #expect(page.body.contains(#"<a href="/account/activity" id="devices-activity">"#) == false)
            #expect(try await phone.get("/devices").body.contains(#"href="/account/activity""#))

            // The API: the same events, newest first, its own account only.
            let api = APIClient(server)
            server.clock.advance(by: 31)
            let token = try await api.signIn(server, "+14155550100")
            let theirs = try await api.call(.GET, "/account/activity", token: token)
            #expect(theirs.status == 200)
            let types = (theirs.json["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
            #expect(types == ["session.created", "code.sent"])
            #expect(try await api.call(.GET, "/account/activity?before=abc", token: token).status == 400)
            #expect(try await api.call(.GET, "/account/activity").status == 401)
            #expect(try await phone.get("/account/activity?before=-1").status == .badRequest)
            #expect(try await Browser(baseURL: server.baseURL).get("/account/activity").location == "/login")
        }
    }

    @Test("thirty to a page, older pages by the last id, and only the last 90 days")
    func paging() async throws {
        try await withServer({ $0.policy.dormantAfter = 0 }) { server in
            let browser = try await devices.signIn(server, agent: DevicesPageTests.iPhone)
            // 40 more of the account's events, as another browser's sign-outs would leave them.
            let at = server.clock.now.timeIntervalSince1970 - 3600
            for _ in 0..<40 {
                try await server.execute(
                    """
                    INSERT INTO events (at, type, user_id, detail)
                    SELECT \(at), 'session.ended', id, 'expired' FROM users WHERE phone = '+15305550123'
                    """)
            }
            let first = try await browser.get("/account/activity")
            let items = first.body.matches(of: /<li class="place">/).count
            #expect(items == 30)
            let older = try #require(first.body.firstMatch(of: /href="\/account\/activity\?before=(\d+)"/)?.1)
            let second = try await browser.get("/account/activity?before=\(older)")
            #expect(second.body.matches(of: /<li class="place">/).count == 42 - 30)
            #expect(!second.body.contains(#"rel="next""#))
            // The language switch keeps the page.
            #expect(second.body.contains(#"href="/account/activity?before=\#(older)&amp;lang=es""#))
            #expect(second.body.contains(#"<a href="/account/activity">Back to the newest</a>"#))
            // 91 days on, it has all left the page (the export keeps it until the retention ends).
            server.clock.advance(by: 91 * 86_400)
            let later = try await devices.signIn(server, agent: DevicesPageTests.iPhone)
            #expect(try await later.get("/account/activity").body.matches(of: /<li class="place">/).count == 2)
        }
    }
}
