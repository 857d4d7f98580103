import Crypto
import Foundation
import _CryptoExtras

/// A credential's public key as an authenticator gives it (a COSE_Key, RFC 9052/9053), for the
/// two algorithms we accept: ES256 (ECDSA on P-256 with SHA-256, COSE -7) and RS256 (RSASSA
/// PKCS#1 v1.5 with SHA-256, COSE -257). As python-fido2's `cose.py`: one type per
/// algorithm, parsed whole or refused.
public enum COSEKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// COSE algorithm identifiers (IANA "COSE Algorithms").
    public enum Algorithm: Int, Sendable, CaseIterable {
        case es256 = -7
        case rs256 = -257
    }

    /// Why a COSE key is refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Not a CBOR map (or, from bytes, not CBOR at all).
        case notAMap
        /// An algorithm other than ES256 and RS256 (or a key type that does not match it).
        case unsupportedAlgorithm(Int?)
        /// A curve other than P-256, a coordinate of the wrong length, a point not on the curve,
        /// or an RSA key under 2048 bits.
        case invalidKey
    }

    public var algorithm: Algorithm {
        switch self {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    /// Labels of the COSE_Key map (RFC 9052 §7, RFC 9053 §7).
    private enum Label {
        static let kty = 1, alg = 3
        static let crv = -1, x = -2, y = -3  // EC2
        static let n = -1, e = -2  // RSA
    }

    /// A key from its COSE bytes, as stored at registration.
    public init(bytes: [UInt8]) throws(Failure) {
        guard let cbor = try? CBORDecoder.decode(bytes) else { throw .notAMap }
        try self.init(cbor)
    }

    public init(_ cbor: CBOR) throws(Failure) {
        guard case .map = cbor else { throw .notAMap }
        let (kty, alg) = (cbor[label: Label.kty]?.int, cbor[label: Label.alg]?.int)
        switch (kty, alg) {
        case (2, Algorithm.es256.rawValue):
            guard cbor[label: Label.crv]?.int == 1, let x = cbor[label: Label.x]?.bytes, x.count == 32,
                let y = cbor[label: Label.y]?.bytes, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw .invalidKey }
            self = .es256(key)
        case (3, Algorithm.rs256.rawValue):
            guard let n = cbor[label: Label.n]?.bytes, let e = cbor[label: Label.e]?.bytes,
                (2048...8192).contains(Self.bitLength(n)), !e.isEmpty, e.count <= 8,
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { throw .invalidKey }
            self = .rs256(key)
        default:
            throw .unsupportedAlgorithm(alg)
        }
    }

    /// Whether `signature` is this key's over `data`: for ES256 an ASN.1 DER ECDSA signature (as
    /// WebAuthn sends it), for RS256 a PKCS#1 v1.5 one. A malformed signature is simply not valid.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rs256(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }

    /// The number of significant bits of a big-endian unsigned number.
    private static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }
}
