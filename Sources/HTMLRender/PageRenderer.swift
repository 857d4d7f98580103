import Foundation
import Mustache

/// Renders pages from `Templates/*.mustache`.
///
/// All templates are read and parsed once, at start-up; rendering never touches the disk.
/// Every `{{value}}` is HTML-escaped (by ``HTMLEscaping``, which each template is set to with
/// swift-mustache's `CONTENT_TYPE` pragma); templates that try to opt out of escaping
/// (`{{{value}}}` or `{{& value}}`) are refused when loading, so escaping cannot be forgotten
/// in one place.
public struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    /// The same templates compiled (``CompiledTemplate``): each one this holds is rendered that
    /// way; one that needs more than the compiled subset is rendered by swift-mustache.
    private let compiled: CompiledTemplate.Library
    /// Why each template left out of ``compiled`` was, for the tests.
    let notCompiled: [String: String]
    /// The text of every inline script the templates hold (`<script>…</script>`, no attributes),
    /// each static text with no `{{` in it, so what a page runs inline is fixed when the app
    /// starts and its hash can go in the Content-Security-Policy. A template with any other
    /// inline script (with a value in it, or attributes but no `src`) is refused when loading.
    public let inlineScripts: [String]

    /// Loads every template in `directory` and checks that each of `required` is there.
    public init(directory: String, required: [String] = []) async throws(TemplateError) {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .folderUnreadable(directory)
        }
        let names = Set(files.filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) })
        var library = MustacheLibrary()
        var compiled = CompiledTemplate.Library()
        var notCompiled: [String: String] = [:]
        var inlineScripts: [String] = []
        HTMLEscaping.register()
        for name in names.sorted() {
            let path = (directory as NSString).appendingPathComponent(name + ".mustache")
            guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) })
            else { throw .unreadable(path) }
            // Triple braces, `{{&` and a content-type pragma of its own would each print text
            // unescaped.
            // A change of delimiters ({{= =}}) would let either through unseen.
            if text.contains("{{{") || text.range(of: #"\{\{\s*&"#, options: .regularExpression) != nil
                || text.contains("CONTENT_TYPE") || text.range(of: #"\{\{\s*="#, options: .regularExpression) != nil
            {
                throw .unescapedOutput(path)
            }
            guard let scripts = Self.inlineScripts(in: text) else { throw .scriptNotStatic(path) }
            inlineScripts += scripts.filter { !inlineScripts.contains($0) }
            do {
                try library.register(HTMLEscaping.pragma + text, named: name)
            } catch {
                throw .invalid("\(name).mustache: \(error)")
            }
            do {
                compiled[name] = try CompiledTemplate(HTMLEscaping.pragma + text)
            } catch {
                notCompiled[name] = error.reason
            }
        }
        let missing = required.filter { !names.contains($0) }
        guard missing.isEmpty else { throw .missing(missing, directory: directory) }
        self.library = library
        // A template is compiled only with every template it inherits from, down to the last.
        var changed = true
        while changed {
            changed = false
            for (name, template) in compiled where !template.parents.allSatisfy({ compiled[$0] != nil }) {
                compiled[name] = nil
                notCompiled[name] = "it inherits from a template that is not compiled or not there"
                changed = true
            }
        }
        compiled = compiled.filter { !Self.inheritsFromItself($0.key, in: compiled) }
        self.compiled = compiled
        self.notCompiled = notCompiled
        self.inlineScripts = inlineScripts
    }

    /// The texts of `template`'s inline scripts, or `nil` when one is not static: a `<script>`
    /// element without a `src` attribute that has any attribute at all, or whose text holds `{{`
    /// (or one with a `src` and text beside it).
    /// Mustache comments are not looked in (they are never rendered), and each text is taken with
    /// its line breaks as a browser hashes it (CR LF and CR as LF).
    static func inlineScripts(in template: String) -> [String]? {
        var scripts: [String] = []
        var rest = withoutComments(template)[...]
        while let open = rest.range(of: "<script", options: .caseInsensitive) {
            rest = rest[open.upperBound...]
            // `<scripts`, say, is not a script element.
            guard let next = rest.first, next == ">" || next == "/" || next.isWhitespace else { continue }
            guard let (names, end) = attributes(rest) else { return nil }
            rest = rest[end...]
            guard let close = rest.range(of: "</script", options: .caseInsensitive) else { return nil }
            let text = rest[..<close.lowerBound]
            // A script with a `src` runs that file; text beside it would be a mistake (never run).
            if names.contains("src") {
                guard text.allSatisfy(\.isWhitespace) else { return nil }
                rest = rest[close.upperBound...]
                continue
            }
            guard names.isEmpty else { return nil }
            guard !text.contains("{{") else { return nil }
            let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            scripts.append(normalized)
            rest = rest[close.upperBound...]
        }
        return scripts
    }

    /// `template` without its `{{! … }}` comments.
    private static func withoutComments(_ template: String) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.range(of: "{{!") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { return out }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The attribute names (lower-cased) of a start tag whose name has just been read, and where
    /// the text after its `>` begins; `nil` when the tag does not end or an attribute is malformed.
    /// Quoted values may hold `>` and anything else.
    private static func attributes(_ tag: Substring) -> (names: [String], end: Substring.Index)? {
        var names: [String] = []
        var index = tag.startIndex
        func skipSpace() { while index < tag.endIndex, tag[index].isWhitespace || tag[index] == "/" { index = tag.index(after: index) } }
        while true {
            skipSpace()
            guard index < tag.endIndex else { return nil }
            if tag[index] == ">" { return (names, tag.index(after: index)) }
            let nameStart = index
            while index < tag.endIndex, !tag[index].isWhitespace, !"=>/\"'".contains(tag[index]) {
                index = tag.index(after: index)
            }
            guard index > nameStart else { return nil }
            names.append(tag[nameStart..<index].lowercased())
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "=" else { continue }
            index = tag.index(after: index)
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex else { return nil }
            if tag[index] == "\"" || tag[index] == "'" {
                let quote = tag[index]
                guard let close = tag[tag.index(after: index)...].firstIndex(of: quote) else { return nil }
                index = tag.index(after: close)
            } else {
                while index < tag.endIndex, !tag[index].isWhitespace, tag[index] != ">" { index = tag.index(after: index) }
            }
        }
    }

    private static func inheritsFromItself(_ name: String, in library: CompiledTemplate.Library) -> Bool {
        var seen: Set<String> = [name]
        var next = library[name]?.parents ?? []
        while !next.isEmpty {
            if !next.isDisjoint(with: seen) { return true }
            seen.formUnion(next)
            next = Set(next.flatMap { library[$0]?.parents ?? [] })
        }
        return false
    }

    /// Renders the template `name` with `values` (dictionaries, arrays, strings, numbers, Bools).
    public func render(_ name: String, _ values: [String: Any]) throws(TemplateError) -> String {
        if let template = compiled[name] { return template.render(values, library: compiled) }
        return try renderWithMustache(name, values)
    }

    /// Renders with swift-mustache, the reference the compiled templates are tested against.
    func renderWithMustache(_ name: String, _ values: [String: Any]) throws(TemplateError) -> String {
        guard let html = library.render(PageValues(values), withTemplate: name) else {
            throw .missing([name], directory: "")
        }
        return html
    }
}

/// Why templates could not be loaded or a page rendered.
public enum TemplateError: Error, CustomStringConvertible, Equatable {
    /// The templates folder does not exist or cannot be listed.
    case folderUnreadable(String)
    /// A template file cannot be read as UTF-8.
    case unreadable(String)
    /// Templates the app needs are not in the folder.
    case missing([String], directory: String)
    /// A template uses triple braces, `{{&` or a change of delimiters, which could print text
    /// without escaping it.
    case unescapedOutput(String)
    /// swift-mustache could not parse a template.
    case invalid(String)
    /// An inline script is not static text (``PageRenderer/inlineScripts``).
    case scriptNotStatic(String)

    public var description: String {
        switch self {
        case .folderUnreadable(let path):
            "Templates folder \(path) cannot be read. Run from the project folder or pass --templates."
        case .unreadable(let path): "Template \(path) cannot be read as UTF-8 text."
        case .missing(let names, let directory):
            "Missing template(s) \(names.map { $0 + ".mustache" }.joined(separator: ", ")) in \(directory.isEmpty ? "the templates folder" : directory)."
        case .unescapedOutput(let path):
            "Template \(path) prints unescaped text ({{{ }}} or {{& }}) or changes delimiters ({{= =}}); use {{ }}."
        case .invalid(let reason): "A template could not be parsed: \(reason)"
        case .scriptNotStatic(let path):
            "Template \(path) has an inline script that is not fixed text (a value in it, or attributes without src); "
                + "a script's values go in data- attributes."
        }
    }
}

/// A page's values as swift-mustache looks them up: a final class with its own `child(named:)`.
/// Asking whether a `[String: Any]` is a `MustacheParent` goes through Dictionary's conditional
/// conformance on every `{{name}}`, which costs more than the lookup itself.
final class PageValues: MustacheParent, @unchecked Sendable {
    private let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values.mapValues { value in
            switch value {
            case let nested as [String: Any]: PageValues(nested)
            case let prepared as PreparedValues: PageValues(prepared.original)
            case let list as [[String: Any]]: list.map(PageValues.init)
            default: value
            }
        }
    }

    func child(named name: String) -> Any? { values[name] }
}

/// HTML escaping for every `{{value}}`: `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`,
/// `&gt;`, `&quot;` and `&#39;`, exactly as swift-mustache's built-in HTML type does (a test
/// compares the two on random text), but on UTF-8 bytes and returning the text untouched when
/// nothing needs escaping. The built-in one looks each Character up in a dictionary, which was
/// the largest part of rendering a page (docs/BENCHMARKS.md). Working on bytes is safe: the five
/// characters are ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII.
public struct HTMLEscaping: MustacheContentType {
    /// The name templates select it by.
    public static let name = "HTML_ESCAPED"
    /// Put before each template's text: every value in it (and in the layouts and partials it
    /// uses, which carry it too) is escaped by this type.
    static let pragma = "{{% CONTENT_TYPE: \(name)}}"

    public init() {}

    /// Makes ``name`` known to swift-mustache's parser (idempotent).
    public static func register() {
        MustacheContentTypes.register(HTMLEscaping(), named: name)
    }

    public func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: Self.needsEscaping) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 24)
        Self.append(text, to: &escaped)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Appends `text` escaped to `output` (how ``CompiledTemplate`` writes a value).
    static func append(_ text: String, to output: inout [UInt8]) {
        let utf8 = text.utf8
        guard utf8.contains(where: needsEscaping) else {
            output.append(contentsOf: utf8)
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#39;".utf8)
            default: output.append(byte)
            }
        }
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
