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
    /// The elements of a comma-separated list field (RFC 9110 §5.6.1), over all its lines,
    /// trimmed, empty ones dropped: `Vary: Cookie, Accept-Encoding` is two.
    public func listElements(_ name: HTTPField.Name) -> [Substring] {
        self[values: name].flatMap { line in
            line.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var trimmed = self
        while let first = trimmed.first, set.contains(first) { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, set.contains(last) { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
