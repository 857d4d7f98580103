import Foundation
import HTTPTypes
import NIOCore

/// One HTTP request, fully read (body included, within the configured limit).
///
/// A plain value: handlers and middleware receive it and may pass a changed copy on. Its
/// head is swift-http-types' `HTTPRequest`, the currency Hummingbird 2 and AsyncHTTPClient
/// share (the `Host` header is its `authority`, not one of its fields).
public struct Request: Sendable {
    /// Method, authority, target and header fields.
    public var head: HTTPRequest
    /// The method (`GET`, `POST`, …).
    public var method: HTTPRequest.Method { head.method }
    /// The header fields (not `Host`: ``authority``).
    public var headers: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }
    /// The `Host` the client named, when it named one.
    public var authority: String? { head.authority }
    /// The request target as sent, e.g. `/verify?x=1`.
    public let uri: String
    /// The path part of the target, still percent-encoded, always starting with `/`.
    public var path: String
    /// The query part of the target (after `?`), still encoded; empty when absent.
    public var rawQuery: Substring
    /// The body bytes (empty for most GETs).
    public var body: ByteBuffer
    /// The peer's address, when known.
    public var remoteAddress: SocketAddress?
    /// Who sent the request: the peer, or behind a trusted proxy the client it names.
    public var client: ClientAddress?
    /// Whether the client asked to keep the connection open after this request.
    public var isKeepAlive: Bool

    public init(
        method: HTTPRequest.Method, uri: String, authority: String? = nil, headers: HTTPFields = [:],
        body: ByteBuffer = ByteBuffer(), remoteAddress: SocketAddress? = nil, client: ClientAddress? = nil,
        isKeepAlive: Bool = true
    ) {
        self.init(
            head: HTTPRequest(method: method, scheme: nil, authority: authority, path: uri, headerFields: headers),
            body: body, remoteAddress: remoteAddress, client: client, isKeepAlive: isKeepAlive)
    }

    public init(
        head: HTTPRequest, body: ByteBuffer = ByteBuffer(), remoteAddress: SocketAddress? = nil,
        client: ClientAddress? = nil, isKeepAlive: Bool = true
    ) {
        self.head = head
        let uri = head.path ?? "/"
        self.uri = uri
        if let question = uri.firstIndex(of: "?") {
            self.path = String(uri[..<question])
            self.rawQuery = uri[uri.index(after: question)...]
        } else {
            self.path = uri
            self.rawQuery = ""
        }
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
