import Foundation
import Testing

@testable import WebApp

/// The static files under `/public` over real sockets: their headers, conditional requests,
/// content-hashed addresses, no traversal, and changes on disk seen while the app runs.
@Suite("Static files")
struct StaticFileTests {
    @Test("static files: content types, caching headers, 304, no traversal")
    func staticFiles() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let css = try await browser.get("/public/app.css")
            #expect(css.status == .ok)
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
            #expect(css.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
            #expect(css.header("X-Content-Type-Options") == "nosniff")
            // A style sheet keeps nosniff; the page-only headers are left off it.
            #expect(css.header("Content-Security-Policy") == nil)
            #expect(css.header("X-Frame-Options") == nil)
            let etag = try #require(css.header("ETag"))
            let cached = try await browser.get("/public/app.css", headers: ["If-None-Match": etag])
            #expect(cached.status == .notModified)
            // A list of tags, the file's among them, is a match too.
            let listed = try await browser.get("/public/app.css", headers: ["If-None-Match": "\"0000\", " + etag])
            #expect(listed.status == .notModified)
            let other = try await browser.get("/public/app.css", headers: ["If-None-Match": "\"0000\""])
            #expect(other.status == .ok)
            #expect(cached.body.isEmpty)
            let js = try await browser.get("/public/verify.js")
            #expect(js.header("Content-Type") == "text/javascript; charset=utf-8")

            // Pages link content-hashed addresses, kept for a year; the hash is the file's.
            let login = try await browser.get("/login")
            let hashed = try #require(login.body.firstMatch(of: /href="(\/public\/app\.([0-9a-f]{8})\.css)"/))
            let versioned = try await browser.get(String(hashed.1))
            #expect(versioned.body == css.body)
            #expect(versioned.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(etag.hasPrefix("\"" + hashed.2))
            #expect(css.header("Cache-Control") == "public, max-age=300")
            // An old hash (a page from before a deploy) gets today's file, not kept for long.
            let stale = try await browser.get("/public/app.00000000.css")
            #expect(stale.status == .ok)
            #expect(stale.header("Cache-Control") == "public, max-age=300")
            #expect(try await browser.get("/public/missing.12345678.css").status == .notFound)

            for path in [
                "/public/%2e%2e/Package.swift", "/public/..%2fPackage.swift", "/public/.hidden", "/public/%00",
            ] {
                let connection = try RawConnection(port: server.port)
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let response = await connection.readAll()
                #expect(response.hasPrefix("HTTP/1.1 404") || response.hasPrefix("HTTP/1.1 400"), "\(path)")
                #expect(!response.contains("PackageDescription"), "\(path)")
            }
        }
    }

    @Test("static files are served from memory, and a changed, added or removed file is seen within seconds")
    func staticFilesChange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("a { color: red }".utf8).write(to: folder.appendingPathComponent("app.css"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("openapi.json"))
        try await withServer({ $0.publicDirectory = folder.path }) { server in
            let browser = Browser(baseURL: server.baseURL)
            let first = try await browser.get("/public/app.css")
            #expect(first.body == "a { color: red }")
            try Data("a { color: blue }".utf8).write(to: folder.appendingPathComponent("app.css"))
            try Data("x".utf8).write(to: folder.appendingPathComponent("new.txt"))
            var seen = first
            for _ in 0..<40 where seen.body != "a { color: blue }" {
                try await Task.sleep(for: .milliseconds(250))
                seen = try await browser.get("/public/app.css")
            }
            #expect(seen.body == "a { color: blue }")
            #expect(seen.header("ETag") != first.header("ETag"))
            #expect(try await browser.get("/public/new.txt").body == "x")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("new.txt"))
            var gone = 200 as UInt
            for _ in 0..<40 where gone != 404 {
                try await Task.sleep(for: .milliseconds(250))
                gone = try await browser.get("/public/new.txt").status.code
            }
            #expect(gone == 404)
        }
    }
}
