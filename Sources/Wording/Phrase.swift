/// A sentence to say, by its key and the values of its placeholders, in whatever language the
/// person reads: what errors and notices carry instead of words. ``Catalog`` turns it into
/// text.
public struct Phrase: Sendable, Equatable, CustomStringConvertible {
    /// A placeholder's value: plain text, or something each language says its own way.
    public indirect enum Value: Sendable, Equatable {
        case text(String)
        /// "9 minutes" (rounded up, in the largest unit that fits).
        case duration(seconds: Int)
        /// "in 9 minutes", or "now" once the wait is over (the phrase the countdown updates).
        case wait(seconds: Int)
        /// A number that chooses the plural form (the `{n}` of a plural entry).
        case count(Int)
        /// Another sentence, said first.
        case phrase(Phrase)
    }

    public let key: String
    public var values: [String: Value]

    public init(_ key: String, _ values: [String: Value] = [:]) {
        self.key = key
        self.values = values
    }

    /// The key and values, for logs and test failures (never shown to people).
    public var description: String { values.isEmpty ? key : "\(key) \(values)" }
}

extension Catalog {
    /// `phrase` in this language.
    public func callAsFunction(_ phrase: Phrase) -> String {
        var arguments: [String: String] = [:]
        var count: Int?
        for (name, value) in phrase.values {
            switch value {
            case .text(let text): arguments[name] = text
            case .duration(let seconds): arguments[name] = duration(seconds: seconds)
            case .wait(let seconds): arguments[name] = wait(seconds: seconds)
            case .count(let n):
                arguments[name] = String(n)
                if name == "n" { count = n }
            case .phrase(let inner): arguments[name] = self(inner)
            }
        }
        if let count { return plural(phrase.key, count: count, arguments) }
        return self(phrase.key, arguments)
    }
}
