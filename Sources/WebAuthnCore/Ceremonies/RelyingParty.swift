import Crypto
import Encodings

/// What this site expects of every ceremony: its RP ID (the host, e.g. `login.example.com`;
/// `localhost` in development) and the one origin its pages are served from
/// (`https://login.example.com`, or `http://localhost:8080`).
public struct RelyingParty: Sendable, Equatable {
    public let id: String
    public let origin: String
    /// The native apps' origins that may use this site's passkeys too: Android's Credential
    /// Manager says `android:apk-key-hash:<base64url SHA-256 of the app's signing certificate>`
    /// (an iOS app with the associated domain says the site's own origin).
    public let appOrigins: [String]

    public init(id: String, origin: String, appOrigins: [String] = []) {
        self.id = id
        self.origin = origin
        self.appOrigins = appOrigins
    }

    /// The origin an Android app signed with the certificate of this SHA-256 presents.
    public static func androidOrigin(certificateSHA256: [UInt8]) -> String {
        "android:apk-key-hash:" + Base64URL.encode(certificateSHA256)
    }

    /// SHA-256 of the RP ID, as authenticator data carries it.
    public var idHash: [UInt8] { Array(SHA256.hash(data: Array(id.utf8))) }

    /// The checks both ceremonies share, in the specification's order (§7.1 steps 7-9 and 13-16,
    /// §7.2 steps 11-13 and 15-18): the type, the challenge (compared in constant time), the
    /// origin, the RP ID's hash, the UP and UV flags, and BS only with BE (§7.1 step 18, §7.2
    /// step 19).
    func checkShared(
        _ client: ClientData, type: String, challenge: String, data: AuthenticatorData
    ) throws(CeremonyFailure) {
        guard client.type == type else { throw .wrongType }
        guard constantTimeEquals(Array(client.challenge.utf8), Array(challenge.utf8)) else {
            throw .wrongChallenge
        }
        // Our pages never run a ceremony in a frame: another site's top-level page is refused.
        guard client.origin == origin || appOrigins.contains(client.origin), !client.crossOrigin,
            client.topOrigin == nil || client.topOrigin == client.origin
        else { throw .wrongOrigin }
        guard constantTimeEquals(data.rpIdHash, idHash) else { throw .wrongRelyingParty }
        guard data.flags.userPresent else { throw .userNotPresent }
        guard data.flags.userVerified else { throw .userNotVerified }
        guard data.flags.backupEligible || !data.flags.backedUp else { throw .backupStateInvalid }
    }
}

/// Why a registration or a sign-in with a passkey is refused. Each has its sentence for the
/// person where the pages show it, and its line in the log; none carries a secret.
public enum CeremonyFailure: Error, Equatable, Sendable {
    case clientData(ClientData.Failure)
    case authenticatorData(AuthenticatorData.Failure)
    case attestationObject
    /// An attestation format other than `none` (we ask for none).
    case unsupportedAttestation(String)
    case wrongType
    case wrongChallenge
    case wrongOrigin
    case wrongRelyingParty
    case userNotPresent
    case userNotVerified
    /// Registration: authenticator data without a new credential.
    case noCredential
    /// Sign-in: the signature is not the credential's key's over authenticatorData ‖
    /// SHA-256(clientDataJSON).
    case badSignature
    /// Sign-in: a counter that did not go up (a cloned authenticator, or a replay).
    case counterWentBack
    /// Backed up (BS) without being backup-eligible (BE): no authenticator can be in that state
    /// (WebAuthn Level 3 §6.1.3), so the data is forged or broken (§7.1 step 18, §7.2 step 19).
    case backupStateInvalid
}
