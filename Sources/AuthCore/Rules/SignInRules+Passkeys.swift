import Encodings
import EventsCore
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
            challenge.isLive(at: request.now)
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
                        aaguid: Data(credential.aaguid), name: name, createdAt: request.now)),
                Self.event(
                    .passkeyCreated, at: request.now, user: request.user.id, detail: name,
                    userAgent: request.userAgent, client: request.client),
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
        guard let challenge = found.challenge, challenge.purpose == .signIn, challenge.isLive(at: now) else {
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
            return AuthDecision(
                .counterWentBack,
                changes: used + [
                    .flagPasskey(id: passkey.id, at: now),
                    Self.event(
                        .passkeyTurnedOff, at: now, user: passkey.userID, detail: passkey.name,
                        userAgent: request.userAgent, client: request.client),
                ])
        } catch {
            return AuthDecision(.refused(error), changes: used)
        }
        if passkey.phone.isEmpty {
            return AuthDecision(
                .accountDetached(user: passkey.userID),
                changes: used + [.usePasskey(id: passkey.id, signCount: verified.signCount, at: now)])
        }
        // "It's mine" answered with a passkey: the code that asked proved the number, so the
        // recycled-number guard counts from it, as after a code sign-in.
        let claimed =
            found.replaced.flatMap { claim in
                claim.claimUserID == passkey.userID && claim.pendingPhone == passkey.phone && claim.expiresAt > now
                    ? [
                        AuthChange.numberProved(user: passkey.userID, at: claim.createdAt),
                        Self.event(
                            .claimProved, at: now, user: passkey.userID, phone: passkey.phone,
                            detail: SignInWay.passkey.rawValue, userAgent: request.userAgent, client: request.client),
                    ] : nil
            } ?? []
        return AuthDecision(
            .signedIn(phone: passkey.phone),
            changes: used + [.usePasskey(id: passkey.id, signCount: verified.signCount, at: now)]
                + (request.replacing.map { [.deleteSession(key: $0)] } ?? [])
                + newSession(
                    phone: passkey.phone, session: request.signedInSession, at: now, userAgent: request.userAgent,
                    api: request.api, method: .passkey, client: request.client) + claimed)
    }
}
