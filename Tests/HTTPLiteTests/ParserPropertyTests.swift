import HTTPTypes
import NIOCore
import Testing
import TestSupport

@testable import HTTPLite

/// Seeded random inputs against the form and cookie parsers: no crash, and what is encoded
/// properly decodes back.
@Suite("Form and cookie parser properties")
struct HTTPParserPropertyTests {
    @Test("random bytes never crash the form parser")
    func randomForms() {
        var generator = SeededGenerator(seed: 1)
        let interesting: [UInt8] = Array("=&%+aZ09".utf8) + [0, 0x7f, 0x80, 0xc3, 0xff, 0x20]
        for _ in 0..<50_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            if let form = try? URLEncodedForm(parsing: bytes) {
                #expect(form.pairs.count <= URLEncodedForm.maximumPairs)
            }
        }
    }

    @Test("percent-encoded pairs decode to what was encoded")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 2)
        let characters = Array("abc XYZ 0123 &=+%#?/é€😀\n")
        for _ in 0..<10_000 {
            let name = String(
                (0..<Int.random(in: 1...8, using: &generator)).map { _ in characters.randomElement(using: &generator)! }
            )
            let value = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in characters.randomElement(using: &generator)!
                })
            func encode(_ text: String) -> String {
                text.utf8.map { byte -> String in
                    let c = Character(Unicode.Scalar(byte))
                    if byte < 0x80, c.isLetter || c.isNumber { return String(c) }
                    return byte == 0x20 ? "+" : "%" + String(byte, radix: 16, uppercase: true).leftPad()
                }.joined()
            }
            let form = try URLEncodedForm(parsing: "\(encode(name))=\(encode(value))")
            #expect(form[name] == value)
        }
    }

    @Test("random Cookie headers never crash the cookie reader")
    func randomCookies() {
        var generator = SeededGenerator(seed: 3)
        let characters = Array("ab=; \"\\,é\u{0}")
        for _ in 0..<20_000 {
            let header = String(
                (0..<Int.random(in: 0...30, using: &generator)).map { _ in characters.randomElement(using: &generator)!
                })
            let request = Request(method: .get, uri: "/", headers: [.cookie: header])
            for (name, _) in request.cookies { #expect(!name.isEmpty) }
        }
    }
}

extension String {
    fileprivate func leftPad() -> String { count == 1 ? "0" + self : self }
}
