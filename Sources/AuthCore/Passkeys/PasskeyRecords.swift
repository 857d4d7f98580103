import Crypto
import Encodings
import Foundation
import WebAuthnCore

/// What a passkey challenge was given for.
public enum PasskeyPurpose: String, Sendable, Equatable {
    /// Creating a passkey for the signed-in person.
    case register
    /// Signing in with one.
    case signIn = "sign_in"
}

/// A challenge as stored: random, for one ceremony, bound to whoever asked for it (the owner:
/// the storage key of the signed-in session that registers, or the SHA-256 of the token the
/// signing-in browser or app was given with it), and short-lived. Used once, whatever the result.
/// Stored under ``key(owner:challenge:)``: an answer finds it only with its owner's token and
/// the challenge it signed, and one browser may hold several (a Login in each tab).
public struct PasskeyChallenge: Sendable, Equatable {
    /// SHA-256 of the owner and the challenge.
    public static func key(owner: Data, challenge: Data) -> Data {
        Data(SHA256.hash(data: owner + challenge))
    }

    /// The key of the challenge a browser's `clientDataJSON` answers, for `owner`; `nil` when the
    /// client data does not parse or names no challenge of ours (32 bytes).
    static func key(owner: Data, answering clientDataJSON: [UInt8]) -> Data? {
        guard let client = try? ClientData(clientDataJSON), let challenge = Base64URL.decode(client.challenge),
            challenge.count == 32
        else { return nil }
        return key(owner: owner, challenge: Data(challenge))
    }

    public var purpose: PasskeyPurpose
    /// The 32 random bytes the browser signs over (base64url in `clientDataJSON`).
    public var challenge: Data
    /// Registration: the user the passkey is for.
    public var userID: Int64?
    /// Sign-in: the client address that asked (its challenges are limited).
    public var client: String?
    public var createdAt: Double
    public var expiresAt: Double

    public init(
        purpose: PasskeyPurpose, challenge: Data, userID: Int64?, client: String? = nil, createdAt: Double,
        expiresAt: Double
    ) {
        self.purpose = purpose
        self.challenge = challenge
        self.userID = userID
        self.client = client
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether the challenge may be answered at `now`: not expired, and not made after `now`
    /// (before the clock was set back), as ``StoredCode/isLive(at:)``.
    public func isLive(at now: Double) -> Bool {
        expiresAt > now && SignInRules.hasHappened(createdAt, by: now)
    }
}

/// A passkey as stored: whose it is, its public key and counter, and what "Your devices" shows.
public struct PasskeyRecord: Sendable, Equatable {
    public var id: Int64
    /// The credential id the authenticator chose (up to 1,023 bytes).
    public var credentialID: Data
    public var userID: Int64
    /// The person's phone number (E.164), read with the passkey; empty when the account is
    /// detached from its number ("This number is new to me", said by the number's new holder).
    public var phone: String
    /// The person's WebAuthn user handle, which a sign-in with the passkey must carry.
    public var userHandle: Data
    /// The COSE key's bytes, as registered.
    public var publicKey: Data
    public var signCount: UInt32
    public var name: String
    public var createdAt: Double
    public var lastUsedAt: Double?
    /// When a sign-in's counter did not go up (a copied authenticator?): it signs no one in since.
    public var flaggedAt: Double?

    public init(
        id: Int64, credentialID: Data, userID: Int64, phone: String, userHandle: Data, publicKey: Data,
        signCount: UInt32, name: String, createdAt: Double, lastUsedAt: Double? = nil, flaggedAt: Double? = nil
    ) {
        self.id = id
        self.credentialID = credentialID
        self.userID = userID
        self.phone = phone
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.flaggedAt = flaggedAt
    }
}

/// A person's passkeys and what goes with them: their user handle (`nil` until their first
/// passkey's options made one) and whether they said "Not now" to the offer on Home.
public struct UserPasskeys: Sendable, Equatable {
    public var handle: Data?
    public var offerDismissed: Bool
    /// Newest first.
    public var passkeys: [PasskeyRecord]

    public init(handle: Data?, offerDismissed: Bool, passkeys: [PasskeyRecord]) {
        self.handle = handle
        self.offerDismissed = offerDismissed
        self.passkeys = passkeys
    }
}

/// A passkey to store, checked.
public struct NewPasskey: Sendable, Equatable {
    public var credentialID: Data
    public var userID: Int64
    public var publicKey: Data
    public var signCount: UInt32
    public var aaguid: Data
    public var name: String
    public var createdAt: Double

    public init(
        credentialID: Data, userID: Int64, publicKey: Data, signCount: UInt32, aaguid: Data, name: String,
        createdAt: Double
    ) {
        self.credentialID = credentialID
        self.userID = userID
        self.publicKey = publicKey
        self.signCount = signCount
        self.aaguid = aaguid
        self.name = name
        self.createdAt = createdAt
    }
}
