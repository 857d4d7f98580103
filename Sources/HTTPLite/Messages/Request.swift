import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP request, fully read (body included, within the configured limit).
///
/// A plain value: handlers and middleware receive it and may pass a changed copy on.
public struct Request: Sendable {
    /// The method (`GET`, `POST`, …).
    public var method: HTTPMethod
    /// The request target as sent, e.g. `/verify?x=1`.
    public var uri: String
    /// The path part of the target, still percent-encoded, always starting with `/`.
    public var path: String
    /// The query part of the target (after `?`), still encoded; empty when absent.
    public var rawQuery: Substring
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body bytes (empty for most GETs).
    public var body: ByteBuffer
    /// The peer's address, when known.
    public var remoteAddress: SocketAddress?
    /// Who sent the request: the peer, or behind a trusted proxy the client it names.
    public var client: ClientAddress?
    /// Whether the client asked to keep the connection open after this request.
    public var isKeepAlive: Bool

    public init(
        method: HTTPMethod, uri: String, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer(),
        remoteAddress: SocketAddress? = nil, client: ClientAddress? = nil, isKeepAlive: Bool = true
    ) {
        self.method = method
        self.uri = uri
        if let question = uri.firstIndex(of: "?") {
            self.path = String(uri[..<question])
            self.rawQuery = uri[uri.index(after: question)...]
        } else {
            self.path = uri
            self.rawQuery = ""
        }
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.client = client ?? remoteAddress?.ipAddress.map(ClientAddress.init(text:))
        self.isKeepAlive = isKeepAlive
    }

    /// The query parameters; malformed pairs are skipped (a query is never an error page).
    public var query: URLEncodedForm {
        (try? URLEncodedForm(parsing: String(rawQuery))) ?? URLEncodedForm()
    }

    /// The path split into percent-decoded segments; `nil` if a segment is not valid
    /// percent-encoded UTF-8 or contains a NUL.
    public var pathSegments: [Substring]? {
        var segments: [Substring] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            // Byte scans, not `String.contains(_:)`, which goes through Foundation's string search.
            if raw.utf8.contains(UInt8(ascii: "%")) {
                guard let decoded = String(raw).removingPercentEncoding, !decoded.utf8.contains(0) else { return nil }
                segments.append(Substring(decoded))
            } else {
                segments.append(raw)
            }
        }
        return segments
    }
}
