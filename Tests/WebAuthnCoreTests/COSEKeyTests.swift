import Crypto
import Foundation
import TestSupport
import Testing
import _CryptoExtras

@testable import WebAuthnCore

/// COSE keys (issue 27): ES256 and RS256 parsed from what an authenticator sends and checked
/// against signatures made with swift-crypto; anything else refused with a typed failure.
@Suite("COSE keys and authenticator data")
struct COSEKeyTests {
    static func es256(_ key: P256.Signing.PublicKey, alg: Int64 = -7, crv: UInt64 = 1) -> CBOR {
        let point = Array(key.x963Representation)  // 0x04 ‖ x ‖ y
        return .map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(alg)), (.negative(-1), .unsigned(crv)),
            (.negative(-2), .bytes(Array(point[1..<33]))), (.negative(-3), .bytes(Array(point[33..<65]))),
        ])
    }

    @Test("ES256: the key verifies its own DER signature, and no other data, signature or key")
    func es256() throws {
        let signer = P256.Signing.PrivateKey()
        let key = try COSEKey(Self.es256(signer.publicKey))
        #expect(key.algorithm == .es256)
        let data = Array("authenticatorData ‖ SHA-256(clientDataJSON)".utf8)
        let signature = Array(try signer.signature(for: data).derRepresentation)
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature, for: data + [0]))
        #expect(!key.isValidSignature(Array(signature.dropLast()), for: data))
        #expect(!key.isValidSignature([], for: data))
        let other = try COSEKey(Self.es256(P256.Signing.PrivateKey().publicKey))
        #expect(!other.isValidSignature(signature, for: data))
    }

    @Test("RS256: a 2048-bit key verifies its PKCS#1 v1.5 signature; a 1024-bit key is refused")
    func rs256() throws {
        let signer = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try signer.publicKey.getKeyPrimitives()
        let cose = CBOR.map([
            (.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(-257)),
            (.negative(-1), .bytes(Array(primitives.modulus))),
            (.negative(-2), .bytes(Array(primitives.publicExponent))),
        ])
        let key = try COSEKey(cose)
        #expect(key.algorithm == .rs256)
        let data = Array("signed".utf8)
        let signature = Array(try signer.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        #expect(key.isValidSignature(signature, for: data))
        #expect(!key.isValidSignature(signature, for: data + [1]))
        let short = CBOR.map([
            (.unsigned(1), .unsigned(3)), (.unsigned(3), .negative(-257)),
            (.negative(-1), .bytes([0x80] + [UInt8](repeating: 1, count: 127))), (.negative(-2), .bytes([1, 0, 1])),
        ])
        #expect(throws: COSEKey.Failure.invalidKey) { try COSEKey(short) }
    }

    @Test("another algorithm, curve, length or point, or no map at all, is refused")
    func refusals() throws {
        let key = P256.Signing.PrivateKey().publicKey
        #expect(throws: COSEKey.Failure.unsupportedAlgorithm(-8)) { try COSEKey(Self.es256(key, alg: -8)) }
        #expect(throws: COSEKey.Failure.invalidKey) { try COSEKey(Self.es256(key, crv: 2)) }
        #expect(throws: COSEKey.Failure.notAMap) { try COSEKey(.array([])) }
        guard case .map(var pairs) = Self.es256(key) else { return }
        pairs[3].value = .bytes([UInt8](repeating: 7, count: 31))
        #expect(throws: COSEKey.Failure.invalidKey) { try COSEKey(.map(pairs)) }
        pairs[3].value = .bytes([UInt8](repeating: 7, count: 32))  // (7…7, y): not on the curve
        #expect(throws: COSEKey.Failure.invalidKey) { try COSEKey(.map(pairs)) }
    }

    /// Authenticator data with a new credential: rpIdHash, flags UP|UV|AT, counter 5, AAGUID,
    /// a 16-byte id and `key`.
    static func registration(_ key: P256.Signing.PublicKey, extra: [UInt8] = []) -> [UInt8] {
        let rpIdHash = Array(SHA256.hash(data: Array("localhost".utf8)))
        return rpIdHash + [0x45, 0, 0, 0, 5] + [UInt8](repeating: 0xAA, count: 16) + [0, 16]
            + [UInt8](repeating: 0x11, count: 16) + CBOREncoder.encode(es256(key)) + extra
    }

    @Test("authenticator data: its fields, the new credential and its key; every truncation refused")
    func authenticatorData() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let bytes = Self.registration(key)
        let data = try AuthenticatorData(bytes)
        #expect(data.rpIdHash == Array(SHA256.hash(data: Array("localhost".utf8))))
        #expect(data.flags.userPresent && data.flags.userVerified && data.flags.attestedCredentialData)
        #expect(data.signCount == 5)
        #expect(data.attestedCredential?.credentialID == [UInt8](repeating: 0x11, count: 16))
        #expect(data.attestedCredential?.aaguid == [UInt8](repeating: 0xAA, count: 16))
        #expect(data.attestedCredential?.publicKey.algorithm == .es256)
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self, "\(length)") { try AuthenticatorData(Array(bytes.prefix(length))) }
        }
        #expect(throws: AuthenticatorData.Failure.trailingBytes) { try AuthenticatorData(bytes + [0]) }
        // An assertion's: 37 bytes, no credential.
        let assertion = try AuthenticatorData(Array(bytes.prefix(32)) + [0x05, 0, 0, 1, 0])
        #expect(
            assertion.attestedCredential == nil && assertion.signCount == 256 && !assertion.flags.attestedCredentialData
        )
        // A credential id longer than WebAuthn allows.
        var long = Array(bytes.prefix(37)) + [UInt8](repeating: 0, count: 16) + [0x04, 0x00]
        long += [UInt8](repeating: 1, count: 1024)
        #expect(throws: AuthenticatorData.Failure.credentialIDTooLong) { try AuthenticatorData(long) }
    }

    @Test("20,000 mangled registrations: each parses or is a typed refusal; nothing traps")
    func fuzzAuthenticatorData() {
        let valid = Self.registration(P256.Signing.PrivateKey().publicKey)
        var generator = SeededGenerator(seed: 37)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator)) }
            if (try? AuthenticatorData(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed > 100)
    }
}
