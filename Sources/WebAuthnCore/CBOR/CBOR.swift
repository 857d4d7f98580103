/// A CBOR data item (RFC 8949), the part of it WebAuthn uses: integers, byte and text strings,
/// arrays, maps, booleans and null. Authenticator data, attestation objects and COSE keys are
/// all made of these; floats, tags and indefinite lengths never appear there and are refused
/// by ``CBORDecoder``.
public indirect enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer, -1 - n for the encoded n, kept only when it fits an `Int64`.
    case negative(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order they were encoded (keys are distinct: the decoder refuses duplicates).
    case map([(key: CBOR, value: CBOR)])
    case bool(Bool)
    case null

    public static func == (a: CBOR, b: CBOR) -> Bool {
        switch (a, b) {
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.negative(let x), .negative(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.text(let x), .text(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.map(let x), .map(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// The integer, when this is one that fits an `Int` (COSE labels and values are small).
    public var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): Int(exactly: n)
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The value under the integer key `label` of a map (COSE keys use integer labels).
    public subscript(label label: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key.int == label }?.value
    }

    /// The value under the text key `name` of a map (attestation objects use text keys).
    public subscript(name name: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key.text == name }?.value
    }
}
