import Foundation

extension Request {
    /// The cookies the browser sent, by name; with duplicate names the first wins (browsers
    /// send the most specific path first).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        forEachCookie { name, value in
            if result[String(name)] == nil { result[String(name)] = value() }
            return false
        }
        return result
    }

    /// The value of one cookie (the first of that name). Scans the header without building
    /// the whole dictionary: middleware asks for a cookie or two on every request.
    public func cookie(_ name: String) -> String? {
        var found: String?
        forEachCookie { candidate, value in
            guard candidate == name else { return false }
            found = value()
            return true
        }
        return found
    }

    /// Every value sent for one cookie name, in the browser's order. A browser sends two when
    /// one cookie is the host's own and the other was set for a parent domain.
    public func cookieValues(_ name: String) -> [String] {
        var values: [String] = []
        forEachCookie { candidate, value in
            if candidate == name { values.append(value()) }
            return false
        }
        return values
    }

    /// Calls `body` with each `name=value` pair's trimmed name and a way to get its value
    /// (trimmed, surrounding quotes removed), until `body` returns true.
    ///
    /// Walks each `Cookie` header's UTF-8 once with indices: no array of headers, no array of
    /// pieces, a `String` only for a value that is asked for (a page asks for three to five
    /// cookies, and this was 5% of Home's time when it split the header on every call).
    private func forEachCookie(_ body: (Substring, () -> String) -> Bool) {
        for field in headers where field.name == .cookie {
            let header = field.value
            let utf8 = header.utf8
            var start = utf8.startIndex
            while start < utf8.endIndex {
                let end = utf8[start...].firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
                let piece = Substring(header[start..<end])
                start = end < utf8.endIndex ? utf8.index(after: end) : end
                guard let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = piece[..<equals].trimmingWhitespace()
                guard !name.isEmpty else { continue }
                let stop = body(name) {
                    let value = piece[piece.index(after: equals)...].trimmingWhitespace()
                    if value.utf8.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                        return String(value.dropFirst().dropLast())
                    }
                    return String(value)
                }
                if stop { return }
            }
        }
    }
}
