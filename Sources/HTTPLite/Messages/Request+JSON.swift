import Foundation
import HTTPTypes
import NIOCore

extension Request {
    /// The body decoded as JSON into `T`.
    ///
    /// Throws ``StatusError`` 415 unless the content type is `application/json` (a browser cannot
    /// send that cross-site without a CORS preflight, which we never grant), and 400 with a
    /// message naming the problem when the body is not JSON or lacks a field of `T`.
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self) throws(StatusError) -> T {
        let mediaType = headers[.contentType]?
            .split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else {
            throw StatusError(
                .unsupportedMediaType, .jsonType, message: "Send the request body as application/json.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch DecodingError.keyNotFound(let key, _) {
            throw StatusError(
                .badRequest, .jsonMissingField(key.stringValue),
                message: "The field \(key.stringValue) is missing.")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw StatusError(
                .badRequest,
                field.isEmpty ? .jsonNotObject : .jsonWrongType(field: field),
                message: field.isEmpty ? "The body must be a JSON object." : "The field \(field) has the wrong type.")
        } catch {
            throw StatusError(.badRequest, .jsonInvalid, message: "The body is not valid JSON.")
        }
    }
}
