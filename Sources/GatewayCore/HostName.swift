/// A DNS host name as a browser and a proxy send it (`Host`, `X-Forwarded-Host`, a URL's
/// authority): letters, digits and hyphens in dot-separated labels, compared in lower case.
///
/// Deliberately strict: no user-info, no percent-encoding, no IP literals, no Unicode (an
/// internationalized name arrives as its `xn--` form), so that the name we check is the name
/// the browser will connect to.
public struct HostName: Sendable, Hashable, CustomStringConvertible {
    /// The name in lower case, without a trailing dot.
    public let name: String
    /// The port, when the authority named one.
    public let port: Int?

    /// Parses `host` or `host:port`; `nil` for anything else.
    public init?(authority: some StringProtocol) {
        var text = Substring(authority)
        var port: Int?
        if let colon = text.lastIndex(of: ":") {
            let digits = text[text.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits),
                (1...65535).contains(number)
            else { return nil }
            port = number
            text = text[..<colon]
        }
        guard let name = Self.validName(text) else { return nil }
        (self.name, self.port) = (name, port)
    }

    /// `name` lower-cased when it is a valid host name (a trailing dot dropped), else `nil`.
    static func validName(_ text: some StringProtocol) -> String? {
        var name = text.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
                label.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") })
            else { return nil }
        }
        // An all-digit last label is an IPv4 address, not a name.
        if let last = labels.last, last.allSatisfy(\.isASCIIDigit) { return nil }
        return name
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `name` or `name:port`.
    public var description: String { port.map { "\(name):\($0)" } ?? name }
}

extension Character {
    /// `0`–`9` only (not other scripts' digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
