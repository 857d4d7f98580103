import HTTPTypes
import NIOCore
import TestSupport
import Testing

@testable import HTTPLite

@Suite("Forms and cookies")
struct FormAndCookieTests {
    @Test("url-encoded forms decode plus, percent escapes and UTF-8")
    func decodes() throws {
        let form = try URLEncodedForm(parsing: "phone=%28530%29+555-0123&name=Jos%C3%A9&empty=&flag&phone=2")
        #expect(form["phone"] == "(530) 555-0123")
        #expect(form.values(for: "phone") == ["(530) 555-0123", "2"])
        #expect(form["name"] == "José")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["missing"] == nil)
    }

    @Test("malformed forms are refused whole", arguments: ["a=%", "a=%zz", "a=%ff", "a=%c3", "a=b%00c", "%00=b"])
    func malformed(_ text: String) {
        #expect(throws: URLEncodedForm.ParseError.malformed) { try URLEncodedForm(parsing: text) }
    }

    @Test("raw non-ASCII bytes and too many fields are refused")
    func limits() {
        #expect(throws: URLEncodedForm.ParseError.malformed) { try URLEncodedForm(parsing: [0x61, 0x3d, 0xff]) }
        let many = (0...URLEncodedForm.maximumPairs).map { "f\($0)=1" }.joined(separator: "&")
        #expect(throws: URLEncodedForm.ParseError.tooManyFields) { try URLEncodedForm(parsing: many) }
    }

    /// The parser before it worked on bytes (Foundation's splitting and percent decoding).
    static func foundationParse(_ text: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        func decode(_ part: Substring) -> String? {
            part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring
            let value: Substring
            if let equals = piece.firstIndex(of: "=") {
                name = piece[..<equals]
                value = piece[piece.index(after: equals)...]
            } else {
                name = piece[...]
                value = ""
            }
            guard let decodedName = decode(name), let decodedValue = decode(value) else { return nil }
            pairs.append((decodedName, decodedValue))
        }
        return pairs
    }

    @Test("the byte parser reads 5,000 random forms as Foundation's decoding did, a NUL aside")
    func sameAsFoundation() {
        var generator = SeededGenerator(seed: 2026_11_28)
        let alphabet = ["a", "Z", "0", "9", "=", "&", "+", "%", "%2", "%41", "%2B", "%26", "%3D", "%C3%A9", "%c3",
                        "%E2%82%AC", "%ff", "%zz", "-", ".", "~", " ", "é", "€", "%00"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator))
                .map { _ in alphabet.randomElement(using: &generator)! }.joined()
            // As Foundation decoded, except that a NUL (`%00`) is refused.
            let decoded = Self.foundationParse(text)
            let expected = decoded?.contains { $0.0.utf8.contains(0) || $0.1.utf8.contains(0) } == true ? nil : decoded
            let parsed = try? URLEncodedForm(parsing: text)
            #expect(parsed?.pairs.map { "\($0.name)=\($0.value)" } == expected?.map { "\($0.0)=\($0.1)" }, "\(text)")
        }
    }

    @Test(
        "the form type is read without case, spaces or parameters",
        arguments: [
            ("application/x-www-form-urlencoded", true), ("Application/X-WWW-Form-URLEncoded", true),
            (" application/x-www-form-urlencoded\t; charset=UTF-8", true), ("application/x-www-form-urlencodedx", false),
            ("application/json", false), ("", false), ("; application/x-www-form-urlencoded", false),
            ("application/x-www-form-urlencoded, text/plain", false),
        ])
    func formType(_ value: String, _ isForm: Bool) {
        #expect(Request.isFormType(value) == isForm)
    }

    @Test("formData needs the form content type")
    func contentType() throws {
        var request = Request(
            method: .post, uri: "/", headers: [.contentType: "application/x-www-form-urlencoded; charset=UTF-8"],
            body: ByteBuffer(string: "a=1"))
        #expect(try request.formData()["a"] == "1")
        request.headers = [.contentType: "text/plain"]
        #expect { try request.formData() } throws: { ($0 as? StatusError)?.status == .unsupportedMediaType }
        // Two Content-Types are ambiguous, even when one is the form's.
        request.headers = [.contentType: "application/x-www-form-urlencoded"]
        request.headers.append(HTTPField(name: .contentType, value: "text/plain"))
        #expect { try request.formData() } throws: { ($0 as? StatusError)?.status == .unsupportedMediaType }
    }

    @Test("cookies are read from all Cookie headers; the first of a name wins")
    func readsCookies() {
        let request = Request(
            method: .get, uri: "/", headers: HTTPFields([HTTPField(name: .cookie, value: "a=1; b=\"two\""), HTTPField(name: .cookie, value: "a=3;c=x=y")]))
        #expect(request.cookies == ["a": "1", "b": "two", "c": "x=y"])
    }

    @Test("Set-Cookie carries the safe defaults and deletes with Max-Age=0")
    func setCookie() {
        #expect(Cookie(name: "session", value: "abc").headerValue == "session=abc; Path=/; HttpOnly; SameSite=Lax")
        #expect(
            Cookie(name: "__Host-session", value: "abc", maxAge: 60, secure: true).headerValue
                == "__Host-session=abc; Path=/; Max-Age=60; Secure; HttpOnly; SameSite=Lax")
        #expect(Cookie.expired(name: "session").headerValue.contains("Max-Age=0"))
        #expect(!Cookie.isValidValue("a;b"))
        #expect(!Cookie.isValidValue("a b"))
    }
}
