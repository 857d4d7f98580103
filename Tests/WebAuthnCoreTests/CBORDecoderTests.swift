import Encodings
import Foundation
import TestSupport
import Testing

@testable import WebAuthnCore

/// The CBOR decoder (issue 27): RFC 8949's examples, what WebAuthn never sends refused with a
/// typed failure, random items round-tripped, and random or mangled bytes never crashing it.
@Suite("CBOR")
struct CBORDecoderTests {
    static func hex(_ text: String) -> [UInt8] {
        Array(Data(hexString: text)!)
    }

    @Test(
        "RFC 8949 Appendix A's examples WebAuthn can meet decode to their values",
        arguments: [
            ("00", CBOR.unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1864", .unsigned(100)),
            ("1a000f4240", .unsigned(1_000_000)), ("1bffffffffffffffff", .unsigned(.max)), ("20", .negative(-1)),
            ("3903e7", .negative(-1000)), ("4401020304", .bytes([1, 2, 3, 4])), ("40", .bytes([])),
            ("6449455446", .text("IETF")), ("62c3bc", .text("\u{fc}")), ("f4", .bool(false)), ("f5", .bool(true)),
            ("f6", .null),
            (
                "8301820203820405",
                .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
            ),
            ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
            (
                "a26161016162820203",
                .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])
            ),
        ] as [(String, CBOR)])
    func examples(_ encoded: String, _ value: CBOR) throws {
        #expect(try CBORDecoder.decode(Self.hex(encoded)) == value)
        #expect(CBOREncoder.encode(value) == Self.hex(encoded))
    }

    @Test(
        "what WebAuthn never sends, and what no input may make the decoder do, is a typed refusal",
        arguments: [
            ("f97c00", CBORDecoder.Failure.unsupported(majorType: 7, info: 25)),  // a float
            ("5f42010243030405ff", .unsupported(majorType: 2, info: 31)),  // an indefinite length
            ("c11a514b67b0", .unsupported(majorType: 6, info: 1)),  // a tag
            ("f0", .unsupported(majorType: 7, info: 16)),  // another simple value
            ("3bffffffffffffffff", .tooLong),  // below Int64.min
            ("9affffffff", .tooLong),  // an array of 4 billion items in 5 bytes
            ("5b0000000100000000", .tooLong),  // a byte string of 4 GiB
            ("450102", .truncated), ("19", .truncated), ("a1", .truncated), ("", .truncated),
            ("62c328", .invalidUTF8), ("a201020103", .invalidMapKey),  // 1 twice
            ("a1410001", .invalidMapKey),  // a byte-string key
            ("a2010201", .truncated), ("0000", .trailingBytes),
            (String(repeating: "81", count: 17) + "00", .tooDeep),
        ] as [(String, CBORDecoder.Failure)])
    func refusals(_ encoded: String, _ failure: CBORDecoder.Failure) {
        #expect(throws: failure) { try CBORDecoder.decode(Self.hex(encoded)) }
    }

    @Test("an item of 4097 elements is refused, however small its bytes")
    func tooManyItems() {
        let wide = [0x99, 0x10, 0x00] + [UInt8](repeating: 0x00, count: 4096)  // [0, 0, …] × 4096
        #expect(throws: CBORDecoder.Failure.tooManyItems) { try CBORDecoder.decode(wide) }
    }

    /// A random item of WebAuthn's kinds, at most `depth` deep.
    static func randomItem(_ generator: inout SeededGenerator, depth: Int) -> CBOR {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &generator) {
        case 0:
            return .unsigned(
                UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0..<64, using: &generator))
        case 1:
            return .negative(
                -1 - Int64.random(in: 0...Int64.max, using: &generator) >> Int64.random(in: 0..<63, using: &generator))
        case 2:
            return .bytes(
                (0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        case 3:
            let scalars = (0..<Int.random(in: 0..<12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0x20...0x2FFF, using: &generator))
            }
            return .text(String(String.UnicodeScalarView(scalars)))
        case 4: return .bool(Bool.random(using: &generator))
        case 5: return .null
        case 6, 7:
            return .array(
                (0..<Int.random(in: 0..<5, using: &generator)).map { _ in randomItem(&generator, depth: depth - 1) })
        default:
            var pairs: [(key: CBOR, value: CBOR)] = []
            for index in 0..<Int.random(in: 0..<5, using: &generator) {
                let key: CBOR = Bool.random(using: &generator) ? .negative(-1 - Int64(index)) : .text("k\(index)")
                pairs.append((key, randomItem(&generator, depth: depth - 1)))
            }
            return .map(pairs)
        }
    }

    @Test("2,000 random items, encoded the shortest way, decode to themselves")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 27)
        for _ in 0..<2000 {
            let item = Self.randomItem(&generator, depth: 4)
            #expect(try CBORDecoder.decode(CBOREncoder.encode(item)) == item)
        }
    }

    @Test("50,000 random and mangled inputs: each decodes or is a typed refusal; nothing traps or hangs")
    func fuzz() {
        var generator = SeededGenerator(seed: 2027)
        var decoded = 0
        for round in 0..<50_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<48, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                // A valid item with one byte changed, one cut off, or a length byte set high.
                bytes = CBOREncoder.encode(Self.randomItem(&generator, depth: 3))
                if !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.removeSubrange(at...)
                    default: bytes[at] |= 0x1B
                    }
                }
            }
            do {
                _ = try CBORDecoder.decode(bytes)
                decoded += 1
            } catch {
                // A typed refusal is the other possible answer (the compiler knows it is one).
            }
        }
        #expect(decoded > 1000)
    }
}
