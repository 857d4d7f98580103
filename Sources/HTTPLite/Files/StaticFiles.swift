import Foundation
import HTTPTypes
import NIOCore
import NIOPosix

/// Serves files from a folder (our `Public/`) under a URL prefix (`/public`), from memory
/// (``StaticAssets``: read once, re-scanned when it may have changed).
///
/// Paths are checked segment by segment (no `..`, no hidden files, no encoded slashes), and only
/// files found inside the folder are served, so neither `../` tricks nor symbolic links can
/// reach other files.
public struct StaticFiles<Context: RequestContext>: Middleware {
    private let assets: StaticAssets
    private let prefix: [Substring]
    /// `/public/`: what a path must start with to be looked up here.
    private let pathPrefix: String
    /// `Cache-Control` for plain names and for content-hashed ones, made once.
    private let plainCacheControl: String
    private let immutableCacheControl = "public, max-age=\(Self.immutableMaxAge), immutable"

    /// - Parameters:
    ///   - folder: the folder to serve.
    ///   - urlPrefix: where it appears in URLs, e.g. `/public`.
    ///   - maxAge: `Cache-Control` max-age in seconds for a plain name (`app.css`); browsers
    ///     revalidate with `ETag` after it. A content-hashed name (`app.3f2a1c9e.css`, see
    ///     ``StaticAssets/versioned(_:)``) is `immutable` for a year.
    public init(assets: StaticAssets, urlPrefix: String, maxAge: Int = 300) {
        self.assets = assets
        self.prefix = urlPrefix.split(separator: "/")
        self.pathPrefix = "/" + prefix.joined(separator: "/") + "/"
        self.plainCacheControl = "public, max-age=\(maxAge)"
    }

    /// A year: what browsers keep an `immutable` content-hashed file for.
    static var immutableMaxAge: Int { 31_536_000 }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.path.utf8.starts(with: pathPrefix.utf8) else {
            return try await next(request, context)
        }
        guard request.method == .get || request.method == .head else {
            throw StatusError(.methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        guard let segments = request.pathSegments, segments.count > prefix.count,
            segments.dropFirst(prefix.count).allSatisfy(Self.isSafeSegment)
        else { throw StatusError(.notFound, .noFile, message: "There is no file at this address.") }

        assets.refreshIfStale()
        let relative = segments.dropFirst(prefix.count).joined(separator: "/")
        guard let (asset, immutable) = assets.lookup(relative) else {
            throw StatusError(.notFound, .noFile, message: "There is no file at this address.")
        }
        let cacheControl = immutable ? immutableCacheControl : plainCacheControl
        // The gzip copy made with the snapshot, for a GET that accepts it (HEAD describes the
        // identity body); either way the answer varies with Accept-Encoding.
        let gzip =
            asset.gzipped.flatMap { request.method == .get && AcceptEncoding.allowsGzip(request.headers) ? $0 : nil }
        let etag = gzip?.etag ?? asset.etag
        var headers: HTTPFields = [.contentType: asset.contentType, .cacheControl: cacheControl, .eTag: etag]
        if asset.gzipped != nil { headers.append(HTTPField(name: .vary, value: "Accept-Encoding")) }
        if request.headers[values: .ifNoneMatch].contains(where: { $0.utf8.firstRange(of: etag.utf8) != nil }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        guard let gzip else { return Response(status: .ok, headers: headers, body: asset.body) }
        headers.append(HTTPField(name: .contentEncoding, value: "gzip"))
        return Response(status: .ok, headers: headers, body: gzip.body)
    }

    static func isSafeSegment(_ segment: Substring) -> Bool {
        // Bytes, not `String.contains(_:)` (Foundation's string search, on every file served).
        !segment.isEmpty && segment.utf8.first != UInt8(ascii: ".")
            && !segment.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
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
