import Foundation
import Mustache
import TestSupport
import Testing

@testable import HTMLRender

/// The compiled templates against swift-mustache, the reference: the same bytes for the app's
/// own templates on random values, and for the spec's corner cases.
@Suite("Compiled templates")
struct CompiledTemplateTests {
    static let templatesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Templates").path

    @Test("every template of the app is compiled, so no page takes the slow way")
    func allCompiled() async throws {
        let renderer = try await PageRenderer(directory: Self.templatesFolder)
        #expect(renderer.notCompiled.isEmpty, "\(renderer.notCompiled)")
    }

    @Test("each of the app's templates renders the same bytes as swift-mustache, on 50 random value sets each")
    func sameAsMustacheOnRandomValues() async throws {
        let renderer = try await PageRenderer(directory: Self.templatesFolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.templatesFolder)
            .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }.sorted()
        #expect(names.count >= 9)
        let usage = try Usage(folder: Self.templatesFolder)
        var generator = SeededGenerator(seed: 16)
        for name in names {
            for _ in 0..<50 {
                // swift-mustache takes milliseconds per page in a debug build: let the other
                // suites' servers, on the same two cooperative threads, answer meanwhile.
                await Task.yield()
                let values = usage.randomValues(using: &generator)
                let compiled = try renderer.render(name, values)
                let reference = try renderer.renderWithMustache(name, values)
                #expect(compiled == reference, "\(name) with \(values)")
                if compiled != reference { return }
            }
        }
    }

    @Test("typed dictionaries and lists of them ([String: String], [[String: String]]) render as the same values given as Any")
    func typedShapes() async throws {
        let template = "{{#bar}}{{x}}<{{y}}>{{/bar}}|{{#rows}}{{a}},{{b}};{{/rows}}|{{^none}}empty{{/none}}|{{#bar}}{{title}}{{/bar}}"
        try await Self.withTemplates(["page": template]) { renderer in
            let typed: [String: Any] = [
                "bar": ["x": "1.0", "y": "<b>", "title": "outer"] as [String: String],
                "rows": [["a": "1", "b": "&"], ["a": "2"]] as [[String: String]],
                "none": [[String: String]](), "title": "outer",
            ]
            let untyped: [String: Any] = [
                "bar": ["x": "1.0", "y": "<b>", "title": "outer"] as [String: Any],
                "rows": [["a": "1", "b": "&"] as [String: Any], ["a": "2"] as [String: Any]] as [Any],
                "none": [Any](), "title": "outer",
            ]
            let expected = "1.0<&lt;b&gt;>|1,&amp;;2,;|empty|outer"
            let (fromTyped, fromUntyped) = (try renderer.render("page", typed), try renderer.render("page", untyped))
            let reference = try renderer.renderWithMustache("page", typed)
            #expect(fromTyped == expected)
            #expect(fromUntyped == expected)
            #expect(reference == expected)
        }
    }

    @Test("prepared values (a catalog converted once) render as the same values given plainly, in both renderers")
    func preparedValues() async throws {
        let words: [String: Any] = [
            "title": "Iniciar <sesión>", "signedInAs": ["before": "Inició sesión como ", "after": "."],
            "list": [["name": "a"], ["name": "b"]], "flag": true,
        ]
        let template =
            "{{t.title}}|{{t.signedInAs.before}}{{phone}}{{t.signedInAs.after}}|{{#t.list}}{{name}}{{/t.list}}|{{#t.flag}}y{{/t.flag}}"
        try await Self.withTemplates(["page": template]) { renderer in
            let plain: [String: Any] = ["t": words, "phone": "(530) 555-0123"]
            let prepared: [String: Any] = ["t": PreparedValues(words), "phone": "(530) 555-0123"]
            let expected = "Iniciar &lt;sesión&gt;|Inició sesión como (530) 555-0123.|ab|y"
            let (fromPlain, fromPrepared) = (try renderer.render("page", plain), try renderer.render("page", prepared))
            let reference = try renderer.renderWithMustache("page", prepared)
            #expect(fromPlain == expected)
            #expect(fromPrepared == expected)
            #expect(reference == expected)
        }
    }

    @Test(
        "the spec's corner cases render as swift-mustache renders them",
        arguments: [
            "a\n  {{#s}}\n  in\n  {{/s}}\nb\n",  // standalone section lines
            "  {{^s}}  \r\nno\r\n  {{/s}}  \r\n",  // CRLF and trailing white space
            "{{#s}}x{{/s}}\n{{! comment }}\n{{x}}",  // standalone comment
            " {{#s}} {{x}} {{/s}} ",  // not standalone: kept
            "{{#list}}[{{name}}|{{.name}}]{{/list}}{{#text}}{{.}}{{/text}}",  // the stack, anchored names, dot
            "{{#object}}{{name}} {{inner.name}} {{x}}{{/object}}",
            "{{^list}}empty{{/list}}{{^empty}}none{{/empty}}{{^missing}}gone{{/missing}}{{^null}}null{{/null}}",
            "{{#text}}<{{.}}>{{/text}}{{#blank}}({{.}}){{/blank}}{{#number}}{{.}}{{/number}}{{#null}}no{{/null}}",
            "{{flag}} {{no}} {{number}} {{null}} {{missing}} {{object.missing.deeper}}",
            "{{ x }}{{# s }}{{ x }}{{/ s }}",
        ])
    func cornerCases(template: String) async throws {
        let values: [String: Any] = [
            "s": true, "x": "<x&'\">", "list": [["name": "a"], ["other": "b"]] as [[String: Any]],
            "empty": [String](), "object": ["name": "o", "inner": ["name": "i"]] as [String: Any],
            "text": "t", "blank": "", "number": 42, "null": String?.none as Any, "flag": true, "no": false,
            "name": "top",
        ]
        try await Self.withTemplates(["page": template]) { renderer in
            #expect(renderer.notCompiled.isEmpty, "\(renderer.notCompiled)")
            let compiled = try renderer.render("page", values)
            let reference = try renderer.renderWithMustache("page", values)
            #expect(compiled == reference)
        }
    }

    @Test("inheritance through two layouts: the blocks furthest down win, defaults fill the rest")
    func inheritance() async throws {
        try await Self.withTemplates([
            "base": "<{{$a}}base a{{/a}}|{{$b}}base b{{/b}}|{{$c}}base c{{/c}}>\n",
            "middle": "{{<base}}\n{{$a}}middle a{{/a}}\n{{$b}}middle b {{x}}{{/b}}\n{{/base}}\n",
            "page": "{{<middle}}\n{{$b}}page b {{#s}}{{x}}{{/s}}{{/b}}\nignored\n{{/middle}}\n",
        ]) { renderer in
            #expect(renderer.notCompiled.isEmpty)
            let values: [String: Any] = ["x": "&", "s": true]
            let html = try renderer.render("page", values)
            #expect(html == "<middle a|page b &amp;|base c>\n")
            let reference = try renderer.renderWithMustache("page", values)
            #expect(html == reference)
        }
    }

    @Test(
        "a template needing more than the compiled subset is rendered by swift-mustache, the same way",
        arguments: [
            // (A change of delimiters, {{= =}}, is refused at load: RenderingTests.refusesDelimiters.)
            "{{>other}}", "{{#list}}{{#first}}1{{/first}}{{/list}}x", "{{<nowhere}}{{/nowhere}}",
        ])
    func leftToMustache(template: String) async throws {
        try await Self.withTemplates(["page": template, "other": "other {{x}}"]) { renderer in
            let values: [String: Any] = ["x": "y", "list": ["a", "b"]]
            let compiled = try renderer.render("page", values)
            let reference = try renderer.renderWithMustache("page", values)
            #expect(compiled == reference)
        }
        try await Self.withTemplates(["page": template, "other": "other {{x}}"]) { renderer in
            if template.contains(">") || template.contains("=") || template.contains("nowhere") {
                #expect(renderer.notCompiled["page"] != nil)
            }
        }
    }

    /// A renderer for the given templates.
    static func withTemplates(_ files: [String: String], _ body: (PageRenderer) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compiled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name + ".mustache"), atomically: true, encoding: .utf8)
        }
        try await body(try await PageRenderer(directory: folder.path))
    }
}

/// How the app's templates use names: which are printed (`{{name}}`) and which open sections
/// or lead dotted names, so random values put texts where text is printed and lists and
/// objects where sections and dotted names go (swift-mustache prints a list's or an object's
/// Swift description, which no template wants).
private struct Usage {
    var printed: Set<String> = []
    var sections: Set<String> = []

    init(folder: String) throws {
        let regex = try NSRegularExpression(pattern: #"\{\{([#^]?)\s*([A-Za-z0-9_.?-]+)\s*\}\}"#)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".mustache") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let sigil = String(text[Range(match.range(at: 1), in: text)!])
                let parts = text[Range(match.range(at: 2), in: text)!].split(separator: ".").map(String.init)
                sections.formUnion(parts.dropLast())
                if sigil.isEmpty { printed.insert(parts.last!) } else { sections.insert(parts.last!) }
            }
        }
    }

    /// Each name is given a value with a chance of one in two at the top, one in 32 inside a
    /// section: the objects and lists inside sections stay small however many names the
    /// templates use (every name at every level made a page's values grow with the cube of the
    /// names, and the test took minutes once the account pages were added).
    func randomValues(using generator: inout SeededGenerator, depth: Int = 0) -> [String: Any] {
        var values: [String: Any] = [:]
        for name in printed.union(sections).sorted() where Int.random(in: 0..<(depth == 0 ? 2 : 32), using: &generator) == 0 {
            values[name] = randomValue(for: name, depth: depth, using: &generator)
        }
        return values
    }

    private func randomValue(for name: String, depth: Int, using generator: inout SeededGenerator) -> Any {
        let scalars: [Any] = [
            "", "plain", "<b>&\"'", "(415) 555-0100", "é👍\n", true, false, 0, 12_345, String?.none as Any,
            String?.some("wrapped") as Any,
        ]
        let structured = sections.contains(name) && !printed.contains(name) && depth < 2
        switch Int.random(in: 0..<(structured ? 4 : 2), using: &generator) {
        case 2:
            return (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                randomValues(using: &generator, depth: depth + 1)
            }
        case 3:
            return randomValues(using: &generator, depth: depth + 1)
        default:
            return scalars.randomElement(using: &generator)!
        }
    }
}
