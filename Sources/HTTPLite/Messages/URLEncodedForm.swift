import Foundation

/// Name/value pairs in `application/x-www-form-urlencoded` form, from a body or a query string.
///
/// Parsing is strict: a pair that is not valid percent-encoded UTF-8 makes the whole form invalid
/// rather than silently changing what the person typed.
public struct URLEncodedForm: Sendable {
    /// The pairs in the order they came.
    public private(set) var pairs: [(name: String, value: String)] = []

    /// Most pairs accepted in one form; far more than any of our forms has.
    public static let maximumPairs = 256

    /// Why a form could not be read.
    public enum ParseError: Error, Equatable, Sendable {
        /// A name or value is not valid percent-encoding or not UTF-8.
        case malformed
        /// More than ``URLEncodedForm/maximumPairs`` pairs.
        case tooManyFields
    }

    public init() {}

    /// A form of these pairs (to write a query string with ``encoded``).
    public init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// Parses `a=1&b=two+words&c=%C3%A9`.
    public init(parsing text: String) throws(ParseError) {
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard pairs.count < Self.maximumPairs else { throw .tooManyFields }
            let name: Substring
            let value: Substring
            if let equals = piece.firstIndex(of: "=") {
                name = piece[..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece[...]
                value = ""
            }
            pairs.append((try Self.decode(name), try Self.decode(value)))
        }
    }

    /// Parses the body bytes; non-UTF-8 bytes make the form malformed.
    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        // The encoded form is ASCII; anything else was not encoded by a browser.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { throw .malformed }
        try self.init(parsing: String(decoding: bytes, as: UTF8.self))
    }

    private static func decode(_ part: some StringProtocol) throws(ParseError) -> String {
        let spaced =
            part.utf8.contains(UInt8(ascii: "+")) ? part.replacingOccurrences(of: "+", with: " ") : String(part)
        guard spaced.utf8.contains(UInt8(ascii: "%")) else { return spaced }
        guard let decoded = spaced.removingPercentEncoding else { throw .malformed }
        return decoded
    }

    /// The first value for `name`, if any.
    public subscript(name: String) -> String? {
        pairs.first(where: { $0.name == name })?.value
    }

    /// The form without the pairs named `name`.
    public func removing(_ name: String) -> URLEncodedForm {
        var form = self
        form.pairs.removeAll { $0.name == name }
        return form
    }

    /// The pairs as `a=1&b=two%20words`: everything but ASCII letters, digits and `-._~`
    /// percent-encoded, so the result is ASCII (fit for a header such as `Location`).
    public var encoded: String {
        var unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        unreserved.insert(charactersIn: "-._~")
        return pairs.map {
            ($0.name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "") + "="
                + ($0.value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        }.joined(separator: "&")
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    public static func == (lhs: URLEncodedForm, rhs: URLEncodedForm) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs, by: { $0.name == $1.name && $0.value == $1.value })
    }
}

extension StringProtocol {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(self.map { $0 == target ? replacement : $0 })
    }
}
