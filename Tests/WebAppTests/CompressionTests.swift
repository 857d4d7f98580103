import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import WebApp

/// gzip on the wire (issue 16, part 3), over real sockets: the bytes as sent, not as a client
/// library would decode them.
@Suite("Compression")
struct CompressionTests {
    /// An answer with its body exactly as it came over the socket.
    struct RawAnswer {
        let status: HTTPResponseStatus
        let headers: HTTPHeaders
        let body: ByteBuffer

        func header(_ name: String) -> String? { headers.first(name: name) }
        var isGzip: Bool { header("Content-Encoding") == "gzip" }
        var varies: Bool { headers["Vary"].contains { $0.lowercased().contains("accept-encoding") } }

        /// The body as text, gunzipped when it was sent gzip.
        func text() throws -> String {
            var body = body
            return String(buffer: isGzip ? try body.decompress(with: .gzip()) : body)
        }
    }

    /// A client that neither asks for compression of its own nor decodes it (the shared
    /// client does both), and follows no redirects.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled))

    static func fetch(
        _ server: TestServer, _ path: String, method: HTTPMethod = .GET, acceptEncoding: String? = "gzip",
        headers: HTTPHeaders = [:], body: String? = nil
    ) async throws -> RawAnswer {
        var request = HTTPClientRequest(url: server.baseURL + path)
        request.method = method
        request.headers = headers
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        if let acceptEncoding { request.headers.add(name: "Accept-Encoding", value: acceptEncoding) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return RawAnswer(status: response.status, headers: response.headers, body: body)
    }

    /// A page's text with its CSRF field blanked: it is masked afresh on every render.
    static func withoutCSRF(_ page: String) -> String {
        page.replacing(/name="csrf" value="[^"]*"/, with: #"name="csrf" value="""#)
    }

    @Test(
        "HTML, CSS, JS and JSON go out gzip when asked, with Vary and the compressed length; the body unzips to the identity one",
        arguments: ["/login", "/public/app.css", "/public/verify.js", "/api/v1/openapi.json"])
    func gzipWhenAsked(_ path: String) async throws {
        try await withServer { server in
            let identity = try await Self.fetch(server, path, acceptEncoding: nil)
            let gzip = try await Self.fetch(server, path, acceptEncoding: "gzip, deflate, br, zstd")
            #expect(!identity.isGzip && gzip.isGzip)
            #expect(identity.varies && gzip.varies)
            #expect(gzip.header("Content-Length") == String(gzip.body.readableBytes))
            #expect(identity.header("Content-Length") == String(identity.body.readableBytes))
            #expect(gzip.body.readableBytes < identity.body.readableBytes * 3 / 4)
            #expect(Self.withoutCSRF(try gzip.text()) == Self.withoutCSRF(try identity.text()))
            #expect(gzip.header("Content-Type") == identity.header("Content-Type"))
            #expect(gzip.header("x-httplite-keep-uncompressed") == nil)
        }
    }

    @Test(
        "Accept-Encoding is respected: q=0, identity, * and case",
        arguments: [
            ("gzip", true), ("GZIP", true), ("*", true), ("br;q=1.0, gzip;q=0.5", true), ("x-gzip", true),
            ("gzip;q=0", false), ("gzip; q=0.000", false), ("identity", false), ("br, deflate", false),
            ("*;q=0", false), ("*, gzip;q=0", false), ("gzip;q=bogus", false), ("", false),
        ])
    func acceptEncoding(_ header: String, _ compressed: Bool) async throws {
        try await withServer { server in
            let answer = try await Self.fetch(server, "/public/app.css", acceptEncoding: header)
            #expect(answer.isGzip == compressed, "\(header)")
            #expect(answer.varies)
        }
    }

    @Test("small bodies, images and the API's token answers go out as they are")
    func leftAlone() async throws {
        try await withServer { server in
            let icon = try await Self.fetch(server, "/public/favicon.svg")
            #expect(!icon.isGzip && icon.body.readableBytes < 1024)
            let health = try await Self.fetch(server, "/healthz")
            #expect(!health.isGzip && !health.varies)
            // verification_id and auth_token: fresh secrets next to what the caller sent; small,
            // so never compressed.
            let sent = try await Self.fetch(
                server, "/api/v1/verifications", method: .POST,
                headers: ["Content-Type": "application/json"], body: #"{"phone_number": "5305550123"}"#)
            #expect(sent.status == .ok && !sent.isGzip)
            #expect(try sent.text().contains("verification_id"))
        }
    }

    @Test(
        "static files: the gzip copy has its own ETag; 304 answers each variant with its ETag and Vary; HEAD is the identity's"
    )
    func staticVariants() async throws {
        try await withServer { server in
            let identity = try await Self.fetch(server, "/public/app.css", acceptEncoding: nil)
            let gzip = try await Self.fetch(server, "/public/app.css")
            let identityTag = try #require(identity.header("ETag"))
            let gzipTag = try #require(gzip.header("ETag"))
            #expect(identityTag != gzipTag)
            #expect(gzipTag == Self.gzipTag(identityTag))

            let notModified = try await Self.fetch(server, "/public/app.css", headers: ["If-None-Match": gzipTag])
            #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
            #expect(notModified.header("ETag") == gzipTag && notModified.varies && !notModified.isGzip)
            // The identity's tag does not stand for the gzip body, nor the other way round.
            #expect(
                try await Self.fetch(server, "/public/app.css", headers: ["If-None-Match": identityTag]).status == .ok)
            let identityAgain = try await Self.fetch(
                server, "/public/app.css", acceptEncoding: nil, headers: ["If-None-Match": gzipTag])
            #expect(identityAgain.status == .ok && !identityAgain.isGzip)

            let head = try await Self.fetch(server, "/public/app.css", method: .HEAD)
            #expect(head.status == .ok && !head.isGzip && head.body.readableBytes == 0)
            #expect(head.header("Content-Length") == String(identity.body.readableBytes))
            #expect(head.header("ETag") == identityTag && head.varies)
            let headPage = try await Self.fetch(server, "/login", method: .HEAD)
            #expect(headPage.status == .ok && !headPage.isGzip && headPage.body.readableBytes == 0)
        }
    }

    @Test("style sheets and scripts are served without their comments, the files in Public/ keep them")
    func withoutComments() async throws {
        try await withServer { server in
            for name in ["app.css", "login.js", "verify.js"] {
                let file = try String(contentsOfFile: "Public/" + name, encoding: .utf8)
                let served = try await Self.fetch(server, "/public/" + name, acceptEncoding: nil)
                let text = String(buffer: served.body)
                #expect(file.contains(name.hasSuffix(".css") ? "/*" : "\n  //"), "\(name)")
                #expect(!text.contains(name.hasSuffix(".css") ? "/*" : "\n  //"), "\(name)")
                #expect(text.utf8.count < file.utf8.count * 9 / 10, "\(name)")
            }
        }
    }

    @Test("a Login that shows a phone number goes uncompressed (it will reflect rd=), and says so to no one")
    func loginWithPhoneUncompressed() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await browser.post("/login", form: [("phone", "5305550123")])
            let session = try #require(browser.cookie("session"))
            let page = try await Self.fetch(server, "/login", headers: ["Cookie": "session=\(session)"])
            #expect(page.status == .ok)
            #expect(try page.text().contains("(530) 555-0123"))
            #expect(!page.isGzip)
            #expect(page.header("x-httplite-keep-uncompressed") == nil)
            // Without a number on it, the same page is compressed.
            #expect(try await Self.fetch(server, "/login").isGzip)
        }
    }

    /// `"abc"` → `"abc-gzip"`, as the server names the gzip variant.
    static func gzipTag(_ tag: String) -> String { String(tag.dropLast()) + "-gzip\"" }
}
