import TestSupport
import Testing
import Wording

@testable import AuthCore

@Suite("US phone numbers")
struct PhoneNumberTests {
    @Test(
        "accepts what people type",
        arguments: [
            "(530) 555-0123", "530.555.0123", "5305550123", "+1 530 555 0123", "1-530-555-0123",
            "+15305550123", "  530 555 0123  ", "15305550123", "(530)555-0123", "530-555-0123",
        ])
    func accepts(_ input: String) throws {
        let phone = try PhoneNumber(parsing: input)
        #expect(phone.e164 == "+15305550123")
        #expect(phone.nationalFormat == "(530) 555-0123")
    }

    @Test(
        "rejects what is not a NANP number",
        arguments: [
            "+2 530 555 0123",  // other country code
            "+44 20 7946 0958",  // UK
            "+1 530 555 01234",  // too long
            "(030) 555-0123",  // area code starts with 0
            "(130) 555-0123",  // area code starts with 1
            "(530) 055-0123",  // exchange starts with 0
            "(530) 155-0123",  // exchange starts with 1
            "(911) 555-0123",  // N11 area code
            "(411) 555-0123",  // N11 area code
            "(999) 555-0123",  // area code not in service
            "(555) 555-0123",  // area code not in service
            "530-FLOWERS",  // letters
            "530555O123",  // letter O for zero
            "530+5550123",  // plus not leading
            "++15305550123",
            "٥٣٠٥٥٥٠١٢٣",  // Arabic-Indic digits
            "530 555 0123 ext 4",
            "+1 530 555 012",  // a wrong count after +1 is not counted for the person
            String(repeating: "5", count: 10_000),
        ])
    func rejects(_ input: String) {
        #expect(throws: PhoneNumber.ParseError.invalid) { try PhoneNumber(parsing: input) }
    }

    @Test("an N11 exchange is libphonenumber's call, and it finds (530) 911-0123 valid")
    func n11Exchange() throws {
        // The old hand-written rule refused it; the metadata has no such rule for exchanges.
        #expect(try PhoneNumber(parsing: "(530) 911-0123").e164 == "+15309110123")
    }

    @Test(
        "a wrong count of digits says how many there are (issue 36)",
        arguments: [
            ("530 555 012", 9), ("0", 1), ("1 (530) 555-0123 5", 12), ("25305550123", 11), ("(530) 555-01234", 11),
        ])
    func wrongLength(_ input: String, _ digits: Int) {
        #expect(throws: PhoneNumber.ParseError.wrongLength(digits: digits)) { try PhoneNumber(parsing: input) }
    }

    @Test("the wrong count is said after the seed's sentence, in the singular for one digit")
    func wrongLengthSaying() {
        #expect(
            english(PhoneNumber.ParseError.wrongLength(digits: 9).saying)
                == "Your phone number is invalid. It has 9 digits; a US number has 10.")
        #expect(
            english(PhoneNumber.ParseError.wrongLength(digits: 1).saying)
                == "Your phone number is invalid. It has 1 digit; a US number has 10.")
    }

    @Test("empty input has its own message", arguments: ["", "   ", "\t"])
    func empty(_ input: String) {
        #expect(throws: PhoneNumber.ParseError.empty) { try PhoneNumber(parsing: input) }
        #expect(english(PhoneNumber.ParseError.empty.saying) == "Please enter your phone number.")
        #expect(english(PhoneNumber.ParseError.invalid.saying) == "Your phone number is invalid.")
    }

    @Test("logs see only the last four digits")
    func masked() throws {
        let phone = try PhoneNumber(parsing: "(530) 555-0123")
        #expect(phone.masked == "+1******0123")
        #expect("\(phone)" == "+1******0123")
    }
}

/// What people reading English are told.
private func english(_ phrase: Phrase) -> String { Wording.forTests[.english](phrase) }
