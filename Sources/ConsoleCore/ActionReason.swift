import Foundation

/// Why an operator did something, as they typed it: every console action takes one, and the
/// event it records keeps it. 3 to 500 characters once trimmed, no control characters.
public struct ActionReason: Sendable, Equatable, CustomStringConvertible {
    public let text: String
    public static let maxLength = 500

    public enum Refusal: Error, Sendable, Equatable {
        /// Nothing, or too little, was typed.
        case missing
        /// More than ``ActionReason/maxLength`` characters.
        case tooLong
    }

    public init(_ raw: String?) throws(Refusal) {
        let cleaned = String(
            (raw ?? "").unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        let trimmed = cleaned.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 3 else { throw .missing }
        guard trimmed.count <= Self.maxLength else { throw .tooLong }
        text = trimmed
    }

    public var description: String { text }
}
