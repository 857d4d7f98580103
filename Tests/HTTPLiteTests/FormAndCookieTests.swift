import HTTPTypes
import NIOCore
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

    @Test("malformed forms are refused whole", arguments: ["a=%", "a=%zz", "a=%ff", "a=%c3"])
    func malformed(_ text: String) {
        #expect(throws: URLEncodedForm.ParseError.malformed) { try URLEncodedForm(parsing: text) }
    }

    @Test("raw non-ASCII bytes and too many fields are refused")
    func limits() {
        #expect(throws: URLEncodedForm.ParseError.malformed) { try URLEncodedForm(parsing: [0x61, 0x3d, 0xff]) }
        let many = (0...URLEncodedForm.maximumPairs).map { "f\($0)=1" }.joined(separator: "&")
        #expect(throws: URLEncodedForm.ParseError.tooManyFields) { try URLEncodedForm(parsing: many) }
    }

    @Test("formData needs the form content type")
    func contentType() throws {
        var request = Request(
            method: .post, uri: "/", headers: [.contentType: "application/x-www-form-urlencoded; charset=UTF-8"],
            body: ByteBuffer(string: "a=1"))
        #expect(try request.formData()["a"] == "1")
        request.headers = [.contentType: "text/plain"]
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
