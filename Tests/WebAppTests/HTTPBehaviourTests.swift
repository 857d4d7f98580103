import Crypto
import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// Bad input, limits and protocol details over real sockets.
@Suite("HTTP behaviour")
struct HTTPBehaviourTests {
    @Test("a page's one inline script is the layout's, allowed by its SHA-256 and by nothing broader")
    func inlineScriptPolicy() async throws {
        try await withServer { server in
            for path in ["/login", "/nope"] {
                let page = try await Browser(baseURL: server.baseURL).get(path)
                let scripts = Self.inlineScripts(page.body)
                #expect(scripts.count == 1, "\(path)")
                let hash = Data(SHA256.hash(data: Data((scripts.first ?? "").utf8))).base64EncodedString()
                #expect(
                    page.header("Content-Security-Policy")
                        == SecurityHeaders.contentSecurityPolicy(scriptHashes: ["'sha256-\(hash)'"]), "\(path)")
                #expect(page.header("Content-Security-Policy")?.contains("unsafe-inline") == false)
            }
        }
    }

    /// The texts of `html`'s `<script>` elements without attributes.
    static func inlineScripts(_ html: String) -> [String] {
        html.components(separatedBy: "<script>").dropFirst().compactMap { $0.components(separatedBy: "</script>").first }
    }

    /// The Content-Security-Policy `server`'s pages carry (the layout's inline script's hash in it).
    static func pagePolicy(_ server: TestServer) async throws -> String? {
        try await Browser(baseURL: server.baseURL).get("/login").header("Content-Security-Policy")
    }

    @Test("unknown paths get the 404 page; malformed ones 400")
    func notFound() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            for path in ["/nope", "/login/extra", "/public/missing.css"] {
                let response = try await browser.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
                #expect(response.header("Cache-Control") == "no-store", "\(path)")
                #expect(response.body.contains("<h1>Not Found</h1>"), "\(path)")
                #expect(response.header("Content-Security-Policy") != nil, "\(path)")
            }
            // Sent byte for byte: an HTTP client library would normalise these paths.
            for (path, status) in [("/%ff", "400"), ("/login%00", "400"), ("/public/../Package.swift", "404")] {
                let connection = try RawConnection(port: server.port)
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let response = await connection.readAll()
                #expect(response.hasPrefix("HTTP/1.1 \(status)"), "\(path)")
                #expect(response.contains("<h1>"), "\(path)")
            }
        }
    }

    @Test("each security header arrives once, on pages, redirects, errors and files")
    func securityHeadersOnce() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            for path in ["/login", "/", "/home", "/nope", "/public/app.css", "/api/v1/me"] {
                let response = try await browser.get(path)
                for name in ["Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"] {
                    #expect(response.headers[name].count <= 1, "\(path) \(name)")
                }
                #expect(response.headers["X-Content-Type-Options"] == ["nosniff"], "\(path)")
            }
        }
    }

    @Test("wrong methods get 405 with Allow")
    func methodNotAllowed() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let delete = try await browser.send(.DELETE, "/login")
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.header("Allow") == "GET, HEAD, POST")
            #expect(delete.body.contains("<h1>Method Not Allowed</h1>"))
            // A form's address asked with GET (Reload or Back on its answer) is its page, not a 405.
            let getForget = try await browser.get("/login/forget")
            #expect(getForget.status == .seeOther)
            #expect(getForget.location == "/login")
            for address in ["/devices/sessions/1/sign-out", "/devices/sign-out-others", "/devices/1/forget"] {
                #expect(try await browser.get(address).location == "/login", "\(address), signed out")
            }
            let postHome = try await browser.post("/home")
            #expect(postHome.status == .methodNotAllowed)
        }
    }

    @Test("HEAD gets the headers of GET and no body")
    func head() async throws {
        try await withServer { server in
            let connection = try RawConnection(port: server.port)
            connection.send("HEAD /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let response = await connection.readAll()
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let length = try #require(
                response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") })
            #expect(Int(length.split(separator: " ").last!)! > 500)
            #expect(response.hasSuffix("\r\n\r\n"))
        }
    }

    @Test("a body over 64 KiB gets 413 and changes nothing")
    func payloadTooLarge() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let body = "phone=" + String(repeating: "5", count: 70 * 1024)
            let response = try await browser.send(
                .POST, "/login", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
            #expect(response.status == .payloadTooLarge)
            #expect(response.header("Connection") == "close")
            // Answered by the server before any middleware, yet with the security headers.
            #expect(response.header("Content-Security-Policy") == (try await Self.pagePolicy(server)))
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("X-Frame-Options") == "DENY")
            #expect(try server.outbox().isEmpty)
            // Exactly at the limit is still read (and answered as a bad phone number): the body is
            // "phone=" + digits + "&csrf=" + the token.
            _ = try await browser.get("/login")
            let token = try #require(browser.csrfToken)
            let ok = try await browser.post(
                "/login", form: [("phone", String(repeating: "5", count: 64 * 1024 - 6 - 6 - token.utf8.count))])
            #expect(ok.status == .unprocessableEntity)
        }
    }

    @Test("a chunked body over the limit gets 413 too")
    func chunkedTooLarge() async throws {
        try await withServer { server in
            let connection = try RawConnection(port: server.port)
            var request =
                "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = String(repeating: "a", count: 16 * 1024)
            for _ in 0..<5 { request += String(16 * 1024, radix: 16) + "\r\n" + chunk + "\r\n" }
            request += "0\r\n\r\n"
            connection.send(request)
            #expect(await connection.readAll().hasPrefix("HTTP/1.1 413"))
        }
    }

    @Test("oversized headers get 431, a long URL 414, garbage 400; the server keeps serving")
    func protocolErrors() async throws {
        try await withServer { server in
            let big = try RawConnection(port: server.port)
            big.send("GET /login HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 40 * 1024))\r\n\r\n")
            let refused = await big.readAll()
            #expect(refused.hasPrefix("HTTP/1.1 431"))
            #expect(refused.lowercased().contains("x-content-type-options: nosniff"))

            let longURL = try RawConnection(port: server.port)
            longURL.send("GET /login?\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await longURL.readAll().hasPrefix("HTTP/1.1 414"))

            for garbage in [
                "GARBAGE\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET / HTTP/1.1\r\nBad Header\r\n\r\n",
                "\u{0}\u{1}\u{2}\r\n\r\n", "GET /login HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n",
            ] {
                let connection = try RawConnection(port: server.port)
                connection.send(garbage)
                #expect(await connection.readAll().hasPrefix("HTTP/1.1 400"), "\(garbage.debugDescription)")
            }

            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/login").status == .ok)
            // Each refusal is counted, under a route of its own.
            let metrics = try await browser.get("/metrics").body
            for status in [431, 414, 400] {
                #expect(metrics.contains(#"http_requests_total{route="refused",status="\#(status)"}"#), "\(status)")
            }
        }
    }

    @Test("malformed and non-UTF-8 forms get 400 or 415, never a crash")
    func badForms() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
            let cases: [(HTTPHeaders, [UInt8], HTTPResponseStatus)] = [
                (form, Array("phone=%ff%fe".utf8), .badRequest),
                (form, Array("phone=%".utf8), .badRequest),
                (form, [0x70, 0x68, 0x3d, 0xff, 0xfe], .badRequest),
                (["Content-Type": "application/json"], Array(#"{"phone":"5305550123"}"#.utf8), .unsupportedMediaType),
                ([:], Array("phone=5305550123".utf8), .unsupportedMediaType),
                (form, Array(String(repeating: "a=1&", count: 1000).utf8), .badRequest),
            ]
            for (headers, body, status) in cases {
                let response = try await browser.send(.POST, "/login", headers: headers, body: Data(body))
                #expect(response.status == status, "\(body.prefix(20))")
                #expect(response.body.contains("<h1>"), "an error page, not a bare status")
            }
            #expect(try server.outbox().isEmpty)
            #expect(try await browser.get("/login").status == .ok)
        }
    }
}
