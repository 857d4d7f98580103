/// A valid phone number of the North American Numbering Plan (NANP, country code 1): the US,
/// Canada and the Caribbean.
///
/// People type numbers in many shapes; this type accepts the common ones and keeps a single
/// canonical form (E.164, `+15305550123`) so that the same phone is always the same key in storage,
/// in rate limits and in the SMS provider's API. Which numbers are valid, and the region and
/// type of each, is libphonenumber's verdict (``NANPMetadata``, generated from its metadata).
///
/// Parsing says only what a number is; whether a code is texted to it is the sign-in policy's
/// call (``PhoneRegions``), so a number stored under another policy still parses when read back.
public struct PhoneNumber: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit area code (NPA).
    public let areaCode: String
    /// The three-digit central office code (NXX), often called the exchange.
    public let exchange: String
    /// The four-digit line number.
    public let line: String
    /// The ISO 3166 code of the region the number belongs to: `US`, `CA`, `PR`, `JM`, …
    public let region: String
    /// What kind of line it is: mobile, fixed line, toll free, premium rate, …
    public let numberType: NumberType

    /// Why a typed phone number was not accepted.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing (or only white space) was typed.
        case empty
        /// Something was typed, but it is not a valid number of country code 1.
        case invalid
        /// Only digits and the usual separators, but not ten of them (or eleven starting with
        /// 1): "It has 9 digits; a US number has 10."
        case wrongLength(digits: Int)

        /// The key of what people are told (``saying``): for the log.
        public var description: String { saying.description }
    }

    /// Longest input we try to read: anything longer is not a phone number someone typed.
    static let maximumInputLength = 40

    /// Parses what a person typed: `(530) 555-0123`, `530.555.0123`, `5305550123`,
    /// `+1 530 555 0123`, `1-530-555-0123`, or the stored E.164 form.
    ///
    /// Only ASCII digits, spaces, `(`, `)`, `.`, `-` and one leading `+` are allowed; letters
    /// (vanity numbers), other scripts' digits and other country codes are rejected rather than
    /// guessed at, because a wrong guess sends a code to a stranger. Ten digits of that shape
    /// are a number only when libphonenumber finds them valid in some region (area codes not in
    /// service such as 999 or 555 are not).
    public init(parsing input: String) throws(ParseError) {
        let trimmed = input.trimmingWhitespace()
        if trimmed.isEmpty { throw .empty }
        guard trimmed.utf8.count <= Self.maximumInputLength else { throw .invalid }

        var digits: [UInt8] = []
        digits.reserveCapacity(11)
        var sawPlus = false
        for (offset, byte) in trimmed.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte)
            case UInt8(ascii: "+"):
                // A plus is only meaningful as the very first character (E.164 / international).
                guard offset == 0 else { throw .invalid }
                sawPlus = true
            case UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "."),
                UInt8(ascii: "-"), UInt8(ascii: "\t"):
                continue
            default:
                throw .invalid
            }
        }

        let national: ArraySlice<UInt8>
        switch digits.count {
        case 10 where !sawPlus:
            national = digits[...]
        case 11 where digits[0] == UInt8(ascii: "1"):
            national = digits.dropFirst()
        case _ where sawPlus:
            // "+" followed by another country code, or a wrong count after +1.
            throw .invalid
        default:
            throw .wrongLength(digits: digits.count)
        }

        guard let (region, numberType) = NANPMetadata.classify(national) else { throw .invalid }

        self.areaCode = String(decoding: national.prefix(3), as: UTF8.self)
        self.exchange = String(decoding: national.dropFirst(3).prefix(3), as: UTF8.self)
        self.line = String(decoding: national.suffix(4), as: UTF8.self)
        self.region = region
        self.numberType = numberType
    }

    /// The canonical storage and API form, `+15305550123`.
    public var e164: String { "+1\(areaCode)\(exchange)\(line)" }

    /// The form people read, `(530) 555-0123`.
    public var nationalFormat: String { "(\(areaCode)) \(exchange)-\(line)" }

    /// The form people read with all but the last four digits hidden, `(•••) •••-0123`: what a
    /// shared phone's Login shows of the number it remembers.
    public var hiddenNationalFormat: String { "(•••) •••-\(line)" }

    /// The last four digits, `0123` ("the number ending in 0123").
    public var lastFour: String { line }

    /// A form safe for logs: only the last four digits are kept, `+1******0123`.
    public var masked: String { "+1******\(line)" }

    public var description: String { masked }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
