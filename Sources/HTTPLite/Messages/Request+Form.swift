import Foundation
import NIOCore

extension Request {
    /// The body as an url-encoded form.
    ///
    /// Throws ``StatusError`` 415 unless the content type is `application/x-www-form-urlencoded`,
    /// and 400 when the body is not a valid form; a route never sees half-decoded input.
    public func formData() throws(StatusError) -> URLEncodedForm {
        let type = headers[.contentType]?
            .split(separator: ";", maxSplits: 1).first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/x-www-form-urlencoded" else {
            throw StatusError(
                .unsupportedMediaType, .formType,
                message: "Forms must be sent as application/x-www-form-urlencoded.")
        }
        do {
            return try URLEncodedForm(parsing: body.readableBytesView)
        } catch {
            throw StatusError(.badRequest, .formUnreadable, message: "The form could not be read.")
        }
    }
}
