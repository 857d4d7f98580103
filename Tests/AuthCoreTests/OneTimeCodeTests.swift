import Crypto
import Encodings
import Foundation
import Testing

@testable import AuthCore

@Suite("One-time codes")
struct OneTimeCodeTests {
    @Test("random codes are six digits and spread over the whole range")
    func random() {
        var seen = Set<String>()
        var firstDigits = Set<Character>()
        for _ in 0..<5000 {
            let code = OneTimeCode.random()
            #expect(code.digits.count == 6)
            #expect(code.digits.allSatisfy(\.isASCII) && code.digits.allSatisfy(\.isNumber))
            seen.insert(code.digits)
            firstDigits.insert(code.digits.first!)
        }
        // 5000 draws from a million: collisions are rare, and every leading digit (0 too) shows up.
        #expect(seen.count > 4950)
        #expect(firstDigits.count == 10)
    }

    @Test("leading zeros are kept")
    func leadingZeros() {
        // The smallest output that passes the range reduction without rejection maps to 0.
        struct Zero: RandomNumberGenerator { mutating func next() -> UInt64 { 1 } }
        var generator = Zero()
        #expect(OneTimeCode.random(using: &generator).digits == "000000")
    }

    @Test(
        "typed codes must be exactly six ASCII digits",
        arguments: ["12345", "1234567", "12345a", "١٢٣٤٥٦", "12 456", ""])
    func rejectsMalformed(_ text: String) {
        #expect(OneTimeCode(text) == nil)
    }

    @Test("descriptions never show the code")
    func hidden() {
        let code = OneTimeCode("123456")!
        #expect(!"\(code)".contains("123456"))
        #expect(!String(reflecting: code).contains("123456"))
    }

    @Test("digests depend on code, phone and secret")
    func hashing() throws {
        let secret = ServerSecret.random()
        let hasher = CodeHasher(secret: secret)
        let phone = try PhoneNumber(parsing: "5305550123")
        let other = try PhoneNumber(parsing: "5305550124")
        let code = OneTimeCode("123456")!
        let digest = hasher.digest(of: code, for: phone)
        #expect(digest.count == 32)
        #expect(digest == hasher.digest(of: code, for: phone))
        #expect(digest != hasher.digest(of: OneTimeCode("123457")!, for: phone))
        #expect(digest != hasher.digest(of: code, for: other))
        #expect(digest != CodeHasher(secret: .random()).digest(of: code, for: phone))
        #expect(!digest.hexString.contains("123456"))
    }

    @Test("a digest is HMAC-SHA256 of the number, a zero byte and the code under the secret's code key, the same every time (the codes stored before an upgrade still match)")
    func digestValue() throws {
        let secret = ServerSecret.random()
        let hasher = CodeHasher(secret: secret)
        let phone = try PhoneNumber(parsing: "5305550123")
        let expected = Data(
            HMAC<SHA256>.authenticationCode(
                for: Data("+15305550123".utf8) + [0] + Data("123456".utf8),
                using: secret.derivedKey(purpose: "one-time-code")))
        // Several from one hasher: each starts from the keyed state, none from the last's.
        for _ in 0..<3 { #expect(hasher.digest(of: OneTimeCode("123456")!, for: phone) == expected) }
    }
}
