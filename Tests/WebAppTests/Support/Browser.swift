import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A response as the tests look at it: status, headers, body text.
struct TestResponse {
    let status: HTTPResponseStatus
    let headers: HTTPHeaders
    let body: String

    var location: String? { headers.first(name: "Location") }

    func header(_ name: String) -> String? { headers.first(name: name) }

    /// The `Set-Cookie` header for `name`, if this response set one.
    func setCookie(_ name: String) -> String? {
        headers["Set-Cookie"].first { $0.hasPrefix(name + "=") }
    }
}

/// A minimal browser over AsyncHTTPClient: a cookie jar that honours `Path` and `Max-Age`,
/// no automatic redirects (the tests check each one), forms sent url-encoded.
final class Browser: @unchecked Sendable {
    private struct StoredCookie {
        var value: String
        var path: String
    }

    /// The server requests go to; a test of several instances moves it, as a load balancer
    /// would send the same browser (and its cookies) to another instance.
    var baseURL: String {
        get { lock.withLock { base } }
        set { lock.withLock { base = newValue } }
    }
    private var base: String
    private let client: HTTPClient
    private var jar: [String: StoredCookie] = [:]
    private let lock = NSLock()

    init(baseURL: String) {
        self.base = baseURL
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // Bounds, not expectations: a request queued behind many others for one of the pool's
        // connections waits as long as `connect` (200 parallel transfers on two busy cores
        // once waited over 5 s), so a slow machine only makes a test slower, never fail.
        configuration.timeout = .init(connect: .seconds(60), read: .seconds(60))
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    /// The jar's value of a cookie.
    func cookie(_ name: String) -> String? { lock.withLock { jar[name]?.value } }

    /// Every cookie in the jar, by name (to carry a browser to another server).
    var cookies: [String: String] { lock.withLock { jar.mapValues(\.value) } }

    /// Sets a cookie by hand (to replay or forge one).
    func setCookie(_ name: String, _ value: String, path: String = "/") {
        lock.withLock { jar[name] = StoredCookie(value: value, path: path) }
    }

    /// The CSRF token cookie this browser holds.
    var csrfToken: String? { cookie("csrf") ?? cookie("__Host-csrf") }

    func clearCookies() { lock.withLock { jar.removeAll() } }

    func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await send(.GET, path, headers: headers)
    }

    /// Posts a form the way a browser posts one from our pages: with the CSRF token the pages
    /// carry (loading a page first if this browser has none yet). `csrf: false` leaves it out.
    func post(_ path: String, form: [(String, String)] = [], headers: HTTPHeaders = [:], csrf: Bool = true)
        async throws -> TestResponse
    {
        var form = form
        if csrf {
            if csrfToken == nil { _ = try await get("/login") }
            if let token = csrfToken { form.append(("csrf", token)) }
        }
        var headers = headers
        if headers.first(name: "Content-Type") == nil {
            headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        }
        let body = form.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.POST, path, headers: headers, body: Data(body.utf8))
    }

    func send(_ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: Data? = nil) async throws
        -> TestResponse
    {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers = headers
        let cookieHeader = lock.withLock {
            jar.filter { path.hasPrefix($0.value.path) }.map { "\($0.key)=\($0.value.value)" }.sorted()
                .joined(separator: "; ")
        }
        if !cookieHeader.isEmpty { request.headers.add(name: "Cookie", value: cookieHeader) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        store(response.headers["Set-Cookie"])
        return TestResponse(status: response.status, headers: response.headers, body: String(buffer: bytes))
    }

    private func store(_ setCookies: [String]) {
        lock.withLock {
            for header in setCookies {
                let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let first = parts.first, let equals = first.firstIndex(of: "=") else { continue }
                let name = String(first[..<equals])
                let value = String(first[first.index(after: equals)...])
                var path = "/"
                var expired = false
                for attribute in parts.dropFirst() {
                    let lower = attribute.lowercased()
                    if lower.hasPrefix("path=") { path = String(attribute.dropFirst(5)) }
                    if lower == "max-age=0" { expired = true }
                }
                if expired { jar[name] = nil } else { jar[name] = StoredCookie(value: value, path: path) }
            }
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }
}
