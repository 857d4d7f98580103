import TestSupport
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
            ("1,00", .notANumber), ("1,0000", .notANumber), (",100", .notANumber), ("$", .notANumber),
            (".", .notANumber),
            ("12e3", .notANumber), ("0x10", .notANumber), ("٣", .notANumber), ("0", .notPositive),
            ("0.00", .notPositive),
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

@Suite("Money parser properties")
struct MoneyPropertyTests {
    @Test("50,000 random inputs never crash, and every accepted amount is positive and within the limit")
    func randomInputs() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("0123456789.,$- \tx٣e+")
        for _ in 0..<50_000 {
            let length = Int.random(in: 0...16, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if let money = try? Money(parsing: text) {
                #expect(money.cents > 0 && money <= Money.maxAmount, "\(text)")
            }
        }
    }

    @Test("25,000 random amounts survive formatting and parsing back, in both written forms")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<25_000 {
            let money = Money(cents: Int64.random(in: 1...Money.maxAmount.cents, using: &generator))
            #expect(try Money(parsing: money.description) == money)
            #expect(try Money(parsing: money.decimalString) == money)
        }
    }
}
