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
        try self.init(parsingBytes: Array(text.utf8))
    }

    /// Parses the body bytes; non-UTF-8 bytes make the form malformed.
    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        // The encoded form is ASCII; anything else was not encoded by a browser.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { throw .malformed }
        try self.init(parsingBytes: Array(bytes))
    }

    /// The pairs between `&`s (empty pieces skipped), each split at its first `=`, on bytes:
    /// Foundation's string splitting and `removingPercentEncoding` cost about 12 µs per POST
    /// (a quarter of what a sign-in spent reading its two forms).
    private init(parsingBytes bytes: [UInt8]) throws(ParseError) {
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            defer { start = end + 1 }
            guard end > start else { continue }
            guard pairs.count < Self.maximumPairs else { throw .tooManyFields }
            let piece = bytes[start..<end]
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append((try Self.decode(piece[..<equals]), try Self.decode(piece[(equals + 1)...])))
            } else {
                pairs.append((try Self.decode(piece), ""))
            }
        }
    }

    /// A name or value: `+` is a space, `%XY` the byte XY; the bytes must then be UTF-8, and
    /// hold no NUL (`%00`): SQLite would keep the text up to it and PostgreSQL refuse it, so it
    /// is refused here, as a path's is.
    static func decode(_ part: ArraySlice<UInt8>) throws(ParseError) -> String {
        guard part.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            guard !part.contains(0), let text = String(validating: part, as: UTF8.self) else { throw .malformed }
            return text
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(part.count)
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard part.endIndex - index >= 3 else { throw .malformed }
                guard let high = hexValue(part[index + 1]), let low = hexValue(part[index + 2]) else { throw .malformed }
                decoded.append(high << 4 | low)
                index += 3
            default:
                decoded.append(byte)
                index += 1
            }
        }
        guard !decoded.contains(0), let text = String(validating: decoded, as: UTF8.self) else { throw .malformed }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
