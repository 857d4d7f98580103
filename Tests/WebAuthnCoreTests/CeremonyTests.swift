import Crypto
import Foundation
import TestSupport
import Testing

@testable import WebAuthnCore

/// The two ceremonies' checks (issue 27), with a software authenticator made of swift-crypto
/// keys: a valid registration and sign-in pass; each attack of the issue is refused with its
/// own failure (another site's origin, another challenge, UV false, a replay, a counter going
/// back, another key's signature, a 1 MB clientDataJSON, attestation other than none).
@Suite("Passkey ceremonies")
struct CeremonyTests {
    let site = RelyingParty(id: "localhost", origin: "http://localhost:8080")
    let key = P256.Signing.PrivateKey()

    func clientData(
        _ type: String, challenge: String = "c2lnbi1pbi1jaGFsbGVuZ2U", origin: String = "http://localhost:8080",
        crossOrigin: Bool = false
    ) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":\#(crossOrigin)}"#
                .utf8)
    }

    func attestation(
        flags: UInt8 = 0x45, format: String = "none", statement: CBOR = .map([]), rpID: String = "localhost"
    )
        -> [UInt8]
    {
        var authData = COSEKeyTests.registration(key.publicKey)
        authData.replaceSubrange(0..<32, with: Array(SHA256.hash(data: Array(rpID.utf8))))
        authData[32] = flags
        return CBOREncoder.encode(
            .map([(.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authData))]))
    }

    @Test("a registration with attestation none gives the credential to store; its key parses again")
    func registration() throws {
        let credential = try site.register(
            clientDataJSON: clientData("webauthn.create"), attestationObject: attestation(),
            challenge: "c2lnbi1pbi1jaGFsbGVuZ2U")
        #expect(credential.id == [UInt8](repeating: 0x11, count: 16))
        #expect(credential.algorithm == .es256)
        #expect(credential.signCount == 5)
        let stored = try COSEKey(try CBORDecoder.decode(credential.publicKey))
        #expect(stored.algorithm == .es256)
    }

    @Test(
        "registrations refused, each with its reason",
        arguments: [
            ("another challenge", CeremonyFailure.wrongChallenge), ("another origin", .wrongOrigin),
            ("cross-origin", .wrongOrigin), ("another top origin", .wrongOrigin), ("a get, not a create", .wrongType), ("UV false", .userNotVerified),
            ("UP false", .userNotPresent), ("another RP ID", .wrongRelyingParty),
            ("backed up but not backup-eligible", .backupStateInvalid),
            ("packed attestation", .unsupportedAttestation("packed")), ("a statement", .attestationObject),
            ("no credential", .noCredential), ("1 MB of client data", .clientData(.tooLong)),
            ("client data not JSON", .clientData(.malformed)),
        ] as [(String, CeremonyFailure)])
    func registrationRefused(_ attack: String, _ failure: CeremonyFailure) {
        var client = clientData("webauthn.create")
        var object = attestation()
        switch attack {
        case "another challenge": client = clientData("webauthn.create", challenge: "b3RoZXI")
        case "another origin": client = clientData("webauthn.create", origin: "https://evil.example")
        case "cross-origin": client = clientData("webauthn.create", crossOrigin: true)
        case "another top origin":
            client = Array(
                #"{"type":"webauthn.create","challenge":"c2lnbi1pbi1jaGFsbGVuZ2U","origin":"http://localhost:8080","crossOrigin":false,"topOrigin":"https://evil.example"}"#
                    .utf8)
        case "a get, not a create": client = clientData("webauthn.get")
        case "UV false": object = attestation(flags: 0x41)
        case "UP false": object = attestation(flags: 0x44)
        case "backed up but not backup-eligible": object = attestation(flags: 0x45 | 0x10)
        case "another RP ID": object = attestation(rpID: "evil.example")
        case "packed attestation": object = attestation(format: "packed")
        case "a statement": object = attestation(statement: .map([(.text("alg"), .negative(-7))]))
        case "no credential":
            // Flags without AT, and the authenticator data cut to its 37 fixed bytes.
            var authData = COSEKeyTests.registration(key.publicKey)
            authData[32] = 0x05
            object = CBOREncoder.encode(
                .map([
                    (.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                    (.text("authData"), .bytes(Array(authData.prefix(37)))),
                ]))
        case "1 MB of client data": client = [UInt8](repeating: 0x20, count: 1 << 20)
        default: client = Array("{}".utf8)
        }
        #expect(throws: failure, "\(attack)") {
            try site.register(clientDataJSON: client, attestationObject: object, challenge: "c2lnbi1pbi1jaGFsbGVuZ2U")
        }
    }

    /// An assertion's authenticator data (UP|UV, counter) and its signature by `signer`.
    func assertion(counter: UInt32, flags: UInt8 = 0x05, client: [UInt8], signer: P256.Signing.PrivateKey? = nil)
        throws -> (authData: [UInt8], signature: [UInt8])
    {
        let authData =
            site.idHash + [flags] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> UInt32($0)) }
        let signed = authData + Array(SHA256.hash(data: client))
        return (authData, Array(try (signer ?? key).signature(for: signed).derRepresentation))
    }

    @Test("a sign-in passes once; the same assertion again, or a counter not going up, is refused")
    func signIn() throws {
        let client = clientData("webauthn.get")
        let stored = StoredCredential(publicKey: .es256(key.publicKey), signCount: 5)
        let (authData, signature) = try assertion(counter: 6, client: client)
        let verified = try site.verifyAssertion(
            clientDataJSON: client, authenticatorData: authData, signature: signature,
            challenge: "c2lnbi1pbi1jaGFsbGVuZ2U", credential: stored)
        #expect(verified.signCount == 6)
        // Replayed: the stored counter is 6 now.
        #expect(throws: CeremonyFailure.counterWentBack) {
            try site.verifyAssertion(
                clientDataJSON: client, authenticatorData: authData, signature: signature,
                challenge: "c2lnbi1pbi1jaGFsbGVuZ2U",
                credential: StoredCredential(publicKey: .es256(key.publicKey), signCount: 6))
        }
        // A synced passkey (backup-eligible and backed up) is fine.
        let (synced, syncedSignature) = try assertion(counter: 7, flags: 0x05 | 0x08 | 0x10, client: client)
        _ = try site.verifyAssertion(
            clientDataJSON: client, authenticatorData: synced, signature: syncedSignature,
            challenge: "c2lnbi1pbi1jaGFsbGVuZ2U",
            credential: StoredCredential(publicKey: .es256(key.publicKey), signCount: 6))
        // An authenticator that keeps no counter (0, as synced passkeys do) is fine.
        let (zero, zeroSignature) = try assertion(counter: 0, client: client)
        _ = try site.verifyAssertion(
            clientDataJSON: client, authenticatorData: zero, signature: zeroSignature,
            challenge: "c2lnbi1pbi1jaGFsbGVuZ2U",
            credential: StoredCredential(publicKey: .es256(key.publicKey), signCount: 0))
    }

    @Test(
        "sign-ins refused, each with its reason",
        arguments: [
            ("another key's signature", CeremonyFailure.badSignature), ("another challenge", .wrongChallenge),
            ("another origin", .wrongOrigin), ("a create, not a get", .wrongType), ("UV false", .userNotVerified),
            ("a tampered signature", .badSignature), ("1 MB of client data", .clientData(.tooLong)),
            ("short authenticator data", .authenticatorData(.truncated)),
            ("backed up but not backup-eligible", .backupStateInvalid),
        ] as [(String, CeremonyFailure)])
    func signInRefused(_ attack: String, _ failure: CeremonyFailure) throws {
        var client = clientData("webauthn.get")
        var signer = key
        var flags: UInt8 = 0x05
        switch attack {
        case "another key's signature": signer = P256.Signing.PrivateKey()
        case "another challenge": client = clientData("webauthn.get", challenge: "b3RoZXI")
        case "another origin": client = clientData("webauthn.get", origin: "http://localhost:8081")
        case "a create, not a get": client = clientData("webauthn.create")
        case "UV false": flags = 0x01
        case "backed up but not backup-eligible": flags = 0x05 | 0x10
        case "1 MB of client data": client = [UInt8](repeating: 0x20, count: 1 << 20)
        default: break
        }
        var (authData, signature) = try assertion(counter: 9, flags: flags, client: client, signer: signer)
        if attack == "a tampered signature" { signature[signature.count - 1] ^= 1 }
        if attack == "short authenticator data" { authData.removeLast() }
        #expect(throws: failure, "\(attack)") {
            try site.verifyAssertion(
                clientDataJSON: client, authenticatorData: authData, signature: signature,
                challenge: "c2lnbi1pbi1jaGFsbGVuZ2U",
                credential: StoredCredential(publicKey: .es256(key.publicKey), signCount: 5))
        }
    }
}
