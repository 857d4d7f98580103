import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import Testing

/// A client of the JSON API that checks every response it sees against `Public/openapi.json`.
struct APIClient {
    let browser: Browser
    /// The `verification_id` of the last code this client was sent (as an app keeps it).
    private let lastVerification = NIOLockedValueBox<String?>(nil)

    init(_ server: TestServer) {
        browser = Browser(baseURL: server.baseURL)
    }

    struct Reply {
        let response: TestResponse
        var status: UInt { response.status.code }
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [String: Any] ?? [:]
        }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    /// Sends a request; `json` is encoded as the body unless `body` gives raw text.
    func call(
        _ method: HTTPMethod, _ path: String, json: [String: Any]? = nil, body: String? = nil,
        contentType: String? = "application/json", token: String? = nil, idempotencyKey: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        var headers = HTTPHeaders()
        if let idempotencyKey { headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        let data = try body.map { Data($0.utf8) } ?? json.map { try JSONSerialization.data(withJSONObject: $0) }
        if data != nil, let contentType { headers.add(name: "Content-Type", value: contentType) }
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await browser.send(method, "/api/v1" + path, headers: headers, body: data)
        let problems = OpenAPIDocument.shared.problems(
            method: method, path: "/api/v1" + path, status: response.status.code, headers: response.headers,
            body: response.body)
        #expect(
            problems.isEmpty, "\(method.rawValue) \(path) → \(response.status.code): \(problems)",
            sourceLocation: sourceLocation)
        return Reply(response: response)
    }

    /// Asks for a code to `phone`, by text or (`channel` `"call"`) by call.
    func send(_ phone: String, channel: String? = nil) async throws -> Reply {
        var body = ["phone_number": phone]
        if let channel { body["channel"] = channel }
        let reply = try await call(.POST, "/verifications", json: body)
        if let id = reply.json["verification_id"] as? String { lastVerification.withLockedValue { $0 = id } }
        return reply
    }

    /// Checks `code` with the `verification_id` of the last code sent to this client, or `id`.
    func check(_ phone: String, _ code: String, id: String? = nil) async throws -> Reply {
        try await call(
            .POST, "/verifications/check",
            json: [
                "phone_number": phone, "code": code,
                "verification_id": id ?? lastVerification.withLockedValue { $0 } ?? "",
            ])
    }

    /// Sends a code to `phone`, checks it (the one from the outbox, or 123456 in test mode),
    /// returns the token.
    func signIn(_ server: TestServer, _ phone: String = "+15305550123") async throws -> String {
        let sent = try await send(phone)
        #expect(sent.status == 200, "\(sent.errorMessage ?? "")")
        let code = try server.outbox().isEmpty ? "123456" : try server.lastCode(to: phone)
        let reply = try await check(phone, code)
        return try #require(reply.json["auth_token"] as? String)
    }

    /// Signs in (``signIn(_:_:)``) and opens `accounts` accounts, numbered from 1; returns the token.
    func signIn(_ server: TestServer, openingAccounts accounts: Int) async throws -> String {
        let token = try await signIn(server)
        for _ in 0..<accounts {
            #expect(try await call(.POST, "/accounts", token: token).status == 201)
        }
        return token
    }
}
