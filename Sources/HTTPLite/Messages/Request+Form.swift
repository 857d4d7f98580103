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
        let expected = "application/x-www-form-urlencoded".utf8
        var media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }[...]
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let first = media.first, blank(first) { media = media.dropFirst() }
        while let last = media.last, blank(last) { media = media.dropLast() }
        return media.count == expected.count
            && zip(media, expected).allSatisfy { byte, wanted in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == wanted
            }
    }
}
