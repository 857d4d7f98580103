/// Reads one CBOR data item from bytes that anyone may have sent: it never traps, never reads
/// past the end, and never allocates more than the input could hold.
///
/// What WebAuthn needs and nothing else (as python-fido2's `cbor.py`): definite lengths only,
/// no tags, no floats, no simple values but `true`, `false` and `null`; text must be UTF-8;
/// map keys must be integers or text, each once. Nesting is limited to ``maxDepth`` and the
/// whole item to ``maxItems``, so a small input cannot make a deep recursion or a long loop.
public struct CBORDecoder {
    public static let maxDepth = 16
    public static let maxItems = 4096

    /// Why the bytes are no item WebAuthn uses.
    public enum Failure: Error, Equatable, Sendable {
        /// The bytes end inside an item.
        case truncated
        /// An indefinite length, a tag, a float or another simple value: not used by WebAuthn.
        case unsupported(majorType: UInt8, info: UInt8)
        /// An integer argument encoded in more bytes than its value needs is allowed by CBOR,
        /// but a length that does not fit memory is not.
        case tooLong
        case invalidUTF8
        /// A map key that is neither an integer nor text, or appears twice.
        case invalidMapKey
        case tooDeep
        case tooManyItems
        /// Bytes follow the item (only for ``decode(_:)``, which wants exactly one item).
        case trailingBytes
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    private var items = 0

    private init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    /// The one item `bytes` holds, with nothing after it.
    public static func decode(_ bytes: [UInt8]) throws(Failure) -> CBOR {
        var decoder = CBORDecoder(bytes, at: 0)
        let item = try decoder.item(depth: 0)
        guard decoder.position == bytes.count else { throw .trailingBytes }
        return item
    }

    /// The item that starts at `offset`, and where it ends: authenticator data holds a COSE key
    /// followed by more bytes (the extensions), and only decoding tells where the key ends.
    public static func decodePrefix(_ bytes: [UInt8], from offset: Int) throws(Failure) -> (CBOR, end: Int) {
        guard offset >= 0, offset <= bytes.count else { throw .truncated }
        var decoder = CBORDecoder(bytes, at: offset)
        let item = try decoder.item(depth: 0)
        return (item, decoder.position)
    }

    private mutating func byte() throws(Failure) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    /// The argument of an item's head: the value itself below 24, else the next 1, 2, 4 or 8
    /// bytes, big-endian.
    private mutating func argument(_ info: UInt8, major: UInt8) throws(Failure) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let count = 1 << Int(info - 24)
            guard bytes.count - position >= count else { throw .truncated }
            var value: UInt64 = 0
            for _ in 0..<count { value = value << 8 | UInt64(try byte()) }
            return value
        default: throw .unsupported(majorType: major, info: info)
        }
    }

    /// A length that the rest of the input can actually hold (each element takes a byte at
    /// least): a header claiming four billion elements fails here, before any allocation.
    private func length(_ value: UInt64, bytesEach: Int) throws(Failure) -> Int {
        let remaining = bytes.count - position
        guard value <= UInt64(remaining / bytesEach) else { throw value > UInt64(Int32.max) ? .tooLong : .truncated }
        return Int(value)
    }

    private mutating func item(depth: Int) throws(Failure) -> CBOR {
        guard depth <= Self.maxDepth else { throw .tooDeep }
        items += 1
        guard items <= Self.maxItems else { throw .tooManyItems }
        let head = try byte()
        let (major, info) = (head >> 5, head & 0x1F)
        switch major {
        case 0: return .unsigned(try argument(info, major: major))
        case 1:
            let n = try argument(info, major: major)
            guard n <= UInt64(Int64.max) else { throw .tooLong }
            return .negative(-1 - Int64(n))
        case 2, 3:
            // The argument first: `length` must see the position after it.
            let argument = try argument(info, major: major)
            let count = try length(argument, bytesEach: 1)
            let slice = Array(bytes[position..<(position + count)])
            position += count
            if major == 2 { return .bytes(slice) }
            guard let text = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            let argument = try argument(info, major: major)
            let count = try length(argument, bytesEach: 1)
            var elements: [CBOR] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let argument = try argument(info, major: major)
            let count = try length(argument, bytesEach: 2)
            var pairs: [(key: CBOR, value: CBOR)] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                switch key {
                case .unsigned, .negative, .text: break
                default: throw .invalidMapKey
                }
                guard !pairs.contains(where: { $0.key == key }) else { throw .invalidMapKey }
                pairs.append((key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        case 7:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw .unsupported(majorType: major, info: info)
            }
        default:  // 6: tags
            throw .unsupported(majorType: major, info: info)
        }
    }
}
