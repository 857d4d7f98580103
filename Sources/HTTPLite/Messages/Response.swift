import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP response: status, headers and a body held in memory.
public struct Response: Sendable {
    public var status: HTTPResponseStatus
    public var headers: HTTPHeaders
    public var body: ByteBuffer

    public init(status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page.
    public static func html(_ text: String, status: HTTPResponseStatus = .ok) -> Response {
        Response(
            status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: ByteBuffer(string: text))
    }

    /// A JSON response; keys are sorted so equal values give equal bytes.
    public static func json<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: ByteBuffer(bytes: try encoder.encode(value)))
    }

    /// Plain text.
    public static func text(_ text: String, status: HTTPResponseStatus = .ok) -> Response {
        Response(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: ByteBuffer(string: text))
    }

    /// A redirect; 303 See Other by default, so the browser follows a POST with a GET and a
    /// refresh never re-submits the form.
    public static func redirect(to location: String, status: HTTPResponseStatus = .seeOther) -> Response {
        Response(status: status, headers: ["Location": location])
    }

    /// Adds a `Set-Cookie` header.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.add(name: "Set-Cookie", value: cookie.headerValue)
    }
}
