import Testing

@testable import HTTPLite

@Suite("Comments taken out of served CSS and JavaScript")
struct SourceCommentsTests {
    private func stripped(_ text: String, _ type: String) -> String {
        String(decoding: SourceComments.stripped(Array(text.utf8), contentType: type), as: UTF8.self)
    }

    @Test("CSS: every comment goes, strings keep what looks like one, lines left empty go")
    func css() {
        let css = """
            /* A heading. */
            h1 { margin: 0; } /* after */
            a::before { content: "/* kept */"; background: url('a/*b*/c.svg'); }
            b::after { content: "say \\"/*\\" here"; }
              /* indented,
                 over two lines */
            p { color: red; }
            i { x: 1 } /* never closed
            """
        #expect(
            stripped(css, "text/css; charset=utf-8") == """
                h1 { margin: 0; } 
                a::before { content: "/* kept */"; background: url('a/*b*/c.svg'); }
                b::after { content: "say \\"/*\\" here"; }
                p { color: red; }
                i { x: 1 } 
                """)
    }

    @Test("JavaScript: lines that are only a comment go; code, its trailing comments and its strings stay")
    func javaScript() {
        let js = """
            // What this does.
            (function () {
              // Inside.
              var url = "http://example.test/"; // trailing
              /* a block comment stays */
            })();
            """
        #expect(
            stripped(js, "text/javascript; charset=utf-8") == """
                (function () {
                  var url = "http://example.test/"; // trailing
                  /* a block comment stays */
                })();
                """)
    }

    @Test(
        "JavaScript with a template literal or a string continued over a line's end is served as written",
        arguments: ["var a = `\n// text, not a comment\n`;", "var a = \"one \\\n// text\";"])
    func javaScriptLeftAlone(js: String) {
        #expect(stripped(js, "text/javascript") == js)
    }

    @Test("CSS: a comment glued to text on both sides, and one inside an unquoted url(), stay")
    func cssLeftAlone() {
        let css = "a { margin: 1px/**/2px; background: url(a/*b*/c.svg); } b { x: URL(/*k*/) }\n"
        #expect(stripped(css, "text/css") == css)
        #expect(stripped("i { x: 1 }/* gone */\n", "text/css") == "i { x: 1 }\n")
    }

    @Test("JavaScript: a comment line that may close a block comment stays; CR LF lines are read as lines")
    func javaScriptBlockComments() {
        let js = "/*\n// x */ code();\n*/\nrun();\n"
        #expect(stripped(js, "text/javascript") == js)
        let continued = "var a = \"one \\\r\n// text\";\r\n"
        #expect(stripped(continued, "text/javascript") == continued)
    }

    @Test("other types are served as written")
    func otherTypes() {
        let html = "<!-- x -->\n/* not CSS */\n// not JS\n"
        #expect(stripped(html, "text/html; charset=utf-8") == html)
        #expect(stripped(html, "application/json") == html)
    }
}
