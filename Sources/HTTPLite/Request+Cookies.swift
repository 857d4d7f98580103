import Foundation
extension Request {
    /// The cookies the browser sent, by name; with duplicate names the first wins (browsers
    /// send the most specific path first).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers["cookie"] {
            for piece in header.split(separator: ";") {
                guard let equals = piece.firstIndex(of: "=") else { continue }
                let name = piece[..<equals].trimmingCharacters(in: .whitespaces)
                var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                if !name.isEmpty, result[name] == nil { result[name] = value }
            }
        }
        return result
    }

    /// The value of one cookie.
    public func cookie(_ name: String) -> String? {
        cookies[name]
    }
}
