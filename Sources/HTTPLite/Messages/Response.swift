import Foundation
import HTTPTypes
import NIOCore

/// One HTTP response: its head (swift-http-types' `HTTPResponse`: status and header fields)
/// and a body held in memory.
public struct Response: Sendable {
    public var head: HTTPResponse
    public var body: ByteBuffer

    public var status: HTTPResponse.Status {
        get { head.status }
        set { head.status = newValue }
    }

    public var headers: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: ByteBuffer = ByteBuffer()) {
        self.head = HTTPResponse(status: status, headerFields: headers)
        self.body = body
    }

    /// An HTML page.
    public static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"], body: ByteBuffer(string: text))
    }

    /// A JSON response; keys are sorted so equal values give equal bytes.
    public static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: status, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: try encoder.encode(value)))
    }

    /// Plain text.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ByteBuffer(string: text))
    }

    /// A redirect; 303 See Other by default, so the browser follows a POST with a GET and a
    /// refresh never re-submits the form.
    public static func redirect(to location: String, status: HTTPResponse.Status = .seeOther) -> Response {
        Response(status: status, headers: [.location: location])
    }

    /// Adds a `Set-Cookie` header.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.append(HTTPField(name: .setCookie, value: cookie.headerValue))
    }
}
