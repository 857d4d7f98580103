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
        // Control characters become spaces; the marks that reorder text (a right-to-left
        // override) go, so a reason reads on the console and in `webapp events` as typed.
        var scalars = String.UnicodeScalarView()
        for scalar in (raw ?? "").unicodeScalars where !Self.reordering.contains(scalar.value) {
            scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        let trimmed = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 3 else { throw .missing }
        // Counted as both databases count a text's length: in code points.
        guard trimmed.unicodeScalars.count <= Self.maxLength else { throw .tooLong }
        text = trimmed
    }

    /// The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
    static let reordering: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    public var description: String { text }
}
