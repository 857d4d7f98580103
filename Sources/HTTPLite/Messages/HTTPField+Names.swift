import HTTPTypes

/// Header fields swift-http-types does not name, named once for the server and the app.
extension HTTPField.Name {
    public static let requestID = Self("X-Request-Id")!
    public static let xForwardedFor = Self("X-Forwarded-For")!
    public static let xForwardedProto = Self("X-Forwarded-Proto")!
    public static let xForwardedURI = Self("X-Forwarded-Uri")!
    public static let xForwardedHost = Self("X-Forwarded-Host")!
    public static let forwarded = Self("Forwarded")!
    public static let xRealIP = Self("X-Real-IP")!
    public static let secFetchSite = Self("Sec-Fetch-Site")!
    public static let pragma = Self("Pragma")!
    public static let idempotencyKey = Self("Idempotency-Key")!
    public static let xFrameOptions = Self("X-Frame-Options")!
    public static let referrerPolicy = Self("Referrer-Policy")!
    public static let permissionsPolicy = Self("Permissions-Policy")!
    public static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}

extension HTTPFields {
    /// Whether an element of a comma-separated list field (RFC 9110 §5.6.1), over all its
    /// lines, trimmed and not empty, matches: `Vary: Cookie, Accept-Encoding` has two. Asked on
    /// every response (Vary, Connection), so it builds no list of the elements.
    public func containsListElement(_ name: HTTPField.Name, where matches: (Substring) -> Bool) -> Bool {
        for field in self where field.name == name {
            for element in field.value.split(separator: ",") {
                let trimmed = element.trimmingWhitespace()
                if !trimmed.isEmpty, matches(trimmed) { return true }
            }
        }
        return false
    }
}

extension Substring {
    /// Whether this is `lowercase` ignoring ASCII case, compared on bytes (no lowered copy made:
    /// these run on every answer's `Connection` and `Vary`).
    public func equalsIgnoringCase(_ lowercase: String) -> Bool {
        assert(!lowercase.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }, "\(lowercase) is not lowercase")
        return utf8.count == lowercase.utf8.count
            && zip(utf8, lowercase.utf8).allSatisfy { byte, wanted in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
            }
    }

    /// Without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
