import Foundation
import TestSupport
import Testing

@testable import AuthCore

/// Property tests over the phone and code parsers: many seeded random inputs (bounded, so the
/// run is quick and repeatable), each checked against invariants rather than examples.
@Suite("Parser properties")
struct ParserPropertyTests {
    static let alphabet: [Character] = Array("0123456789 ()-.+\t1aZ#*٣é\u{0}\u{200B}")

    @Test("random text never crashes the phone parser; whatever it accepts round-trips")
    func phoneProperties() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<50_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
            guard let phone = try? PhoneNumber(parsing: text) else { continue }
            // Accepted numbers are valid NANP numbers and parse back to themselves.
            #expect(phone.e164.count == 12 && phone.e164.hasPrefix("+1"))
            #expect(!"01".contains(phone.areaCode.first!) && !"01".contains(phone.exchange.first!))
            #expect(try PhoneNumber(parsing: phone.e164) == phone)
            #expect(try PhoneNumber(parsing: phone.nationalFormat) == phone)
        }
    }

    @Test("every ten digits in their usual shapes get one verdict: invalid in all, or the same number in all")
    func everyShapeOneVerdict() throws {
        var generator = SeededGenerator(seed: 42)
        var valid = 0
        for _ in 0..<5_000 {
            let area = Int.random(in: 200...999, using: &generator)
            let exchange = Int.random(in: 200...999, using: &generator)
            let line = Int.random(in: 0...9999, using: &generator)
            let lineText = String(format: "%04d", line)
            let shapes = [
                "(\(area)) \(exchange)-\(lineText)", "\(area).\(exchange).\(lineText)", "\(area)\(exchange)\(lineText)",
                "+1 \(area) \(exchange) \(lineText)", "1-\(area)-\(exchange)-\(lineText)",
            ]
            guard let stored = try? PhoneNumber(parsing: "+1\(area)\(exchange)\(lineText)") else {
                for shape in shapes {
                    #expect(throws: PhoneNumber.ParseError.invalid) { try PhoneNumber(parsing: shape) }
                }
                continue
            }
            valid += 1
            for shape in shapes {
                let phone = try PhoneNumber(parsing: shape)
                #expect(phone == stored && phone.region == stored.region && phone.numberType == stored.numberType)
            }
        }
        // Most area codes and exchanges from 200 up are in service somewhere.
        #expect(valid > 2_500)
    }

    @Test("codes: exactly the six-ASCII-digit strings are accepted")
    func codeProperties() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<50_000 {
            let length = Int.random(in: 0...8, using: &generator)
            let text = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
            let expected = text.utf8.count == 6 && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
            #expect((OneTimeCode(text) != nil) == expected, "\(text.debugDescription)")
        }
    }
}
