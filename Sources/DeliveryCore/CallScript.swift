/// What a call says: an opening, the code's digits one at a time with a pause after each, the
/// whole code again, and a goodbye; then the call hangs up. Providers turn it into their own
/// markup (Twilio: TwiML `<Say>` and `<Pause>`); the outbox and the webhook get ``words``. The
/// words come from the person's language's catalog (``Words``).
public struct CallScript: Sendable, Equatable {
    /// The words around the digits, in one language.
    public struct Words: Sendable, Equatable {
        /// "Your Phone Login verification code is".
        public let opening: String
        /// Said before the digits are read again: "Again." (the call), "Again:" (in writing).
        public let again: String
        public let againWritten: String
        public let closing: String
        /// The voice's language for the provider (`en-US`, `es-US`).
        public let voice: String

        public init(opening: String, again: String, againWritten: String, closing: String, voice: String) {
            self.opening = opening
            self.again = again
            self.againWritten = againWritten
            self.closing = closing
            self.voice = voice
        }
    }

    public let words: Words
    /// The code, read one digit at a time.
    public let digits: String
    /// How many times the digits are read.
    public let repeats: Int

    public init(_ words: Words, digits: String, repeats: Int = 2) {
        self.words = words
        self.digits = digits
        self.repeats = repeats
    }

    public var opening: String { words.opening }
    public var closing: String { words.closing }

    /// The digits as spoken, one at a time: "1. 2. 3. 4. 5. 6."
    public var spokenDigits: String { digits.map { "\($0)." }.joined(separator: " ") }

    /// The whole call as plain words: "Your … code is 1. 2. 3. 4. 5. 6. Again: 1. 2. … Goodbye."
    public var written: String {
        var parts = ["\(opening) \(spokenDigits)"]
        for _ in 1..<max(1, repeats) { parts.append("\(words.againWritten) \(spokenDigits)") }
        parts.append(closing)
        return parts.joined(separator: " ")
    }

    /// The call as TwiML: each digit its own `<Say>` with a one-second `<Pause>` after it (the
    /// "slowly" a person needs to type along), everything XML-escaped, then `<Hangup/>`.
    public var twiml: String {
        let language = words.voice.isEmpty ? "" : #" language=""# + escaped(words.voice) + #"""#
        func say(_ text: String) -> String { "<Say\(language)>\(escaped(text))</Say>" }
        let readDigits = digits.map { say(String($0)) + #"<Pause length="1"/>"# }.joined()
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><Response>"# + say(opening) + #"<Pause length="1"/>"#
        xml += readDigits
        for _ in 1..<max(1, repeats) { xml += say(words.again) + #"<Pause length="1"/>"# + readDigits }
        return xml + say(closing) + "<Hangup/></Response>"
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
