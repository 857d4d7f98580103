import AuthCore
import ConsoleCore
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// The steps of the operators' console suites: the app with an operator listed, a person and
/// the operator signed in by text, and the console opened with a passkey proved just now.
protocol ConsoleSteps {}

extension ConsoleSteps {
    /// The operator's number (listed in `--admins`).
    static var operatorPhone: String { "2125550100" }
    /// Someone who is no operator.
    static var person: String { "5305550123" }

    /// Passkeys on, and ``operatorPhone`` listed as the operator.
    static func on(_ configuration: inout AppConfiguration) {
        PasskeyFlowTests.on(&configuration)
        configuration.operators = Operators([try! PhoneNumber(parsing: operatorPhone)])
    }

    /// Signs `phone` in by text in a new browser.
    func signIn(_ server: TestServer, _ phone: String, userAgent: String? = nil) async throws -> Browser {
        let browser = Browser(baseURL: server.baseURL)
        var headers = HTTPHeaders()
        if let userAgent { headers.add(name: "User-Agent", value: userAgent) }
        _ = try await browser.get("/login", headers: headers)
        _ = try await browser.post("/login", form: [("phone", phone)], headers: headers)
        let e164 = try PhoneNumber(parsing: phone).e164
        let verified = try await browser.post(
            "/verify", form: [("code", try server.lastCode(to: e164))], headers: headers)
        #expect(verified.location == "/home")
        return browser
    }

    /// The operator, signed in by text, with a passkey added through an enrollment link from the
    /// shell, proved with it just now: the console is open.
    func openConsole(_ server: TestServer) async throws -> (Browser, SoftwareAuthenticator) {
        let admin = try await signIn(server, Self.operatorPhone)
        var key = SoftwareAuthenticator()
        try await enroll(server, admin, &key)
        try await prove(admin, &key, next: "/admin")
        return (admin, key)
    }

    /// An enrollment link (as `webapp admin enroll` makes one), used in `admin` to add `key`.
    func enroll(_ server: TestServer, _ admin: Browser, _ key: inout SoftwareAuthenticator) async throws {
        let (token, sha256) = Enrollment.newToken()
        try await server.app.storage.console.addEnrollment(
            tokenSHA256: sha256, phone: "+12125550100", expiresAt: server.clock.now.timeIntervalSince1970 + 900)
        let page = try await admin.get("/admin/enroll?token=" + token)
        #expect(page.status == .ok && page.body.contains(#"id="passkey-create""#))
        // A ceremony the browser got wrong leaves the link for another try.
        let wrong = try await admin.post("/admin/enroll?token=" + token, form: [("credential", "{}")])
        #expect(wrong.status == .badRequest && wrong.body.contains(#"id="passkey-create""#))
        let options = PasskeyFlowTests().json(try await admin.post("/admin/enroll/options?token=" + token))
        let user = try #require(options["user"] as? [String: Any])
        let answer = key.register(
            challenge: try #require(options["challenge"] as? String), userHandle: try #require(user["id"] as? String))
        let added = try await admin.post(
            "/admin/enroll?token=" + token, form: [("credential", String(decoding: answer, as: UTF8.self))])
        #expect(added.location == "/admin/proof?next=%2Fadmin")
    }

    /// Proves the operator with their passkey as the console's proof page does.
    func prove(_ admin: Browser, _ key: inout SoftwareAuthenticator, next: String) async throws {
        let options = try await admin.post("/confirm/passkey/options")
        let answer = key.signIn(challenge: try #require(PasskeyFlowTests().json(options)["challenge"] as? String))
        let proved = try await admin.post(
            "/confirm/passkey", form: [("next", next), ("credential", String(decoding: answer, as: UTF8.self))])
        #expect(proved.location == next)
    }
}
