import Crypto
import Encodings
import Foundation
import Testing
import TestSupport

@testable import AuthCore

@Suite("Tokens: base64url and CSRF signatures")
struct TokenEncodingTests {
    @Test("base64url round-trips 5,000 random byte strings and agrees with Foundation's base64")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<5_000 {
            let bytes = Data(
                (0..<Int.random(in: 0...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
            let text = bytes.base64URLEncodedString()
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Data(base64URLEncoded: text) == bytes)
            let standard = bytes.base64EncodedString()
            #expect(
                text
                    == standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: ""))
        }
    }

    @Test(
        "malformed base64url is refused",
        arguments: ["a", "abcde", "ab+c", "ab/c", "abc=", "ab c", "ab\u{E9}c", "%%%%"])
    func malformed(text: String) {
        #expect(Data(base64URLEncoded: text) == nil)
    }

    @Test("CSRF tokens: every one issued is valid, each is different, and a changed byte is refused")
    func csrf() throws {
        let secret = ServerSecret.random()
        let tokens = CSRFTokens(secret: secret)
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = tokens.issue()
            #expect(token.count == 54)
            #expect(tokens.isValid(token))
            #expect(seen.insert(token).inserted)
            // The tag is HMAC-SHA256 of the nonce and issue time alone, computed afresh: the reused
            // keyed HMAC carries nothing over from the previous token.
            let data = try #require(Data(base64URLEncoded: token))
            let expected = Data(
                HMAC<SHA256>.authenticationCode(for: data.prefix(24), using: secret.derivedKey(purpose: "csrf"))
            ).prefix(16)
            #expect(data.suffix(16) == expected)
            var tampered = Array(token.utf8)
            tampered[5] = tampered[5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(!tokens.isValid(String(decoding: tampered, as: UTF8.self)))
        }
        #expect(!CSRFTokens(secret: .random()).isValid(tokens.issue()))
    }

    @Test("CSRF tokens carry their issue time: accepted for 24 hours, refused after, and refused from the future")
    func csrfLifetime() throws {
        let secret = ServerSecret.random()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = CSRFTokens(secret: secret, clock: { now }).issue()
        func valid(after seconds: TimeInterval) -> Bool {
            CSRFTokens(secret: secret, clock: { now.addingTimeInterval(seconds) }).isValid(token)
        }
        #expect(valid(after: 0) && valid(after: 86_399))
        #expect(!valid(after: 86_400) && !valid(after: 10 * 365 * 86_400))
        // Another instance's clock a few minutes ahead is fine; a token from an hour ahead is not.
        #expect(valid(after: -300))
        #expect(!valid(after: -3_600))
        // The issue time is signed: moved back a day, the token is refused.
        var data = try #require(Data(base64URLEncoded: token))
        data[21] = data[21] &- 2
        let tampered = data.base64URLEncodedString()
        #expect(!CSRFTokens(secret: secret, clock: { now }).isValid(tampered))
        // A token of the old form (nonce and tag, no time) is no longer accepted.
        #expect(!CSRFTokens(secret: secret, clock: { now }).isValid(String(repeating: "A", count: 43)))
    }
}
