import Foundation

/// Every word of one language, by key (`login.title`): what the pages, the API's messages, the
/// pages' scripts, texts and calls say. Loaded from `Locales/<code>.json` by ``Wording``, which
/// checks that every language has the same keys with the same placeholders.
///
/// An entry is a sentence with `{name}` placeholders, or a plural: `{"one": "1 intento",
/// "other": "{n} intentos"}`, chosen by the count `n` (English and Spanish both say "one" for 1
/// and "other" for anything else).
public struct Catalog: Sendable {
    public enum Entry: Sendable, Equatable {
        case text(String)
        case plural(one: String, other: String)

        /// Every form's text.
        var forms: [String] {
            switch self {
            case .text(let text): [text]
            case .plural(let one, let other): [one, other]
            }
        }
    }

    public let language: Language
    let entries: [String: Entry]

    public init(language: Language, entries: [String: Entry]) {
        self.language = language
        self.entries = entries
    }

    /// Whether the catalog has `key`.
    public func has(_ key: String) -> Bool { entries[key] != nil }

    /// The sentence `key` with its placeholders filled from `arguments`. A missing key gives the
    /// key itself (the tests fail on any, so a person never sees one).
    public func callAsFunction(_ key: String, _ arguments: [String: String] = [:]) -> String {
        switch entries[key] {
        case .text(let text): Self.fill(text, arguments)
        case .plural(_, let other): Self.fill(other, arguments)
        case nil: key
        }
    }

    /// The plural `key` for `count` (its `{n}`), with the other placeholders from `arguments`.
    public func plural(_ key: String, count: Int, _ arguments: [String: String] = [:]) -> String {
        var arguments = arguments
        arguments["n"] = String(count)
        switch entries[key] {
        case .plural(let one, let other): return Self.fill(count == 1 ? one : other, arguments)
        case .text(let text): return Self.fill(text, arguments)
        case nil: return key
        }
    }

    /// The sentence `key` split around its `{name}` placeholder, the other placeholders filled
    /// from `arguments`: for a page or script that puts markup around that one value. `nil` when
    /// the sentence has no such placeholder.
    public func split(_ key: String, around name: String, _ arguments: [String: String] = [:])
        -> (before: String, after: String)?
    {
        guard case .text(let text) = entries[key], let range = text.range(of: "{\(name)}") else { return nil }
        return (
            Self.fill(String(text[..<range.lowerBound]), arguments),
            Self.fill(String(text[range.upperBound...]), arguments)
        )
    }

    /// A plural's two forms as written, `{n}` and all (for the pages' scripts); a sentence's text
    /// twice.
    public func forms(_ key: String) -> (one: String, other: String) {
        switch entries[key] {
        case .plural(let one, let other): (one, other)
        case .text(let text): (text, text)
        case nil: (key, key)
        }
    }

    /// "45 seconds", "9 minutes", "3 hours": rounded up, in the largest unit that fits.
    public func duration(seconds: Int) -> String {
        if seconds < 60 { return plural("time.seconds", count: max(1, seconds)) }
        if seconds < 3600 { return plural("time.minutes", count: (seconds + 59) / 60) }
        return plural("time.hours", count: (seconds + 3599) / 3600)
    }

    /// "in 9 minutes" ("en 9 minutos"), or "now" for a wait that is over: the phrase the pages'
    /// countdown replaces as the wait runs.
    public func wait(seconds: Int) -> String {
        seconds > 0 ? self("time.in", ["duration": duration(seconds: seconds)]) : self("time.now")
    }

    /// `text` with each `{name}` replaced by `arguments[name]` (left as it is when not given).
    ///
    /// Worked on UTF-8 bytes (the braces are ASCII, and no byte of a multi-byte character is):
    /// a page can fill hundreds of sentences (the console's glance titles every bar), and
    /// walking Characters cost it about a sixth of its time.
    static func fill(_ text: String, _ arguments: [String: String]) -> String {
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        guard !arguments.isEmpty, text.utf8.contains(open) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        var index = 0
        while index < bytes.count {
            if bytes[index] == open, let end = bytes[(index + 1)...].firstIndex(of: close),
                let value = arguments[String(decoding: bytes[(index + 1)..<end], as: UTF8.self)]
            {
                out.append(contentsOf: value.utf8)
                index = end + 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The `{name}` placeholders of `text`, in order.
    static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{([A-Za-z][A-Za-z0-9]*)\}/).map { String($0.1) }
    }

    /// The catalog as nested dictionaries for the templates (`{{t.login.title}}`). A sentence
    /// with placeholders is split around them, so a template can put markup around each value:
    /// `{{t.home.signedInAs.before}}<strong>{{phone}}</strong>{{t.home.signedInAs.after}}`
    /// (and `between`, for a second placeholder; `trimmed`, the part before without its last space).
    public var templateValues: [String: Any] {
        var root: [String: Any] = [:]
        for (key, entry) in entries {
            guard case .text(let text) = entry else { continue }
            let value: Any
            if Self.placeholders(text).isEmpty {
                value = text
            } else {
                let parts = text.split(separator: /\{[A-Za-z][A-Za-z0-9]*\}/, omittingEmptySubsequences: false)
                    .map(String.init)
                var split: [String: String] = ["before": parts.first ?? "", "after": parts.last ?? ""]
                // `before` without its last space, for a template that puts the space inside the
                // value's element (WebKit leaves a space before an element out of an accessible name).
                if let before = parts.first, before.hasSuffix(" ") { split["trimmed"] = String(before.dropLast()) }
                if parts.count > 2 { split["between"] = parts[1] }
                value = split
            }
            Self.insert(value, at: key.split(separator: ".").map(String.init)[...], into: &root)
        }
        return root
    }

    private static func insert(_ value: Any, at path: ArraySlice<String>, into dictionary: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            dictionary[first] = value
            return
        }
        var child = dictionary[first] as? [String: Any] ?? [:]
        insert(value, at: path.dropFirst(), into: &child)
        dictionary[first] = child
    }
}
