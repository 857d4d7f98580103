import Foundation
import NIOHTTP1
import Testing

@testable import WebApp

/// "Your devices": where a person is signed in, in words, and the buttons that end it.
@Suite("Your devices")
struct DevicesPageTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
    static let android =
        "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"

    func signIn(_ server: TestServer, agent: String, remember: Bool = false) async throws -> Browser {
        let browser = Browser(baseURL: server.baseURL)
        let headers: HTTPHeaders = ["User-Agent": agent]
        _ = try await browser.get("/login", headers: headers)
        _ = try await browser.post("/login", form: [("phone", "5305550123")], headers: headers)
        let verified = try await browser.post(
            "/verify", form: [("code", try server.lastCode())] + (remember ? [("remember", "on")] : []),
            headers: headers)
        #expect(verified.location == "/home")
        server.clock.advance(by: 31)  // the next browser's code is a new one
        return browser
    }

    @Test("the page names each browser in words, marks this one, and signs another out at once")
    func signOutAnother() async throws {
        try await withServer { server in
            let phone = try await signIn(server, agent: Self.iPhone)
            let other = try await signIn(server, agent: Self.android)
            let page = try await phone.get("/devices")
            #expect(page.status == .ok)
            #expect(page.body.contains("Safari on iPhone</strong> <span class=\"tag\">This device</span>"))
            #expect(page.body.contains("Chrome on Android</strong>"))
            #expect(try await phone.get("/home").body.contains(#"<a href="/devices">Your devices</a>"#))
            let ids = page.body.matches(of: /\/devices\/sessions\/([0-9a-f]{32})\/sign-out/).map { String($0.1) }
            #expect(ids.count == 1)  // no button for this device
            #expect(try await phone.post("/devices/sessions/\(ids[0])/sign-out").location == "/devices")
            #expect(try await other.get("/home").location == "/login")
            #expect(try await phone.get("/home").status == .ok)
            // Again, or any id that is not one of this person's: 404.
            #expect(try await phone.post("/devices/sessions/\(ids[0])/sign-out").status == .notFound)
        }
    }

    @Test("signing out another browser also forgets the phone it remembered: it needs a code again")
    func signOutForgetsItsPhone() async throws {
        try await withServer { server in
            let phone = try await signIn(server, agent: Self.iPhone)
            let other = try await signIn(server, agent: Self.android, remember: true)
            let page = try await phone.get("/devices")
            let id = try #require(page.body.firstMatch(of: /\/devices\/sessions\/([0-9a-f]{32})\/sign-out/)?.1)
            #expect(try await phone.post("/devices/sessions/\(id)/sign-out").location == "/devices")
            #expect(!(try await phone.get("/devices").body.contains("Forget this device")))
            _ = try await other.get("/login")
            #expect(try await other.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("sign out everywhere else ends the other sessions and forgets the other remembered phones")
    func everywhereElse() async throws {
        try await withServer { server in
            let phone = try await signIn(server, agent: Self.iPhone, remember: true)
            let other = try await signIn(server, agent: Self.android, remember: true)
            let page = try await phone.get("/devices")
            #expect(page.body.components(separatedBy: "Forget this device</button>").count - 1 == 2)
            #expect(try await phone.post("/devices/sign-out-others").location == "/devices")
            #expect(try await other.get("/home").location == "/login")
            // The other phone's remembered device is gone: its number needs a code again.
            _ = try await other.get("/login")
            #expect(try await other.post("/login", form: [("phone", "5305550123")]).location == "/verify")
            let after = try await phone.get("/devices")
            #expect(after.body.components(separatedBy: "Forget this device</button>").count - 1 == 1)
            // Forget this one too: then it needs a code as well.
            let id = try #require(after.body.firstMatch(of: /\/devices\/(\d+)\/forget/)?.1)
            #expect(try await phone.post("/devices/\(id)/forget").location == "/devices")
            _ = try await phone.post("/logout")
            _ = try await phone.get("/login")
            #expect(try await phone.post("/login", form: [("phone", "5305550123")]).location == "/verify")
        }
    }

    @Test("signed out, every devices address goes to Login; another person's ids are 404")
    func signedOutAndIsolation() async throws {
        try await withServer { server in
            let stranger = Browser(baseURL: server.baseURL)
            #expect(try await stranger.get("/devices").location == "/login")
            let owner = try await signIn(server, agent: Self.iPhone, remember: true)
            let page = try await owner.get("/devices")
            let device = try #require(page.body.firstMatch(of: /\/devices\/(\d+)\/forget/)?.1)
            _ = try await stranger.get("/login")
            _ = try await stranger.post("/login", form: [("phone", "4155550199")])
            _ = try await stranger.post("/verify", form: [("code", try server.lastCode(to: "+14155550199"))])
            #expect(try await stranger.post("/devices/\(device)/forget").status == .notFound)
            // The owner's other browser, whose sign-out button the owner's page shows.
            let second = try await signIn(server, agent: Self.android)
            let secondID = try #require(
                try await owner.get("/devices").body.firstMatch(of: /\/devices\/sessions\/([0-9a-f]{32})\/sign-out/)?.1)
            #expect(try await stranger.post("/devices/sessions/\(secondID)/sign-out").status == .notFound)
            #expect(try await second.get("/home").status == .ok)
            #expect(try await owner.get("/home").status == .ok)
        }
    }

    @Test("the API lists sessions (an API token is kind api) and ends one with DELETE")
    func api() async throws {
        try await withServer { server in
            let browser = try await signIn(server, agent: Self.android)
            let api = APIClient(server)
            let token = try await api.signIn(server)
            let listed = try await api.call(.GET, "/sessions", token: token)
            #expect(listed.status == 200)
            let sessions = try #require(listed.json["sessions"] as? [[String: Any]])
            #expect(sessions.count == 2)
            let mine = try #require(sessions.first { $0["current"] as? Bool == true })
            #expect(mine["kind"] as? String == "api")
            #expect(mine["description"] as? String == "API token")
            let other = try #require(sessions.first { $0["current"] as? Bool == false })
            #expect(other["description"] as? String == "Chrome on Android")
            let id = try #require(other["id"] as? String)
            #expect(try await api.call(.DELETE, "/sessions/\(id)", token: token).status == 204)
            #expect(try await browser.get("/home").location == "/login")
            #expect(try await api.call(.DELETE, "/sessions/\(id)", token: token).status == 404)
        }
    }
}
