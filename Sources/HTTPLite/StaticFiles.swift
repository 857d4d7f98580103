import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves files from a folder (our `Public/`) under a URL prefix (`/public`).
///
/// Files are read on NIO's blocking-I/O thread pool, never on an event loop. Paths are checked
/// segment by segment (no `..`, no hidden files, no encoded slashes) and the resolved real path
/// must stay inside the folder, so neither `../` tricks nor symbolic links can reach other files.
public struct StaticFiles<Context: RequestContext>: Middleware {
    private let root: String
    private let prefix: [Substring]
    private let maxAge: Int
    private let threadPool: NIOThreadPool

    /// - Parameters:
    ///   - folder: the folder to serve.
    ///   - urlPrefix: where it appears in URLs, e.g. `/public`.
    ///   - maxAge: `Cache-Control` max-age in seconds; browsers revalidate with `ETag` after it.
    public init(folder: String, urlPrefix: String, maxAge: Int = 3600, threadPool: NIOThreadPool = .singleton) {
        let resolved = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        self.root = resolved
        self.prefix = urlPrefix.split(separator: "/")
        self.maxAge = maxAge
        self.threadPool = threadPool
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.path.hasPrefix("/" + prefix.joined(separator: "/") + "/") else {
            return try await next(request, context)
        }
        guard request.method == .GET || request.method == .HEAD else {
            throw HTTPError(.methodNotAllowed, headers: ["Allow": "GET, HEAD"])
        }
        guard let segments = request.pathSegments, segments.count > prefix.count,
            segments.dropFirst(prefix.count).allSatisfy(Self.isSafeSegment)
        else { throw HTTPError(.notFound, message: "There is no file at this address.") }

        let relative = segments.dropFirst(prefix.count).joined(separator: "/")
        let root = self.root
        let file = try await threadPool.runIfActive { () -> (Data, Date)? in
            let candidate = URL(fileURLWithPath: root + "/" + relative).resolvingSymlinksInPath().path
            guard candidate.hasPrefix(root + "/") else { return nil }
            let attributes = try? FileManager.default.attributesOfItem(atPath: candidate)
            guard attributes?[.type] as? FileAttributeType == .typeRegular,
                let data = FileManager.default.contents(atPath: candidate)
            else { return nil }
            return (data, attributes?[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0))
        }
        guard let (data, modified) = file else {
            throw HTTPError(.notFound, message: "There is no file at this address.")
        }

        let etag = "\"\(data.count)-\(Int(modified.timeIntervalSince1970))\""
        var headers: HTTPHeaders = [
            "Content-Type": Self.contentType(forExtension: (relative as NSString).pathExtension),
            "Cache-Control": "public, max-age=\(maxAge)",
            "ETag": etag,
        ]
        if request.headers["if-none-match"].contains(where: { $0.contains(etag) }) {
            headers.remove(name: "Content-Type")
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ByteBuffer(bytes: data))
    }

    static func isSafeSegment(_ segment: Substring) -> Bool {
        !segment.isEmpty && !segment.hasPrefix(".") && !segment.contains("/") && !segment.contains("\\")
            && !segment.contains("\0")
    }

    /// The `Content-Type` for a file extension.
    public static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        default: return "application/octet-stream"
        }
    }
}
