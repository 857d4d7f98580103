import Encodings
import EventsCore
import Foundation
import Logging
import WebAuthnCore

/// Passkeys for the pages and the API: the options each ceremony starts with, the checked
/// answers, and the person's list. A sign-in with a passkey makes the same signed-in session a
/// right code does, and counts as a sign-in the client started, like one by text.
public struct PasskeyService: Sendable {
    public let relyingParty: RelyingParty
    /// The site's name the browser shows while creating a passkey.
    public let siteName: String
    let rules: SignInRules
    let store: any AuthStore
    let clock: @Sendable () -> Date
    let logger: Logger
    let metrics: SignInMetrics
    /// The operators' numbers (E.164): their passkeys open the console, so their accounts take a
    /// new one only as ``mayAdd(for:session:enrolled:)`` says.
    public var operatorPhones: Set<String> = []

    public init(
        relyingParty: RelyingParty, siteName: String = "Phone Login", store: any AuthStore, policy: SignInPolicy,
        logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }, metrics: SignInMetrics = SignInMetrics()
    ) {
        self.relyingParty = relyingParty
        self.siteName = siteName
        self.rules = SignInRules(policy: policy)
        self.store = store
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }

    // MARK: Creating a passkey

    /// Options for `navigator.credentials.create()`, with a fresh challenge for `session` (the
    /// signed-in session or API token asking).
    public func creationOptions(for user: User, session: SessionToken, enrolled: Bool = false) async throws
        -> CredentialOptions.Creation
    {
        try await mayAdd(for: user, session: session, enrolled: enrolled)
        let request = RegistrationStart(
            user: user.id, owner: session.storageKey, challenge: Data(secureRandomBytes(32)),
            newHandle: Data(secureRandomBytes(32)), now: clock().timeIntervalSince1970)
        let rules = self.rules
        guard
            let options = try await store.transaction(
                rules.registrationOptionsReads(user: user.id),
                decide: { found in
                    rules.registrationOptions(request, given: found)
                }
            ).outcome
        else { throw PasskeyError.tooMany }
        return CredentialOptions.Creation(
            relyingParty: relyingParty, siteName: siteName, userHandle: Array(options.userHandle),
            userName: user.phone.nationalFormat, challenge: Array(options.challenge),
            exclude: options.exclude.map { Array($0) }, timeoutSeconds: SignInRules.passkeyChallengeLifetime)
    }

    /// The browser's answer to ``creationOptions(for:session:enrolled:)``, checked and stored; returns the
    /// passkey's name. `browser` names it when its authenticator is not a known one.
    /// `userAgent` and `client`: the browser's, for the event.
    public func register(
        _ json: Data, for user: User, session: SessionToken, browser: String, userAgent: String? = nil,
        client: String? = nil, enrolled: Bool = false
    ) async throws -> PasskeyRecord {
        try await mayAdd(for: user, session: session, enrolled: enrolled)
        return try await register(
            try parsed { () throws(CredentialJSON.Failure) in try CredentialJSON.registration(json) },
            for: user, session: session, browser: browser, userAgent: userAgent, client: client)
    }

    /// Whether `user` may add a passkey from `session`: anyone may, but an operator (whose
    /// passkeys open the console) only from a session proved by one of their passkeys within
    /// `--confirm-within`, or through the shell's enrollment link (`enrolled`), so whoever gets
    /// hold of an operator's number and its texts cannot add a passkey of their own.
    public func mayAdd(for user: User, session: SessionToken, enrolled: Bool) async throws {
        guard operatorPhones.contains(user.phone.e164), !enrolled else { return }
        let record = try await store.read(rules.sessionReads(session.storageKey))
        guard let record, record.userID == user.id, record.method == .passkey,
            Confirmation.isFresh(record, now: clock(), within: rules.policy.confirmWithin)
        else { throw PasskeyError.operatorProofNeeded }
    }

    /// ``register(_:for:session:browser:userAgent:client:enrolled:)`` with the JSON decoded already (the API's body).
    public func register(
        _ json: CredentialJSON.RegistrationJSON, for user: User, session: SessionToken, browser: String,
        userAgent: String? = nil, client: String? = nil
    ) async throws -> PasskeyRecord {
        try await mayAdd(for: user, session: session, enrolled: false)
        return try await register(
            try parsed { () throws(CredentialJSON.Failure) in try CredentialJSON.registration(json) },
            for: user, session: session, browser: browser, userAgent: userAgent, client: client)
    }

    /// The bytes of a browser's answer, or ``PasskeyError/malformed(_:)`` (logged).
    private func parsed<Answer>(_ parse: () throws(CredentialJSON.Failure) -> Answer) throws(PasskeyError) -> Answer {
        do {
            return try parse()
        } catch {
            logger.notice("Passkey refused", metadata: ["why": "\(PasskeyError.malformed(error))"])
            metrics.passkey("malformed")
            throw PasskeyError.malformed(error)
        }
    }

    private func register(
        _ answer: CredentialJSON.Registration, for user: User, session: SessionToken, browser: String,
        userAgent: String?, client: String?
    ) async throws -> PasskeyRecord {
        var request = PasskeyRegistration(
            user: user, owner: session.storageKey, clientDataJSON: answer.clientDataJSON,
            attestationObject: answer.attestationObject, fallbackName: browser, relyingParty: relyingParty,
            now: clock().timeIntervalSince1970)
        request.namedCredentialID = Data(answer.credentialID)
        request.userAgent = userAgent
        request.client = client
        let rules = self.rules
        let registration = request
        let outcome = try await store.transaction(rules.registrationReads(registration)) { found in
            rules.register(registration, given: found)
        }.outcome
        let error: PasskeyError
        switch outcome {
        case .registered:
            logger.info("Passkey added", metadata: ["user": "\(user.id)"])
            metrics.passkey("registered")
            guard let stored = try await store.read(SingleRead { $0.passkey(Data(answer.credentialID)) }) else {
                throw StoredDataCorrupt("a passkey added but not found")
            }
            return stored
        case .challengeExpired: error = .challengeExpired
        case .tooMany: error = .tooMany
        case .alreadyRegistered: error = .alreadyRegistered
        case .refused(let failure): error = .refused(failure)
        }
        metrics.passkey("registration_refused")
        logger.notice("Passkey refused", metadata: ["user": "\(user.id)", "why": "\(error)"])
        throw error
    }

    // MARK: Signing in

    /// What a sign-in with a passkey starts with: the options for `navigator.credentials.get()`,
    /// and the token the asker must send back with the answer (its challenge is bound to it).
    public struct SignInChallenge: Sendable {
        public let token: SessionToken
        public let options: CredentialOptions.Request
    }

    /// Options for a sign-in; refused with ``PasskeyError/tooManyRequests(seconds:)`` while
    /// `client` holds too many unanswered challenges. `token`: the one this browser already
    /// holds (each of its pages' challenges is stored under it and its own challenge).
    public func signInOptions(client: String?, token given: SessionToken? = nil) async throws -> SignInChallenge {
        let token = given ?? SessionToken.generate()
        let challenge = secureRandomBytes(32)
        let now = clock()
        let request = PasskeySignInStart(
            owner: token.storageKey, challenge: Data(challenge), client: client, now: now.timeIntervalSince1970)
        let rules = self.rules
        if let until = try await store.transaction(
            rules.passkeySignInOptionsReads(request),
            decide: { found in
                rules.passkeySignInOptions(request, given: found)
            }
        ).outcome {
            metrics.limitHit("client_passkey_challenges")
            throw PasskeyError.tooManyRequests(seconds: max(1, wholeSeconds(from: now, to: until)))
        }
        return SignInChallenge(
            token: token,
            options: CredentialOptions.Request(
                relyingParty: relyingParty, challenge: challenge, timeoutSeconds: SignInRules.passkeyChallengeLifetime))
    }

    /// The answer to ``signInOptions(client:token:)``, sent back with its `token`: on success a fresh
    /// signed-in session (ending `replacing`, the browser's session of a sign-in by text in
    /// progress), as after a right code. Each answer counts as a sign-in `client` started.
    public func signIn(
        _ json: Data, token: SessionToken, replacing: SessionToken? = nil, client: String? = nil,
        userAgent: String? = nil, api: Bool = false
    ) async throws -> SignInService.SignedIn {
        try await signIn(
            try parsed { () throws(CredentialJSON.Failure) in try CredentialJSON.assertion(json) }, token: token,
            replacing: replacing, client: client, userAgent: userAgent, api: api)
    }

    /// ``signIn(_:token:replacing:client:userAgent:api:)`` with the JSON decoded already.
    public func signIn(
        _ json: CredentialJSON.AssertionJSON, token: SessionToken, replacing: SessionToken? = nil,
        client: String? = nil, userAgent: String? = nil, api: Bool = false
    ) async throws -> SignInService.SignedIn {
        try await signIn(
            try parsed { () throws(CredentialJSON.Failure) in try CredentialJSON.assertion(json) }, token: token,
            replacing: replacing, client: client, userAgent: userAgent, api: api)
    }

    private func signIn(
        _ answer: CredentialJSON.Assertion, token: SessionToken, replacing: SessionToken? = nil,
        client: String? = nil, userAgent: String? = nil, api: Bool = false
    ) async throws -> SignInService.SignedIn {
        let session = SessionToken.generate()
        let request = PasskeyAssertion(
            owner: token.storageKey, credentialID: Data(answer.credentialID), clientDataJSON: answer.clientDataJSON,
            authenticatorData: answer.authenticatorData, signature: answer.signature,
            userHandle: answer.userHandle.map { Data($0) }, relyingParty: relyingParty,
            signedInSession: session.storageKey, replacing: replacing?.storageKey, userAgent: userAgent, api: api,
            client: client, now: clock().timeIntervalSince1970)
        let rules = self.rules
        let applied = try await store.transaction(rules.passkeySignInReads(request)) { found in
            rules.passkeySignIn(request, given: found)
        }
        let error: PasskeyError
        switch applied.outcome {
        case .signedIn(let phone):
            guard let id = applied.signedInUserID else { throw StoredDataCorrupt("a sign-in that wrote no user") }
            let user = User(id: id, phone: try SignInRules.phone(phone))
            metrics.passkey("signed_in")
            logger.info("Signed in with a passkey", metadata: ["user": "\(id)", "phone": "\(user.phone.masked)"])
            return SignInService.SignedIn(session: session, user: user)
        case .challengeExpired: error = .challengeExpired
        case .unknownPasskey: error = .unknownPasskey
        case .notYours: error = .notYours
        case .turnedOff: error = .turnedOff
        case .counterWentBack: error = .counterWentBack
        case .storedKeyUnreadable: error = .storedKeyUnreadable
        case .refused(let failure): error = .refused(failure)
        case .limited(let until):
            metrics.limitHit("client_sign_ins")
            throw SignInError.tooManySignInsFromClient(seconds: max(1, wholeSeconds(from: clock(), to: until)))
        case .accountDetached(let user):
            metrics.passkey("detached")
            throw DetachedAccount(account: user)
        }
        metrics.passkey(error == .counterWentBack ? "counter_went_back" : "refused")
        logger.notice("Passkey sign-in refused", metadata: ["why": "\(error)"])
        throw error
    }
}
