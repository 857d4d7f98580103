/// The authenticator data of a WebAuthn registration or assertion (WebAuthn Level 3 §6.1),
/// parsed once into its fields: the RP ID's hash, the flags, the signature counter and, at
/// registration, the new credential (AAGUID, id, public key). As python-fido2's
/// `webauthn.py`: bytes in, a typed value out, or a refusal; never a trap.
public struct AuthenticatorData: Sendable {
    /// SHA-256 of the RP ID the authenticator used.
    public let rpIdHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    /// Present when the AT flag is set (registration).
    public let attestedCredential: AttestedCredential?
    /// The exact bytes, which the assertion's signature covers.
    public let raw: [UInt8]

    public struct Flags: Sendable, Equatable {
        public let rawValue: UInt8
        /// User present (UP, bit 0).
        public var userPresent: Bool { rawValue & 0x01 != 0 }
        /// User verified (UV, bit 2).
        public var userVerified: Bool { rawValue & 0x04 != 0 }
        /// Backup eligible (BE, bit 3) and backed up (BS, bit 4).
        public var backupEligible: Bool { rawValue & 0x08 != 0 }
        public var backedUp: Bool { rawValue & 0x10 != 0 }
        /// Attested credential data included (AT, bit 6).
        public var attestedCredentialData: Bool { rawValue & 0x40 != 0 }
        /// Extension data included (ED, bit 7).
        public var extensionData: Bool { rawValue & 0x80 != 0 }
    }

    public struct AttestedCredential: Sendable {
        /// The authenticator model (all zeros with attestation `none` on some platforms).
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        public let publicKey: COSEKey
        /// The key's COSE bytes as sent: what is stored, and parsed again at each sign-in.
        public let publicKeyBytes: [UInt8]
    }

    /// Why authenticator data is refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Shorter than its 37 fixed bytes, or than what its flags and lengths say follows.
        case truncated
        /// A credential id over 1023 bytes (WebAuthn's limit).
        case credentialIDTooLong
        /// A credential id of no bytes.
        case emptyCredentialID
        case publicKey(COSEKey.Failure)
        case cbor(CBORDecoder.Failure)
        /// Bytes left after everything the flags announce.
        case trailingBytes
    }

    public init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count >= 37 else { throw .truncated }
        raw = bytes
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags.attestedCredentialData {
            guard bytes.count >= position + 18 else { throw .truncated }
            let aaguid = Array(bytes[position..<(position + 16)])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= 1023 else { throw .credentialIDTooLong }
            guard length > 0 else { throw .emptyCredentialID }
            guard bytes.count >= position + length else { throw .truncated }
            let id = Array(bytes[position..<(position + length)])
            position += length
            let key: CBOR
            let keyStart = position
            do {
                (key, position) = try CBORDecoder.decodePrefix(bytes, from: position)
            } catch {
                throw .cbor(error)
            }
            do {
                attestedCredential = AttestedCredential(
                    aaguid: aaguid, credentialID: id, publicKey: try COSEKey(key),
                    publicKeyBytes: Array(bytes[keyStart..<position]))
            } catch {
                throw .publicKey(error)
            }
        } else {
            attestedCredential = nil
        }
        if flags.extensionData {
            do {
                (_, position) = try CBORDecoder.decodePrefix(bytes, from: position)
            } catch {
                throw .cbor(error)
            }
        }
        guard position == bytes.count else { throw .trailingBytes }
    }
}
