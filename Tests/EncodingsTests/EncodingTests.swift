import Foundation
import Testing

@testable import Encodings

@Suite("Base64url, hex and the constant-time comparison")
struct EncodingTests {
    @Test("base64url round-trips every length, and matches Foundation's base64 with the URL alphabet")
    func base64URLRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Data(bytes).base64URLEncodedString()
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == expected)
            #expect(Data(base64URLEncoded: text) == Data(bytes))
            #expect(Base64URL.decode(text) == bytes)
        }
    }

    @Test("standard base64 and padding are refused for our own tokens; WebAuthn's decoder tolerates padding only")
    func base64URLRefusals() {
        #expect(Data(base64URLEncoded: "ab+/") == nil)
        #expect(Data(base64URLEncoded: "YQ==") == nil)
        #expect(Data(base64URLEncoded: "a") == nil)
        #expect(Base64URL.decode("YQ==") == [0x61])
        #expect(Base64URL.decode("Y=Q") == nil)
        #expect(Base64URL.decode("a b") == nil)
    }

    @Test("hex prints lower case and parses either case; odd lengths and other characters are refused")
    func hex() {
        #expect([0x00, 0x0f, 0xa5, 0xff].hexString == "000fa5ff")
        #expect(Data(hexString: "000FA5ff") == Data([0x00, 0x0f, 0xa5, 0xff]))
        for bad in ["0", "0g", "+1", " 01", "é0"] { #expect(Data(hexString: bad) == nil, "\(bad)") }
        #expect(Data(hexString: "") == Data())
    }

    @Test("constant-time comparison: equal only for the same bytes and the same length")
    func constantTime() {
        #expect(constantTimeEquals([1, 2, 3], Data([1, 2, 3])))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([UInt8](), Data()))
    }
}
