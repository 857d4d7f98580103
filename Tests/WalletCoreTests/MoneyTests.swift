import Testing

@testable import WalletCore

@Suite("Money")
struct MoneyTests {
    @Test(
        "amounts as people type them",
        arguments: [
            ("12.34", 1234), ("$1,000.50", 100_050), ("5", 500), ("0.5", 50), (".05", 5), ("$ 7", 700),
            ("  42.1 ", 4210), ("1,234,567.89", 123_456_789), ("1000000000", 100_000_000_000), ("007", 700),
        ] as [(String, Int64)])
    func parses(_ input: String, _ cents: Int64) throws {
        #expect(try Money(parsing: input).cents == cents)
    }

    @Test(
        "what is not an amount gets its own sentence",
        arguments: [
            ("", Money.ParseError.empty), ("   ", .empty), ("abc", .notANumber), ("12.3.4", .notANumber),
            ("1,00", .notANumber), ("1,0000", .notANumber), (",100", .notANumber), ("$", .notANumber), (".", .notANumber),
            ("12e3", .notANumber), ("0x10", .notANumber), ("٣", .notANumber), ("0", .notPositive), ("0.00", .notPositive),
            ("-5", .notPositive), ("-$5", .notPositive), ("$-5", .notPositive), ("1.234", .tooManyDecimals),
            ("0.001", .tooManyDecimals), ("1000000000.01", .tooLarge), ("99999999999999999999", .tooLarge),
        ])
    func refuses(_ input: String, _ error: Money.ParseError) {
        #expect(throws: error) { _ = try Money(parsing: input) }
    }

    @Test("formats with a dollar sign, thousands and cents")
    func formats() {
        #expect(Money(cents: 0).description == "$0.00")
        #expect(Money(cents: 5).description == "$0.05")
        #expect(Money(cents: 123_456_789).description == "$1,234,567.89")
        #expect(Money(cents: 100_000).description == "$1,000.00")
        #expect(Money(cents: 123_456_789).decimalString == "1234567.89")
    }
}
