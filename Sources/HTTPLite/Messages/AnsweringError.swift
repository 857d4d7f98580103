import HTTPTypes
import Wording

/// An error that knows its answer: the status, the headers the answer must carry (`Allow` on
/// 405, `Retry-After` on 429 and 503) and a sentence that is safe to show.
///
/// Not Hummingbird's `HTTPResponseError` (whose answer is made from the request and context):
/// this one carries its answer whole, with a sentence for people. Whoever throws decides what
/// the answer means once, and every place that turns errors into answers (an app's error pages, its JSON API,
/// the server's last resort) reads it from the error instead of keeping its own table.
public protocol AnsweringError: Error {
    /// The status of the answer.
    var status: HTTPResponse.Status { get }
    /// Headers the answer must carry whatever its body.
    var headers: HTTPFields { get }
    /// The sentence for the log (and the last-resort plain answer); it never echoes request data
    /// unescaped.
    var message: String { get }
    /// What people are told, in their language (`nil`: the app says something of its own).
    var phrase: Phrase? { get }
    /// Why HTTPLite refused the request, when it did (the app words it).
    var refusal: HTTPRefusal? { get }
    /// The whole answer when nobody renders the error their own way: plain text by default.
    var response: Response { get }
}

/// Most errors need no headers, and a plain-text answer is the server's last resort.
extension AnsweringError {
    public var headers: HTTPFields { [:] }
    public var phrase: Phrase? { nil }
    public var refusal: HTTPRefusal? { nil }

    public var response: Response {
        var response = Response.text(message + "\n", status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}
