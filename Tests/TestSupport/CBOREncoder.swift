import WebAuthnCore

/// Encodes CBOR the shortest way (as authenticators do): the tests' way to make inputs for
/// the decoder, which the server itself never needs.
public enum CBOREncoder {
    public static func encode(_ item: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        append(item, to: &out)
        return out
    }

    static func head(_ major: UInt8, _ value: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24..<256: out += [type | 24, UInt8(value)]
        case 256..<65_536: out += [type | 25] + bigEndian(value, 2)
        case 65_536..<4_294_967_296: out += [type | 26] + bigEndian(value, 4)
        default: out += [type | 27] + bigEndian(value, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    static func append(_ item: CBOR, to out: inout [UInt8]) {
        switch item {
        case .unsigned(let n): head(0, n, to: &out)
        case .negative(let n): head(1, UInt64(-1 - n), to: &out)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), to: &out)
            out += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), to: &out)
            out += Array(text.utf8)
        case .array(let items):
            head(4, UInt64(items.count), to: &out)
            for item in items { append(item, to: &out) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), to: &out)
            for pair in pairs {
                append(pair.key, to: &out)
                append(pair.value, to: &out)
            }
        case .bool(let flag): out.append(flag ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        }
    }
}
