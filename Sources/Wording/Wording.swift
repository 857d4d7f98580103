import Foundation

/// The catalogs of every ``Language``, read from a folder of `<code>.json` files at start-up and
/// checked: a language missing a key, a key with other placeholders than English's, a plural
/// without both forms, or a key that is also another's prefix stops the start (and fails the
/// tests), naming the key.
public struct Wording: Sendable {
    private let catalogs: [Language: Catalog]

    /// What is wrong with a set of catalogs, one sentence per problem.
    public struct Problems: Error, CustomStringConvertible {
        public let problems: [String]
        public var description: String { problems.joined(separator: "\n") }

        public init(problems: [String]) {
            self.problems = problems
        }
    }

    public init(catalogs: [Catalog]) throws {
        var byLanguage: [Language: Catalog] = [:]
        for catalog in catalogs { byLanguage[catalog.language] = catalog }
        self.catalogs = byLanguage
        let problems = Self.problems(in: byLanguage)
        if !problems.isEmpty { throw Problems(problems: problems) }
    }

    /// Reads `<code>.json` for every language from `directory`.
    public init(directory: String) throws {
        try self.init(
            catalogs: try Language.allCases.map { language in
                let path = (directory as NSString).appendingPathComponent("\(language.code).json")
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw Problems(problems: ["\(path): no such file"])
                }
                return try Self.parse(data, language: language, name: path)
            })
    }

    /// The parts a sentence with placeholders is split into for templates
    /// (``Catalog/templateValues``): never keys of their own.
    static let splitParts = [".before", ".after", ".between", ".trimmed"]

    public subscript(_ language: Language) -> Catalog {
        catalogs[language] ?? catalogs[.english]!
    }

    /// A catalog file: one JSON object, each value a string or `{"one": …, "other": …}`.
    public static func parse(_ data: Data, language: Language, name: String) throws -> Catalog {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Problems(problems: ["\(name): not a JSON object"])
        }
        var entries: [String: Catalog.Entry] = [:]
        var problems: [String] = []
        for (key, value) in object {
            if let text = value as? String {
                entries[key] = .text(text)
            } else if let forms = value as? [String: Any], let one = forms["one"] as? String,
                let other = forms["other"] as? String, forms.count == 2
            {
                entries[key] = .plural(one: one, other: other)
            } else {
                problems.append("\(name): \(key) is neither a sentence nor {\"one\", \"other\"}")
            }
        }
        if !problems.isEmpty { throw Problems(problems: problems.sorted()) }
        return Catalog(language: language, entries: entries)
    }

    /// Every language has English's keys, no others, each with the same kind of entry and the
    /// same placeholders; no key is a prefix of another (`a.b` and `a.b.c`).
    static func problems(in catalogs: [Language: Catalog]) -> [String] {
        guard let english = catalogs[.english] else { return ["no English catalog"] }
        var problems: [String] = []
        for language in Language.allCases {
            guard let catalog = catalogs[language] else {
                problems.append("no catalog for \(language.code)")
                continue
            }
            for key in english.entries.keys.sorted() {
                guard let entry = catalog.entries[key] else {
                    problems.append("\(language.code): \(key) is missing")
                    continue
                }
                let ours = Set(english.entries[key]!.forms.flatMap(Catalog.placeholders))
                let theirs = Set(entry.forms.flatMap(Catalog.placeholders))
                if ours != theirs {
                    problems.append(
                        "\(language.code): \(key) has placeholders \(theirs.sorted()), English \(ours.sorted())")
                }
                if case .plural = english.entries[key]!, case .text = entry {
                    problems.append("\(language.code): \(key) must be a plural, as in English")
                }
            }
            for key in catalog.entries.keys.sorted() where english.entries[key] == nil {
                problems.append("\(language.code): \(key) is not in English")
            }
        }
        let keys = english.entries.keys.sorted()
        // The parts a sentence is split into for templates are not keys of their own.
        for key in keys where Self.splitParts.contains(where: { key.hasSuffix($0) }) {
            problems.append("\(key) ends like a part of a split sentence")
        }
        for (key, next) in zip(keys, keys.dropFirst()) where next.hasPrefix(key + ".") {
            problems.append("\(key) is both a sentence and the start of \(next)")
        }
        return problems
    }

    /// The keys `templates` use (`{{t.a.b}}`, `{{#t.a.b}}`, `{{t.a.b.before}}`) that the catalogs
    /// lack: a template naming a word that does not exist.
    public func missingKeys(inTemplates templates: [String: String]) -> [String] {
        let english = self[.english]
        var missing: Set<String> = []
        for (name, text) in templates {
            for match in text.matches(of: /\{\{[#^\/]?\s*t\.([A-Za-z0-9_.]+)\s*\}\}/) {
                var key = String(match.1)
                for part in Self.splitParts where key.hasSuffix(part) {
                    key.removeLast(part.count)
                }
                if !english.has(key) { missing.insert("\(name): t.\(key)") }
            }
        }
        return missing.sorted()
    }
}
