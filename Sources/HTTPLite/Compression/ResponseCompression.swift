import HTTPTypes
import NIOCore

/// gzip for answers worth it: HTML, CSS, JavaScript, JSON and other text of at least
/// ``Gzip/minimumSize`` bytes, when the request's `Accept-Encoding` allows gzip.
///
/// Every answer that could be compressed says `Vary: Accept-Encoding`, compressed or not, and a
/// compressed one gets a different `ETag` (``Gzip/etag(of:)``), so no cache hands gzip to a
/// client that did not ask for it or takes one for the other. Left alone: `HEAD` (its
/// `Content-Length` stays the identity body's), answers without a body (1xx, 204, 304), answers
/// that already have a `Content-Encoding` (static files carry their gzip from the snapshot),
/// types that are compressed already (images, fonts), and answers marked with
/// ``Response/keepUncompressed()``. The compressed body is in memory, so the server's
/// `Content-Length` is its real length; nothing is chunked.
public struct ResponseCompression<Context: RequestContext>: Middleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.encode(&response, for: request)
        return response
    }

    /// Compresses `response` in place when it should be.
    static func encode(_ response: inout Response, for request: Request) {
        if response.headers.contains(Response.uncompressedMarker) {
            response.headers[Response.uncompressedMarker] = nil
            return
        }
        // A responder that already chose (a static file: its gzip copy, or the identity body with
        // `Vary` said) is left as it is, at the cost of two header lookups.
        if response.headers.contains(.contentEncoding)
            || response.headers.containsListElement(.vary, where: { $0.equalsIgnoringCase("accept-encoding") })
        {
            return
        }
        let status = response.status.code
        guard status >= 200, status != 204, status != 304, response.body.readableBytes >= Gzip.minimumSize,
            let type = response.headers[.contentType], Gzip.isCompressible(contentType: type)
        else { return }
        response.varyOnAcceptEncoding()
        guard request.method != .head, AcceptEncoding.allowsGzip(request.headers),
            let compressed = Gzip.compress(response.body)
        else { return }
        response.body = compressed
        response.headers.append(HTTPField(name: .contentEncoding, value: "gzip"))
        if let etag = response.headers[.eTag] {
            response.headers[.eTag] = Gzip.etag(of: etag)
        }
    }
}
