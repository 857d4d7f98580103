import Foundation
import Mustache
import TestSupport
import Testing

@testable import HTMLRender

@Suite("Page rendering")
struct RenderingTests {
    /// A folder of templates for one test, removed after.
    func withTemplates(_ files: [String: String], _ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name + ".mustache"), atomically: true, encoding: .utf8)
        }
        try await body(folder.path)
    }

    @Test("our escaping is swift-mustache's HTML escaping, on 20,000 random texts")
    func sameAsMustache() throws {
        let reference = try MustacheTemplate(string: "{{value}}")
        let alphabet: [String] = [
            "a", "Z", "0", " ", "&", "<", ">", "\"", "'", "/", "=", "`", "é", "e\u{301}", "👍", "🇺🇸", "中", "\n", "\t",
            "&amp;", ";",
        ]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            #expect(HTMLEscaping().escapeText(text) == reference.render(["value": text]), "\(text.debugDescription)")
        }
    }

    @Test("values are escaped in a page, its layout blocks and its sections; untouched text is returned as is")
    func escapedEverywhere() async throws {
        try await withTemplates([
            "layout": "<title>{{$title}}{{/title}}</title><main>{{$content}}{{/content}}</main>",
            "page":
                "{{<layout}}{{$title}}{{name}}{{/title}}{{$content}}{{#items}}<li>{{.}}</li>{{/items}}{{/content}}{{/layout}}",
        ]) { folder in
            let renderer = try await PageRenderer(directory: folder, required: ["page"])
            let html = try renderer.render("page", ["name": "<b>Tom & 'Jerry'</b>", "items": ["\"x\"", "ok"]])
            #expect(
                html
                    == "<title>&lt;b&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;</title><main><li>&quot;x&quot;</li><li>ok</li></main>"
            )
        }
        #expect(HTMLEscaping().escapeText("(415) 555-0100") == "(415) 555-0100")
    }

    @Test(
        "templates that would print unescaped text are refused at load",
        arguments: ["{{{name}}}", "{{& name}}", "{{&name}}", "{{% CONTENT_TYPE: TEXT}}{{name}}"])
    func refusesUnescaped(template: String) async throws {
        try await withTemplates(["page": template]) { folder in
            await #expect(throws: TemplateError.self) { _ = try await PageRenderer(directory: folder) }
        }
    }

    @Test(
        "an inline script with a value in it, or attributes and no src, is refused at load",
        arguments: [
            "<script>var who = \"{{name}}\";</script>", "<script type=\"module\">go()</script>",
            "<SCRIPT>{{#a}}x{{/a}}</SCRIPT>", "<script>never closed",
            // `src=` somewhere in an attribute is not a src attribute.
            "<script data-src=\"x\">var l = \"{{lang}}\";</script>", "<script data-x=\"src=\">{{lang}}</script>",
            "<script data-x=\">\" src>{{lang}}</script>x",
        ])
    func refusesDynamicScript(template: String) async throws {
        try await withTemplates(["page": template]) { folder in
            await #expect(throws: TemplateError.scriptNotStatic(folder + "/page.mustache")) {
                _ = try await PageRenderer(directory: folder)
            }
        }
    }

    @Test(
        "a change of delimiters is refused at load (it could hide a value in a script or print one unescaped)",
        arguments: ["{{=<% %>=}}<script><%lang%></script><%={{ }}=%>", "{{ = [ ] = }}[name]"])
    func refusesDelimiters(template: String) async throws {
        try await withTemplates(["page": template]) { folder in
            await #expect(throws: TemplateError.unescapedOutput(folder + "/page.mustache")) {
                _ = try await PageRenderer(directory: folder)
            }
        }
    }

    @Test("a script in a mustache comment is never rendered, so it is not listed; CR LF is listed as a browser hashes it")
    func inlineScriptsSeenAsBrowsersSee() async throws {
        try await withTemplates([
            "page": "{{! <script>alert(document.cookie)</script> }}<script src=\"/a.js\" data-x=\">\"></script><script>a();\r\nb();\rc();</script>"
        ]) { folder in
            let renderer = try await PageRenderer(directory: folder)
            #expect(renderer.inlineScripts == ["a();\nb();\nc();"])
        }
    }

    @Test("fixed inline scripts are listed once each, scripts with src are not; the page shows them as written")
    func inlineScripts() async throws {
        let script = "(function () { if (a < b && c) location.reload(); })();"
        try await withTemplates([
            "one": "<script src=\"{{js}}\" defer></script><script>\(script)</script><p>{{name}}</p>",
            "two": "<script>\(script)</script>",
        ]) { folder in
            let renderer = try await PageRenderer(directory: folder)
            #expect(renderer.inlineScripts == [script])
            let html = try renderer.render("one", ["js": "/a.js", "name": "<b>"])
            #expect(html == "<script src=\"/a.js\" defer></script><script>\(script)</script><p>&lt;b&gt;</p>")
        }
    }
}
