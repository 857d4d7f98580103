import Foundation
import NIOCore

extension Request {
    /// The body as an url-encoded form.
    ///
    /// Throws ``StatusError`` 415 unless the content type is `application/x-www-form-urlencoded`,
    /// and 400 when the body is not a valid form; a route never sees half-decoded input.
    public func formData() throws(StatusError) -> URLEncodedForm {
        // One Content-Type, of the form type: two are ambiguous, and refused.
        let types = headers.filter { $0.name == .contentType }
        guard types.count == 1, Self.isFormType(types[0].value) else {
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

    /// Whether a Content-Type names the form type, parameters aside (`; charset=UTF-8`): the
    /// media type before `;`, spaces and tabs trimmed, compared without case, on bytes.
    static func isFormType(_ contentType: String) -> Bool {
        Substring(contentType.utf8.prefix { $0 != UInt8(ascii: ";") }).trimmingWhitespace()
            .equalsIgnoringCase("application/x-www-form-urlencoded")
    }
}
