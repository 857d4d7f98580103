import Crypto
import Encodings
import Foundation
import WebAuthnCore

/// A passkey authenticator made of a swift-crypto key, for the tests: it answers a site's
/// creation and sign-in options with the JSON a browser's `PublicKeyCredential.toJSON()` sends,
/// valid unless told otherwise (flags, origin, counter).
public struct SoftwareAuthenticator: Sendable {
    public let key = P256.Signing.PrivateKey()
    public let credentialID: [UInt8]
    /// The person's handle, as the site gave it at creation.
    public private(set) var userHandle: [UInt8] = []
    public var signCount: UInt32 = 0
    public var rpID: String
    public var origin: String
    /// AAGUID: iCloud Keychain's unless set.
    public var aaguid: [UInt8] = [
        0xFB, 0xFC, 0x30, 0x07, 0x15, 0x4E, 0x4E, 0xCC, 0x8C, 0x0B, 0x6E, 0x02, 0x05, 0x57, 0xD7, 0xBD,
    ]

    public init(rpID: String = "localhost", origin: String = "http://localhost:8080") {
        self.rpID = rpID
        self.origin = origin
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
    }

    /// The COSE ES256 key.
    public var publicKeyCOSE: CBOR {
        let point = Array(key.publicKey.x963Representation)
        return .map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(1)),
            (.negative(-2), .bytes(Array(point[1..<33]))), (.negative(-3), .bytes(Array(point[33..<65]))),
        ])
    }

    public func clientData(_ type: String, challenge: String, origin: String? = nil) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin ?? self.origin)","crossOrigin":false}"#
                .utf8)
    }

    /// The answer to creation options (their `challenge` and `user.id`, base64url).
    public mutating func register(
        challenge: String, userHandle: String, flags: UInt8 = 0x45, origin: String? = nil
    ) -> Data {
        self.userHandle = Base64URL.decode(userHandle) ?? []
        let authData =
            Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + bigEndian(signCount) + aaguid
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
            + CBOREncoder.encode(publicKeyCOSE)
        let object = CBOREncoder.encode(
            .map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]))
        return json([
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(clientData("webauthn.create", challenge: challenge, origin: origin)),
                "attestationObject": Base64URL.encode(object),
            ],
        ])
    }

    /// The answer to sign-in options (their `challenge`), the counter one up unless `count` is
    /// given.
    public mutating func signIn(
        challenge: String, flags: UInt8 = 0x05, origin: String? = nil, count: UInt32? = nil,
        userHandle: [UInt8]? = nil, signer: P256.Signing.PrivateKey? = nil
    ) -> Data {
        signCount = count ?? signCount + 1
        let authData = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags] + bigEndian(signCount)
        let client = clientData("webauthn.get", challenge: challenge, origin: origin)
        let signature = try! (signer ?? key).signature(for: authData + Array(SHA256.hash(data: client)))
        return json([
            "id": Base64URL.encode(credentialID), "rawId": Base64URL.encode(credentialID), "type": "public-key",
            "response": [
                "clientDataJSON": Base64URL.encode(client), "authenticatorData": Base64URL.encode(authData),
                "signature": Base64URL.encode(signature.derRepresentation),
                "userHandle": Base64URL.encode(userHandle ?? self.userHandle),
            ],
        ])
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private func json(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
