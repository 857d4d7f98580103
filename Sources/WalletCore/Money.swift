import Foundation

/// An amount of US dollars in integer cents: no floating point anywhere near money.
public struct Money: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let cents: Int64

    public init(cents: Int64) {
        self.cents = cents
    }

    /// The largest amount one operation may move: $1,000,000,000.
    public static let maxAmount = Money(cents: 100_000_000_000)
    /// The largest balance an account may hold: $1,000,000,000,000 (far from Int64's limit: the
    /// balances of ``WalletRules/maxAccountsPerPerson`` such accounts add up without overflow;
    /// sums are checked all the same, for values that did not come through the rules).
    public static let maxBalance = Money(cents: 100_000_000_000_000)

    /// Why typed text is not an amount; what people are told is ``saying``.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case notANumber
        case notPositive
        case tooManyDecimals
        case tooLarge

        /// The key of what people are told (``saying``): for the log.
        public var description: String { saying.description }
    }

    /// An amount as people type it: `12.34`, `$1,000.50`, `5`, `.50`, `$ 7`. Commas must group
    /// thousands (`1,000`, not `1,00`); at most two decimals; more than zero; at most
    /// ``maxAmount``.
    public init(parsing input: String) throws(ParseError) {
        var text = Substring(input.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !text.isEmpty else { throw .empty }
        var negative = false
        if text.first == "-" || text.first == "\u{2212}" {
            negative = true
            text = text.dropFirst().drop(while: \.isWhitespace)
        }
        if text.first == "$" { text = text.dropFirst().drop(while: \.isWhitespace) }
        if !negative, text.first == "-" {
            negative = true
            text = text.dropFirst()
        }
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, !text.isEmpty, text != "." else { throw .notANumber }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.allSatisfy(\.isASCIIDigit) else { throw .notANumber }
        guard Self.isWholePart(whole), !(whole.isEmpty && fraction.isEmpty) else { throw .notANumber }
        guard fraction.count <= 2 else { throw .tooManyDecimals }
        let digits = whole.filter { $0 != "," }
        // More than 13 digits of dollars is over the limit whatever they are (and would not fit).
        guard digits.drop(while: { $0 == "0" }).count <= 13 else { throw negative ? .notPositive : .tooLarge }
        guard let dollars = Int64(digits.isEmpty ? "0" : String(digits)),
            let fractionCents = Int64(fraction.padding(toLength: 2, withPad: "0", startingAt: 0))
        else { throw .notANumber }
        let cents = dollars * 100 + fractionCents
        guard !negative, cents > 0 else { throw .notPositive }
        guard cents <= Self.maxAmount.cents else { throw .tooLarge }
        self.cents = cents
    }

    /// Digits, optionally grouped by commas in threes (`1,234,567`).
    private static func isWholePart(_ text: Substring) -> Bool {
        guard text.contains(",") else { return text.allSatisfy(\.isASCIIDigit) }
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count), first.allSatisfy(\.isASCIIDigit) else {
            return false
        }
        return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// `$1,234.56`
    public var description: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        var dollars = String(magnitude / 100)
        var grouped = ""
        while dollars.count > 3 {
            grouped = "," + dollars.suffix(3) + grouped
            dollars.removeLast(3)
        }
        let remainder = magnitude % 100
        return "\(sign)$\(dollars)\(grouped).\(remainder < 10 ? "0" : "")\(remainder)"
    }

    /// `1234.56`: the plain form for JSON and form fields.
    public var decimalString: String {
        let remainder = cents.magnitude % 100
        return "\(cents < 0 ? "-" : "")\(cents.magnitude / 100).\(remainder < 10 ? "0" : "")\(remainder)"
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }
    public static let zero = Money(cents: 0)

    // No `+` or `-`: Int64's would trap the whole process on overflow, and a balance read back
    // from storage is not trusted to be small. Every sum says what happens when it does not fit.

    /// The sum; `nil` when it does not fit in Int64 cents.
    public func adding(_ other: Money) -> Money? {
        let (sum, overflow) = cents.addingReportingOverflow(other.cents)
        return overflow ? nil : Money(cents: sum)
    }

    /// The difference; `nil` when it does not fit in Int64 cents.
    public func subtracting(_ other: Money) -> Money? {
        let (difference, overflow) = cents.subtractingReportingOverflow(other.cents)
        return overflow ? nil : Money(cents: difference)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
