import Encodings
import Foundation
import WebAuthnCore

// What a passkey ceremony asks of the rules and what they answer: the typed requests and
// outcomes of SignInRules+Passkeys.

/// A person asking to create a passkey.
public struct RegistrationStart: Sendable {
    public var user: Int64
    /// The storage key of the signed-in session asking.
    public var owner: Data
    public var challenge: Data
    /// The user handle to give the person if they have none (32 random bytes).
    public var newHandle: Data
    public var now: Double

    public init(user: Int64, owner: Data, challenge: Data, newHandle: Data, now: Double) {
        self.user = user
        self.owner = owner
        self.challenge = challenge
        self.newHandle = newHandle
        self.now = now
    }
}

/// What the browser is asked to create (the rest of the options are fixed).
public struct RegistrationOptions: Sendable, Equatable {
    public var challenge: Data
    public var userHandle: Data
    /// The person's passkeys' credential ids, so an authenticator that holds one makes no second.
    public var exclude: [Data]
}

/// A browser's answer to a registration challenge.
public struct PasskeyRegistration: Sendable {
    public var user: User
    public var owner: Data
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]
    /// The new credential's id as the attestation names it (read before the plan, to look it up);
    /// `nil` when the attestation does not parse, which the checks then refuse.
    public var credentialID: Data?
    /// Where the challenge this answer signed is stored (its owner's token and the challenge in
    /// `clientDataJSON`); `nil` when the client data does not parse.
    public var challengeKey: Data?
    /// The credential id the browser's JSON names (`id`), when known.
    public var namedCredentialID: Data?
    /// The passkey's name when its AAGUID names no known authenticator: the browser's.
    public var fallbackName: String
    /// The browser's `User-Agent` and client, for the event.
    public var userAgent: String? = nil
    public var client: String? = nil
    public var relyingParty: RelyingParty
    public var now: Double

    public init(
        user: User, owner: Data, clientDataJSON: [UInt8], attestationObject: [UInt8], fallbackName: String,
        relyingParty: RelyingParty, now: Double
    ) {
        self.user = user
        self.owner = owner
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.credentialID = RelyingParty.credentialID(in: attestationObject).map { Data($0) }
        self.challengeKey = PasskeyChallenge.key(owner: owner, answering: clientDataJSON)
        self.fallbackName = fallbackName
        self.relyingParty = relyingParty
        self.now = now
    }
}

/// What a registration came to.
public enum RegistrationOutcome: Sendable, Equatable {
    case registered(name: String)
    /// No live registration challenge for this session and person (expired, used, never given).
    case challengeExpired
    case tooMany
    /// The credential id is already registered (to this person or another).
    case alreadyRegistered
    case refused(CeremonyFailure)
}

/// A browser or app asking to sign in with a passkey.
public struct PasskeySignInStart: Sendable {
    /// The SHA-256 of the token the asker is given with the challenge.
    public var owner: Data
    public var challenge: Data
    public var client: String?
    public var now: Double

    public init(owner: Data, challenge: Data, client: String?, now: Double) {
        self.owner = owner
        self.challenge = challenge
        self.client = client
        self.now = now
    }
}

/// A browser's or app's answer to a sign-in challenge.
public struct PasskeyAssertion: Sendable {
    public var owner: Data
    public var credentialID: Data
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
    public var userHandle: Data?
    /// Where the challenge this answer signed is stored; `nil` when the client data does not parse.
    public var challengeKey: Data?
    public var relyingParty: RelyingParty
    /// Storage key of the signed-in session to create on success.
    public var signedInSession: Data
    /// The session the browser had (a sign-in by text in progress), ended on success.
    public var replacing: Data?
    public var userAgent: String?
    /// An API token rather than a browser's session.
    public var api: Bool
    /// The client address, for its sign-in limit.
    public var client: String?
    public var now: Double

    public init(
        owner: Data, credentialID: Data, clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: Data?, relyingParty: RelyingParty, signedInSession: Data, replacing: Data?, userAgent: String?,
        api: Bool, client: String?, now: Double
    ) {
        self.client = client
        self.challengeKey = PasskeyChallenge.key(owner: owner, answering: clientDataJSON)
        self.owner = owner
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.relyingParty = relyingParty
        self.signedInSession = signedInSession
        self.replacing = replacing
        self.userAgent = userAgent
        self.api = api
        self.now = now
    }
}

/// What a sign-in with a passkey came to.
public enum PasskeySignInOutcome: Sendable, Equatable {
    /// Signed in as the passkey's person (whose id the store reports).
    case signedIn(phone: String)
    case challengeExpired
    case unknownPasskey
    /// The user handle returned is not the passkey's person's.
    case notYours
    /// The passkey was turned off by a counter that did not go up.
    case turnedOff
    /// Its counter did not go up: refused, and the passkey is turned off now.
    case counterWentBack
    /// The stored key does not parse (the data is damaged): refused.
    case storedKeyUnreadable
    case refused(CeremonyFailure)
    /// The client started too many sign-ins lately: nothing was checked or used.
    case limited(until: Date)
    /// The passkey proved an account that is detached from its number: nobody is signed in (the
    /// account has no number to be signed in with); the person attaches a new one.
    case accountDetached(user: Int64)
}
