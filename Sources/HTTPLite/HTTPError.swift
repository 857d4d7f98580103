import NIOHTTP1

/// An error that is only an HTTP status and a sentence; thrown by routing (404, 405 with
/// `Allow`), form and JSON decoding (400, 415) and handlers.
///
/// The message is safe to show to the person (it never echoes input back unescaped; pages
/// escape it anyway).
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var status: HTTPResponseStatus
    public var message: String
    /// Headers the response must carry, e.g. `Allow` on 405 or `Retry-After` on 429.
    public var headers: HTTPHeaders

    public init(_ status: HTTPResponseStatus, message: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    public var description: String { "HTTPError(\(status.code) \(message))" }
}
