import Foundation

/// A language the pages, texts and calls are in. Its words are in `Locales/<code>.json`.
public enum Language: String, CaseIterable, Sendable, Hashable {
    case english = "en"
    /// US Spanish (login.gov's wording where it has the same thing).
    case spanish = "es"

    /// The BCP 47 tag for `<html lang>` and the code of its catalog file.
    public var code: String { rawValue }

    /// The language asked for by a tag (`es`, `es-MX`, `EN-us`), if it is one of ours.
    public init?(tag: Substring) {
        let primary = tag.split(separator: "-", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard let language = Language(rawValue: primary) else { return nil }
        self = language
    }

    /// The language an `Accept-Language` header prefers among ours (RFC 9110 §12.5.4): the
    /// highest q-value wins, the earlier on a tie; `q=0` means "not this one"; `*` is any
    /// (English). English when nothing matches, or the header is absent or malformed.
    public static func preferred(by header: String?) -> Language {
        guard let header, header.utf8.count <= 1024 else { return .english }
        var best: (language: Language, q: Double)?
        for item in header.split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    q = Double(pair[1].trimmingCharacters(in: .whitespaces)).map { min(max($0, 0), 1) } ?? 0
                }
            }
            let language = tag == "*" ? Language.english : Language(tag: Substring(tag))
            guard let language, q > 0 else { continue }
            if best == nil || q > best!.q { best = (language, q) }
        }
        return best?.language ?? .english
    }
}
