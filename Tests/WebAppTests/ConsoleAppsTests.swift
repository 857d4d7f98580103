import AuthCore
import EventsCore
import Foundation
import NIOHTTP1
import OIDCCore
import TestSupport
import Testing

@testable import WebApp

/// The console's apps (issue 40, item 3): OpenID Connect clients kept in the database, added,
/// changed, rotated, turned off and deleted from `/admin/apps`, each used at once (on another
/// instance too); the secret shown once; the clients file's listed read-only.
@Suite("The console's apps")
struct ConsoleAppsTests {
    static let redirect = "https://notes.example.com/cb"

    static func on(_ configuration: inout AppConfiguration) {
        ConsoleTests.on(&configuration)
        configuration.publicURL = "http://localhost:8080"
        configuration.oidcClients = ClientRegistry([
            OIDCClient(id: "grafana", name: "Grafana", redirectURIs: ["https://grafana.example.com/cb"], secretSHA256: nil)
        ])
    }

    /// Adds the app `notes` from the console; its secret, from the page that shows it once.
    func addNotes(_ admin: Browser) async throws -> String {
        let added = try await admin.post(
            "/admin/apps",
            form: [
                ("client_id", "notes"), ("name", "Notes <b>"), ("redirect_uris", Self.redirect + "\r\n"),
                ("reason", "The team's notes app"),
            ])
        #expect(added.status == .ok)
        #expect(added.header("Cache-Control") == "no-store")
        #expect(added.body.contains("Notes &lt;b&gt;"))
        return String(try #require(added.body.firstMatch(of: /id="app-secret-value">([A-Za-z0-9_\-]{43})</)?.1))
    }

    /// A person's whole sign-in to `notes`: authorize, consent, the code; the token answer.
    func signInToNotes(_ server: TestServer, secret: String) async throws -> (status: HTTPResponseStatus, body: String) {
        let person = Browser(baseURL: server.baseURL)
        _ = try await person.get("/login")
        _ = try await person.post("/login", form: [("phone", "4155550142")])
        #expect(try await person.post("/verify", form: [("code", try server.lastCode(to: "+14155550142"))]).location == "/home")
        let query = "client_id=notes&redirect_uri=\(Self.redirect)&response_type=code&scope=openid%20phone&state=s"
        var location = try #require(try await person.get("/oidc/authorize?" + query).location)
        if !location.hasPrefix(Self.redirect) {  // the first time: the consent page
            let page = try await person.get(location)
            #expect(page.body.contains("Notes &lt;b&gt;"))
            // Its form ends at the app: this page's policy lets it, though the app came after start-up.
            #expect(
                page.header("Content-Security-Policy")?.contains(
                    "form-action 'self' https://grafana.example.com https://notes.example.com;") == true)
            #expect(page.header("x-phonelogin-form-action") == nil)
            let allowed = try await person.post("/oidc/consent", form: [("request", query), ("decision", "allow")])
            location = try #require(allowed.location)
        }
        #expect(location.hasPrefix(Self.redirect + "?"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        let answer = try await person.send(
            .POST, "/oidc/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(
                ("grant_type=authorization_code&code=\(code)&redirect_uri=\(Self.redirect)&client_id=notes&client_secret="
                    + secret).utf8))
        return (answer.status, answer.body)
    }

    @Test("an app added in the console signs people in at once, on another instance too; its secret is shown once")
    func add() async throws {
        try await withServer(Self.on) { server in
            let (admin, _) = try await ConsoleTests().openConsole(server)
            let list = try await admin.get("/admin/apps")
            #expect(list.status == .ok)
            #expect(list.body.contains("No apps added here yet."))
            #expect(list.body.contains("<code>grafana</code>"))  // the file's, read-only
            // Refused, and what was typed kept: no reason; an address that is no https; a file client's id.
            let noReason = try await admin.post(
                "/admin/apps", form: [("client_id", "notes"), ("name", "Notes"), ("redirect_uris", Self.redirect)])
            #expect(noReason.status == .unprocessableEntity)
            #expect(noReason.body.contains(#"value="notes""#))
            let plain = try await admin.post(
                "/admin/apps",
                form: [("client_id", "notes"), ("name", "Notes"), ("redirect_uris", "http://notes.example.com/cb"), ("reason", "try")])
            #expect(plain.status == .unprocessableEntity)
            #expect(plain.body.contains("each https (http only on this machine)"))
            for bad in ["https://notes.example.com/c b", "https://notes.example.com:99999/cb", "https://notes.example.com/cb\u{7F}"] {
                let refused = try await admin.post(
                    "/admin/apps", form: [("client_id", "notes"), ("name", "Notes"), ("redirect_uris", bad), ("reason", "try")])
                #expect(refused.status == .unprocessableEntity, "\(bad)")
            }
            let reversed = try await admin.post(
                "/admin/apps",
                form: [("client_id", "notes"), ("name", "Notes \u{202E}evil"), ("redirect_uris", Self.redirect), ("reason", "try")])
            #expect(reversed.status == .unprocessableEntity)
            let taken = try await admin.post(
                "/admin/apps",
                form: [("client_id", "grafana"), ("name", "Mine"), ("redirect_uris", Self.redirect), ("reason", "try")])
            #expect(taken.status == .conflict)

            let secret = try await addNotes(admin)
            // Sent again (a reload of the answer): the id is taken, and no secret is shown twice.
            let again = try await admin.post(
                "/admin/apps",
                form: [("client_id", "notes"), ("name", "Notes <b>"), ("redirect_uris", Self.redirect), ("reason", "The team's notes app")])
            #expect(again.status == .conflict)
            #expect(!again.body.contains(secret) && !again.body.contains("app-secret-value"))
            #expect(!(try await admin.get("/admin/apps").body.contains(secret)))

            let (status, body) = try await signInToNotes(server, secret: secret)
            #expect(status == .ok, "\(body)")
            #expect(body.contains("id_token"))

            // Another instance on the same database knows it at once.
            let other = try await TestServer.start(sharing: server)
            defer { Task { await other.stop() } }
            let elsewhere = Browser(baseURL: other.baseURL)
            let authorize = try await elsewhere.get(
                "/oidc/authorize?client_id=notes&redirect_uri=\(Self.redirect)&response_type=code&scope=openid&state=s")
            #expect(authorize.location == "/login")
            let rows = try await server.rows("SELECT detail, app, actor, reason FROM events WHERE type = 'operator.action'")
            #expect(rows == [["add_app", "notes", "+12125550100", "The team's notes app"]])
            // A digest of 32 bytes is kept, never the secret.
            #expect(try await server.rows("SELECT length(secret_sha256) FROM oidc_apps") == [["32"]])
        }
    }

    @Test("rotating the secret: the old one works for 24 hours beside the new; turned off, nothing works; deleted, gone")
    func rotateTurnOffDelete() async throws {
        try await withServer(Self.on) { server in
            var (admin, key) = try await ConsoleTests().openConsole(server)
            let old = try await addNotes(admin)
            let rotated = try await admin.post("/admin/apps/notes/rotate", form: [("reason", "Leaked in a log")])
            #expect(rotated.status == .ok)
            let new = String(try #require(rotated.body.firstMatch(of: /id="app-secret-value">([A-Za-z0-9_\-]{43})</)?.1))
            #expect(new != old)
            #expect(try await admin.get("/admin/apps").body.contains("Its previous secret still works until"))
            // Sent again within the day (a double tap, a resubmitted form): refused, so the secret
            // the app still uses is not ended.
            let twice = try await admin.post("/admin/apps/notes/rotate", form: [("reason", "Leaked in a log")])
            #expect(twice.status == .conflict && !twice.body.contains("app-secret-value"))
            #expect(try await signInToNotes(server, secret: old).status == .ok)
            #expect(try await signInToNotes(server, secret: new).status == .ok)
            server.clock.advance(by: 86_401)
            #expect(try await signInToNotes(server, secret: old).status == .unauthorized)
            #expect(try await signInToNotes(server, secret: new).status == .ok)

            // A day on, the operator signs in again (the session's 180 minutes are over) and proves it.
            admin = try await ConsoleTests().signIn(server, ConsoleTests.operatorPhone)
            try await ConsoleTests().prove(admin, &key, next: "/admin/apps")
            #expect(try await admin.post("/admin/apps/notes/turn-off", form: [("reason", "")]).status == .unprocessableEntity)
            #expect(try await admin.post("/admin/apps/notes/turn-off", form: [("reason", "Paused for the move")]).location
                == "/admin/apps?done=turn-off")
            let person = Browser(baseURL: server.baseURL)
            let refused = try await person.get(
                "/oidc/authorize?client_id=notes&redirect_uri=\(Self.redirect)&response_type=code&scope=openid&state=s")
            #expect(refused.status == .badRequest && refused.location == nil)
            #expect(try await admin.post("/admin/apps/notes/turn-on", form: [("reason", "Moved")]).location
                == "/admin/apps?done=turn-on")
            #expect(try await signInToNotes(server, secret: new).status == .ok)
            #expect(try await admin.post("/admin/apps/notes/delete", form: [("reason", "Retired")]).location
                == "/admin/apps?done=delete")
            #expect(try await admin.get("/admin/apps").body.contains("No apps added here yet."))
            #expect(try await admin.post("/admin/apps/notes/rotate", form: [("reason", "Again")]).status == .notFound)
            // The clients file's are not the console's to change.
            #expect(try await admin.post("/admin/apps/grafana/delete", form: [("reason", "Mine now")]).status == .notFound)
            // A database row with a file client's id (the shell may add one without the file):
            // listed as the file's, never changed here, its grants untouched.
            try await server.app.storage.apps.add(
                StoredApp(id: "grafana", name: "Copy", redirectURIs: [Self.redirect], secretSHA256: Data(count: 32), createdAt: 0),
                recording: Event(.operatorAction, at: 0, detail: "add_app"))
            #expect(try await admin.get("/admin/apps").body.contains("The clients file has an app with this id"))
            #expect(try await admin.post("/admin/apps/grafana/turn-off", form: [("reason", "Mine now")]).status == .notFound)
            #expect(try await admin.post("/admin/apps/notes/rotate", form: [("reason", "x")], csrf: false).status == .forbidden)
            // Reload or Back on an action's address: the list.
            #expect(try await admin.get("/admin/apps/notes/delete").location == "/admin/apps")
            let actions = try await server.rows("SELECT detail FROM events WHERE type = 'operator.action' ORDER BY id")
            #expect(actions.map(\.first) == ["add_app", "rotate_app_secret", "turn_app_off", "turn_app_on", "delete_app", "add_app"])
        }
    }

    @Test("to a non-operator the apps page is an unknown page")
    func strangers() async throws {
        try await withServer(Self.on) { server in
            let someone = try await ConsoleTests().signIn(server, ConsoleTests.person)
            #expect(try await someone.get("/admin/apps").status == .notFound)
            #expect(try await someone.post("/admin/apps", form: [("client_id", "x"), ("reason", "xyz")]).status == .notFound)
        }
    }
}
