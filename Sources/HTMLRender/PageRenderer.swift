import Foundation
import Mustache

/// Renders pages from `Templates/*.mustache`.
///
/// All templates are read and parsed once, at start-up; rendering never touches the disk.
/// Every `{{value}}` is HTML-escaped by swift-mustache; templates that try to opt out of
/// escaping (`{{{value}}}` or `{{& value}}`) are refused when loading, so escaping cannot be
/// forgotten in one place.
public struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    /// The template names that were loaded.
    public let templateNames: Set<String>

    /// Loads every template in `directory` and checks that each of `required` is there.
    public init(directory: String, required: [String] = []) async throws(TemplateError) {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .folderUnreadable(directory)
        }
        let names = Set(files.filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) })
        for name in names.sorted() {
            let path = (directory as NSString).appendingPathComponent(name + ".mustache")
            guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) })
            else { throw .unreadable(path) }
            if text.contains("{{{") || text.range(of: #"\{\{\s*&"#, options: .regularExpression) != nil {
                throw .unescapedOutput(path)
            }
        }
        let missing = required.filter { !names.contains($0) }
        guard missing.isEmpty else { throw .missing(missing, directory: directory) }
        do {
            library = try await MustacheLibrary(directory: directory)
        } catch {
            throw .invalid("\(error)")
        }
        templateNames = names
    }

    /// Renders the template `name` with `values` (dictionaries, arrays, strings, numbers, Bools).
    public func render(_ name: String, _ values: [String: Any]) throws(TemplateError) -> String {
        guard let html = library.render(values, withTemplate: name) else { throw .missing([name], directory: "") }
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
    /// A template uses triple braces or `{{&`, which would print text without escaping it.
    case unescapedOutput(String)
    /// swift-mustache could not parse a template.
    case invalid(String)

    public var description: String {
        switch self {
        case .folderUnreadable(let path):
            "Templates folder \(path) cannot be read. Run from the project folder or pass --templates."
        case .unreadable(let path): "Template \(path) cannot be read as UTF-8 text."
        case .missing(let names, let directory):
            "Missing template(s) \(names.map { $0 + ".mustache" }.joined(separator: ", ")) in \(directory.isEmpty ? "the templates folder" : directory)."
        case .unescapedOutput(let path): "Template \(path) prints unescaped text ({{{ }}} or {{& }}); use {{ }}."
        case .invalid(let reason): "A template could not be parsed: \(reason)"
        }
    }
}
