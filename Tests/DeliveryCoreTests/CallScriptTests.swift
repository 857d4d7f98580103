import Testing

@testable import DeliveryCore

@Suite("What a call says")
struct CallScriptTests {
    @Test("the digits one at a time, twice, then goodbye")
    func words() {
        let script = CallScript(english("Your Phone Login verification code is"), digits: "042917")
        #expect(
            script.written
                == "Your Phone Login verification code is 0. 4. 2. 9. 1. 7. Again: 0. 4. 2. 9. 1. 7. Goodbye.")
    }

    @Test("TwiML: a Say and a one-second Pause per digit, read twice, then Hangup; text escaped")
    func twiml() {
        let script = CallScript(english("Your <Fish & Chips> \"code\" is"), digits: "12")
        #expect(
            script.twiml
                == #"<?xml version="1.0" encoding="UTF-8"?><Response><Say>Your &lt;Fish &amp; Chips&gt; &quot;code&quot; is</Say><Pause length="1"/>"#
                + #"<Say>1</Say><Pause length="1"/><Say>2</Say><Pause length="1"/><Say>Again.</Say><Pause length="1"/>"#
                + #"<Say>1</Say><Pause length="1"/><Say>2</Say><Pause length="1"/><Say>Goodbye.</Say><Hangup/></Response>"#
        )
    }

    @Test("a voice language names the Say's language; every word is escaped")
    func voice() {
        let words = CallScript.Words(
            opening: "Su código es", again: "Otra vez.", againWritten: "Otra vez:", closing: "Adiós.", voice: "es-US")
        let script = CallScript(words, digits: "7")
        #expect(script.twiml.contains(#"<Say language="es-US">Su código es</Say>"#))
        #expect(script.twiml.contains(#"<Say language="es-US">Otra vez.</Say>"#))
        #expect(script.written == "Su código es 7. Otra vez: 7. Adiós.")
    }

    func english(_ opening: String) -> CallScript.Words {
        CallScript.Words(opening: opening, again: "Again.", againWritten: "Again:", closing: "Goodbye.", voice: "")
    }

    @Test("a reference is exactly 32 lowercase hex digits")
    func reference() {
        let made = SendReference.generate()
        #expect(made.hex.count == 32)
        #expect(SendReference(Substring(made.hex)) == made)
        #expect(SendReference.generate() != made)
        for bad in [
            "", String(repeating: "a", count: 31), String(repeating: "a", count: 33), String(repeating: "A", count: 32),
            String(repeating: "g", count: 32), "0123456789abcdef0123456789abcde/",
            "../../../../../../../../etc/passwd00",
        ] {
            #expect(SendReference(Substring(bad)) == nil, "\(bad)")
        }
    }
}
