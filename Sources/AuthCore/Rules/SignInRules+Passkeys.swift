import Encodings
import Foundation
import WebAuthnCore

/// Passkeys (WebAuthn): the challenges, what a registration stores and what a sign-in with one
/// decides. The ceremonies' checks themselves are ``WebAuthnCore``'s; these rules add whose
/// challenge it is, how long it lives, that it is used once, whose passkey it is, and the
/// sign-in it leads to, which is the same signed-in session a right code makes.
extension SignInRules {
    /// How long a challenge may be answered (WebAuthn's recommended timeout range tops at 10
    /// minutes; the issue asks for at most 5).
    public static let passkeyChallengeLifetime: TimeInterval = 300
    /// The most passkeys one person keeps: enough for every phone, laptop and key they own.
    public static let maxPasskeysPerUser = 20

    // MARK: Registration

    /// What ``registrationOptions(_:given:)`` reads: the person's passkeys and handle.
    public func registrationOptionsReads(user: Int64) -> SingleRead<UserPasskeys> {
        SingleRead { $0.userPasskeys(user) }
    }

    /// "Create a passkey": a fresh challenge for the session that asked, the person's user handle
    /// (made now if they have none) and the passkeys the authenticator should not make again.
    public func registrationOptions(_ request: RegistrationStart, given found: UserPasskeys)
        -> AuthDecision<RegistrationOptions?>
    {
        guard found.passkeys.count < Self.maxPasskeysPerUser else { return AuthDecision(nil) }
        let handle = found.handle ?? request.newHandle
        let challenge = PasskeyChallenge(
            purpose: .register, challenge: request.challenge, userID: request.user, createdAt: request.now,
            expiresAt: request.now + Self.passkeyChallengeLifetime)
        return AuthDecision(
            RegistrationOptions(
                challenge: request.challenge, userHandle: handle, exclude: found.passkeys.map(\.credentialID)),
            changes: (found.handle == nil ? [.givePasskeyHandle(user: request.user, handle: handle)] : [])
                + [
                    .storePasskeyChallenge(
                        key: PasskeyChallenge.key(owner: request.owner, challenge: request.challenge),
                        challenge: challenge)
                ])
    }

    /// What ``register(_:given:)`` reads (``RegistrationReads``).
    public func registrationReads(_ request: PasskeyRegistration) -> RegistrationReads {
        RegistrationReads(request)
    }

    /// A new passkey: the session's challenge must be live and for registering this person, the
    /// ceremony must pass every check of WebAuthn Level 3 §7.1, and its credential must be new
    /// (step 26). The challenge is used up whatever the answer.
    public func register(_ request: PasskeyRegistration, given found: RegistrationFound)
        -> AuthDecision<RegistrationOutcome>
    {
        guard let key = request.challengeKey else { return AuthDecision(.refused(.clientData(.malformed))) }
        let used: [AuthChange] = found.challenge == nil ? [] : [.deletePasskeyChallenge(key: key)]
        guard let challenge = found.challenge, challenge.purpose == .register, challenge.userID == request.user.id,
            challenge.expiresAt > request.now
        else { return AuthDecision(.challengeExpired, changes: used) }
        guard found.passkeys.passkeys.count < Self.maxPasskeysPerUser else {
            return AuthDecision(.tooMany, changes: used)
        }
        let credential: NewCredential
        do {
            credential = try request.relyingParty.register(
                clientDataJSON: request.clientDataJSON, attestationObject: request.attestationObject,
                challenge: Base64URL.encode(challenge.challenge))
        } catch {
            return AuthDecision(.refused(error), changes: used)
        }
        // The id the browser's JSON names must be the one its authenticator data holds.
        if let named = request.namedCredentialID, named != Data(credential.id) {
            return AuthDecision(.refused(.attestationObject), changes: used)
        }
        guard found.existing == nil, Data(credential.id) == request.credentialID else {
            return AuthDecision(.alreadyRegistered, changes: used)
        }
        let name = KnownAuthenticators.name(of: credential.aaguid) ?? request.fallbackName
        return AuthDecision(
            .registered(name: name),
            changes: used + [
                .addPasskey(
                    NewPasskey(
                        credentialID: Data(credential.id), userID: request.user.id,
                        publicKey: Data(credential.publicKey), signCount: credential.signCount,
                        aaguid: Data(credential.aaguid), name: name, createdAt: request.now))
            ])
    }

    // MARK: Signing in

    /// What ``passkeySignInOptions(_:given:)`` reads: the client's challenges still out; the
    /// client is locked.
    public func passkeySignInOptionsReads(_ request: PasskeySignInStart) -> SingleRead<LimitWindow> {
        SingleRead(locks: request.client.map { [.client($0)] } ?? []) { list in
            guard let client = request.client else { return .known(.notCounted) }
            return list.limit(
                .clientPasskeyChallenges, of: client, max: policy.maxPasskeyChallengesPerClient,
                per: Self.passkeyChallengeLifetime, now: request.now)
        }
    }

    /// "Sign in with a passkey": a fresh challenge for the token the browser or app was given;
    /// refused while the client holds ``SignInPolicy/maxPasskeyChallengesPerClient`` (the returned time is
    /// when it may ask again). Asking counts as no sign-in: Login asks as it opens; answering does.
    public func passkeySignInOptions(_ request: PasskeySignInStart, given clientChallenges: LimitWindow)
        -> AuthDecision<Date?>
    {
        if let until = clientChallenges.fullUntil { return AuthDecision(until) }
        let challenge = PasskeyChallenge(
            purpose: .signIn, challenge: request.challenge, userID: nil, client: request.client,
            createdAt: request.now, expiresAt: request.now + Self.passkeyChallengeLifetime)
        return AuthDecision(
            nil,
            changes: [
                .storePasskeyChallenge(
                    key: PasskeyChallenge.key(owner: request.owner, challenge: request.challenge), challenge: challenge)
            ])
    }

    /// What ``passkeySignIn(_:given:)`` reads (``PasskeySignInReads``).
    public func passkeySignInReads(_ request: PasskeyAssertion) -> PasskeySignInReads {
        PasskeySignInReads(request, policy: policy)
    }

    /// A sign-in with a passkey (WebAuthn Level 3 §7.2), counted as a sign-in the client started
    /// and refused while its sign-ins are at their limit. The challenge must be this asker's,
    /// live and for signing in; the passkey must exist, not be turned off, and belong to the
    /// user handle the authenticator returned (step 6); then the ceremony's checks, the
    /// signature and the counter. A counter that did not go up turns the passkey off. The
    /// challenge is used up whatever the answer; a right one replaces the asker's session by a
    /// fresh signed-in one, as a right code does.
    public func passkeySignIn(_ request: PasskeyAssertion, given found: PasskeySignInFound)
        -> AuthDecision<PasskeySignInOutcome>
    {
        let now = request.now
        if let until = found.clientSignIns.fullUntil { return AuthDecision(.limited(until: until)) }
        let used: [AuthChange] =
            (found.challenge == nil ? [] : request.challengeKey.map { [.deletePasskeyChallenge(key: $0)] } ?? [])
            + (request.client.map { [.recordSignInStart(client: $0, at: now)] } ?? [])
        if request.challengeKey == nil { return AuthDecision(.refused(.clientData(.malformed)), changes: used) }
        guard let challenge = found.challenge, challenge.purpose == .signIn, challenge.expiresAt > now else {
            return AuthDecision(.challengeExpired, changes: used)
        }
        guard let passkey = found.passkey else { return AuthDecision(.unknownPasskey, changes: used) }
        guard let handle = request.userHandle, constantTimeEquals(handle, passkey.userHandle) else {
            return AuthDecision(.notYours, changes: used)
        }
        guard passkey.flaggedAt == nil else { return AuthDecision(.turnedOff, changes: used) }
        let key: COSEKey
        do {
            key = try COSEKey(bytes: Array(passkey.publicKey))
        } catch {
            return AuthDecision(.storedKeyUnreadable, changes: used)
        }
        let verified: VerifiedAssertion
        do {
            verified = try request.relyingParty.verifyAssertion(
                clientDataJSON: request.clientDataJSON, authenticatorData: request.authenticatorData,
                signature: request.signature, challenge: Base64URL.encode(challenge.challenge),
                credential: StoredCredential(publicKey: key, signCount: passkey.signCount))
        } catch .counterWentBack {
            return AuthDecision(.counterWentBack, changes: used + [.flagPasskey(id: passkey.id, at: now)])
        } catch {
            return AuthDecision(.refused(error), changes: used)
        }
        let absolute = now + policy.sessionLifetime
        return AuthDecision(
            .signedIn(phone: passkey.phone),
            changes: used + [.usePasskey(id: passkey.id, signCount: verified.signCount, at: now)]
                + (request.replacing.map { [.deleteSession(key: $0)] } ?? []) + [
                    .signIn(
                        phone: passkey.phone, session: request.signedInSession, at: now,
                        expiresAt: min(absolute, now + policy.sessionIdleTimeout), absoluteExpiresAt: absolute,
                        userAgent: request.userAgent, api: request.api, method: .passkey)
                ])
    }
}

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
}
