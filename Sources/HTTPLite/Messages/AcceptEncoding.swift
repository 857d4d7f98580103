import HTTPTypes

/// What a request's `Accept-Encoding` says about gzip (RFC 9110 §12.5.3).
///
/// Only gzip is ever sent, so only one question matters: may this answer be gzip? A coding
/// named with `q=0` is refused, `*` stands for every coding not named, and a request without
/// the header gets the identity body (what curl and most scripts send). Parsing looks at the
/// bytes of the header only: no allocation for the common browser value
/// `gzip, deflate, br, zstd`.
public enum AcceptEncoding {
    /// Whether `headers` allow a gzip-coded answer.
    public static func allowsGzip(_ headers: HTTPFields) -> Bool {
        var gzip: Bool? = nil
        var any: Bool? = nil
        for value in headers[values: .acceptEncoding] {
            for element in value.split(separator: ",") {
                let (coding, accepted) = parse(element)
                if coding.elementsEqual("gzip".utf8, by: Self.equalIgnoringCase)
                    || coding.elementsEqual("x-gzip".utf8, by: Self.equalIgnoringCase)
                {
                    gzip = accepted
                } else if coding.elementsEqual("*".utf8) {
                    any = accepted
                }
            }
        }
        return gzip ?? any ?? false
    }

    /// One element, `gzip;q=0.5`: its coding (trimmed) and whether its weight is above zero.
    private static func parse(_ element: Substring) -> (coding: Substring.UTF8View, accepted: Bool) {
        let parts = element.split(separator: ";")
        let coding = (parts.first ?? "").trimmingSpaces.utf8
        for parameter in parts.dropFirst() {
            let trimmed = parameter.trimmingSpaces
            guard let first = trimmed.utf8.first, first == UInt8(ascii: "q") || first == UInt8(ascii: "Q"),
                let equals = trimmed.firstIndex(of: "=")
            else { continue }
            return (coding, Self.isPositive(trimmed[trimmed.index(after: equals)...].trimmingSpaces))
        }
        return (coding, true)
    }

    /// Whether a qvalue (`0`, `0.000`, `1`, `0.5`) is above zero; one that does not parse counts
    /// as zero, so a malformed weight never turns compression on.
    private static func isPositive(_ qvalue: Substring) -> Bool {
        guard !qvalue.isEmpty, qvalue.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (48...57).contains($0) }),
            qvalue.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1
        else { return false }
        return qvalue.utf8.contains { (49...57).contains($0) }
    }

    private static func equalIgnoringCase(_ a: UInt8, _ b: UInt8) -> Bool {
        a | 0x20 == b | 0x20
    }
}

extension Substring {
    /// Without the spaces and tabs around it (optional whitespace in header lists).
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
