import Crypto
import Encodings
import Foundation
import Testing

@testable import DeliveryCore

@Suite("Callback signatures")
struct SignatureTests {
    // Both vectors come from the reference, PyPI's twilio 9.13.0:
    // RequestValidator("12345").compute_signature(url, params). The first is the example in
    // Twilio's own documentation ("Validating requests are coming from Twilio").
    static let docsURL = "https://mycompany.com/myapp.php?foo=1&bar=2"
    static let docsParameters = [
        ("CallSid", "CA1234567890ABCDE"), ("Caller", "+12349013030"), ("Digits", "1234"), ("From", "+12349013030"),
        ("To", "+18005551212"),
    ]
    static let callbackURL = "https://login.example.com/callbacks/twilio/0123456789abcdef0123456789abcdef"
    static let callbackParameters = [
        ("MessageSid", "SM1"), ("MessageStatus", "undelivered"), ("ErrorCode", "30003"), ("AccountSid", "AC0123"),
    ]

    @Test("X-Twilio-Signature matches twilio's RequestValidator, whatever the order of the fields")
    func twilioReference() {
        #expect(
            TwilioSignature.compute(url: Self.docsURL, parameters: Self.docsParameters, authToken: "12345")
                == "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")
        #expect(
            TwilioSignature.compute(
                url: Self.callbackURL, parameters: Self.callbackParameters.reversed(), authToken: "12345")
                == "wB7UQcpuQI16YHs5egsPoFWGr00=")
        #expect(
            TwilioSignature.isValid(
                "wB7UQcpuQI16YHs5egsPoFWGr00=", url: Self.callbackURL, parameters: Self.callbackParameters,
                authToken: "12345"))
    }

    @Test("text that looks the same but is other code points is signed as Twilio's reference signs it")
    func twilioCodePoints() {
        // Computed with PyPI twilio 9.13's RequestValidator: "é" as one scalar and as "e" and an
        // accent are two values, and "Åx" sorts after "Åa" by code point, not as Swift's String.
        let parameters = [("Body", "\u{e9}"), ("Body", "e\u{301}"), ("\u{c5}x", "1"), ("A\u{30a}a", "2")]
        #expect(
            TwilioSignature.compute(url: "https://example.com/cb", parameters: parameters, authToken: "12345")
                == "mJ+FXh9XFmdHgnBDRZh3hXWxW3E=")
    }

    @Test("a Twilio signature fails for another token, URL, field, value, or a mangled header")
    func twilioRefusals() {
        let good = "wB7UQcpuQI16YHs5egsPoFWGr00="
        func valid(
            _ signature: String = good, url: String = SignatureTests.callbackURL,
            parameters: [(String, String)] = SignatureTests.callbackParameters,
            token: String = "12345"
        ) -> Bool {
            TwilioSignature.isValid(signature, url: url, parameters: parameters, authToken: token)
        }
        #expect(valid())
        #expect(!valid(token: "12346"))
        #expect(!valid(url: Self.callbackURL.replacingOccurrences(of: "0123", with: "9123")))
        #expect(!valid(url: Self.callbackURL + "?x=1"))
        #expect(!valid(parameters: Self.callbackParameters.map { $0.0 == "MessageStatus" ? ($0.0, "delivered") : $0 }))
        #expect(!valid(parameters: Self.callbackParameters + [("Extra", "1")]))
        #expect(!valid(parameters: Array(Self.callbackParameters.dropLast())))
        for mangled in ["", "=", "not base64!", String(good.dropLast(2)), good + "AA==", good.lowercased()] {
            #expect(!valid(mangled), "\(mangled)")
        }
    }

    @Test("the webhook's signature: the exact body bytes under the secret, hex, sha256= in front")
    func webhook() {
        let secret = SymmetricKey(data: Data("0123456789abcdef-secret".utf8))
        let body = Data(#"{"status":"delivered"}"#.utf8)
        let signature = WebhookSignature.compute(body: body, secret: secret)
        let expected = Data(HMAC<SHA256>.authenticationCode(for: body, using: secret)).hexString
        #expect(signature == "sha256=" + expected)
        #expect(WebhookSignature.isValid(signature, body: body, secret: secret))
        #expect(!WebhookSignature.isValid(signature, body: body + Data(" ".utf8), secret: secret))
        #expect(
            !WebhookSignature.isValid(signature, body: body, secret: SymmetricKey(data: Data("other-secret-0123".utf8)))
        )
        for mangled in [
            "", "sha256=", expected, "sha1=" + expected, "sha256=" + expected.dropLast(), "sha256=" + expected + "00",
            "sha256=+" + expected.dropFirst(), "sha256=" + expected.uppercased() + "zz",
        ] {
            #expect(!WebhookSignature.isValid(mangled, body: body, secret: secret), "\(mangled)")
        }
    }
}
