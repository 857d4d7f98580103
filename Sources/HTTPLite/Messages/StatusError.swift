import HTTPTypes
import Wording

/// An error that is only an HTTP status and a sentence (not Hummingbird's `HTTPError`: it also
/// carries what people are told, in their language); thrown by routing (404, 405 with
/// `Allow`), form and JSON decoding (400, 415) and handlers.
///
/// The message is safe to show to the person (it never echoes input back unescaped; pages
/// escape it anyway).
public struct StatusError: AnsweringError, Sendable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var message: String
    /// Headers the response must carry, e.g. `Allow` on 405 or `Retry-After` on 429.
    public var headers: HTTPFields
    /// What people are told, in their language (an app's own errors).
    public var phrase: Phrase?
    /// Why HTTPLite refused the request (its own errors), for the app to word.
    public var refusal: HTTPRefusal?

    public init(_ status: HTTPResponse.Status, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    /// An error people are told `phrase`; `message` is for the log.
    public init(_ status: HTTPResponse.Status, _ phrase: Phrase, message: String, headers: HTTPFields = [:]) {
        self.init(status, message: message, headers: headers)
        self.phrase = phrase
    }

    /// An error of HTTPLite's own: the app words `refusal`; `message` is for the log.
    public init(_ status: HTTPResponse.Status, _ refusal: HTTPRefusal, message: String, headers: HTTPFields = [:]) {
        self.init(status, message: message, headers: headers)
        self.refusal = refusal
    }

    public var description: String { "StatusError(\(status.code) \(message))" }
}
