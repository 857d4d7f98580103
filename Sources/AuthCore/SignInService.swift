import DeliveryCore
import EventsCore
import Foundation
import Logging
import Wording

/// Sign-in with a phone number and a texted code: the rules, with no HTTP in them.
///
/// The web pages and the JSON API call the same methods, so both follow one set of
/// rules. Sessions are named by ``SessionToken``; the store only ever sees their hashes.
public struct SignInService: Sendable {
    /// A session now pending for a phone, with a code out (the result of asking for a code).
    public struct PendingSignIn: Sendable, Equatable {
        /// The session now pending for the phone (new if the caller had none).
        public let session: SessionToken
        public let phone: PhoneNumber
        /// Whether a message went out now (false: one went out less than the cooldown ago and
        /// that code is still the one to type).
        public let sent: Bool
        public let codeExpiresAt: Date
        /// When another code may be asked for.
        public let resendAvailableAt: Date
        /// How the code to type went out (a text, or a call).
        public var channel: DeliveryChannel = .sms
    }

    /// Result of ``sendCode(phoneInput:client:userAgent:channel:language:movesAccount:)``: like
    /// ``PendingSignIn``, with no session.
    public struct CodeSent: Sendable, Equatable {
        public let phone: PhoneNumber
        /// Whether a message went out now (false: the code sent less than the cooldown ago is
        /// still the one to type).
        public let sent: Bool
        /// Given with a new code, and needed to check it: only its holder can try (or burn) the
        /// code. `nil` when nothing was sent (the caller that asked first has the id).
        public let verificationID: SessionToken?
        public let codeExpiresAt: Date
        public let resendAvailableAt: Date
        /// The service's time when it decided (for "expires in N seconds").
        public let decidedAt: Date
        /// How the code to type went out: during the cooldown, the earlier code's channel,
        /// whatever was asked now.
        public let channel: DeliveryChannel
    }

    /// Result of a right code.
    public struct SignedIn: Sendable, Equatable {
        /// The fresh session token for the signed-in state (a cookie's value, or the API's
        /// bearer token); a pending session that led to it is dead.
        public let session: SessionToken
        public let user: User
        /// The token of the device cookie, when this browser is (still) remembered: new at a
        /// sign-in that asked to remember it, rotated at each remembered sign-in.
        public var device: SessionToken? = nil
    }

    public let policy: SignInPolicy
    let rules: SignInRules
    let store: any AuthStore
    let sms: any CodeSender
    let hasher: CodeHasher
    let composer: MessageComposer
    let clock: @Sendable () -> Date
    private let makeCode: @Sendable () -> OneTimeCode
    let logger: Logger
    let metrics: SignInMetrics

    /// - Parameters:
    ///   - clock: the current time; tests inject one they can move.
    ///   - makeCode: the code generator; secure random unless a test mode replaces it.
    public init(
        store: any AuthStore, sms: any CodeSender, hasher: CodeHasher, composer: MessageComposer,
        policy: SignInPolicy, logger: Logger,
        clock: @escaping @Sendable () -> Date = { Date() },
        makeCode: @escaping @Sendable () -> OneTimeCode = { OneTimeCode.random() },
        metrics: SignInMetrics = SignInMetrics()
    ) {
        self.metrics = metrics
        self.store = store
        self.sms = sms
        self.hasher = hasher
        self.composer = composer
        self.policy = policy
        self.rules = SignInRules(policy: policy)
        self.logger = logger
        self.clock = clock
        self.makeCode = makeCode
    }

    /// The login step: validates the typed number and texts it a code, leaving `session` (or a
    /// new session) pending for that number.
    ///
    /// If a code went to the same number less than the cooldown ago (the person went back and
    /// submitted again), no second message is sent: the session joins the code already out.
    /// `client` is the address the request came from, for the per-client sending limit.
    /// The text goes out in `language`: the one the person was reading when they asked.
    /// `movesAccount`: the code is for "Change your number" (its text says it moves an account).
    /// `channel` `.voice`: Login's "Call me with the code instead", offered when a text could
    /// not be sent.
    public func requestCode(
        phoneInput: String, session: SessionToken?, client: String? = nil, userAgent: String? = nil,
        channel: DeliveryChannel = .sms, language: Language = .english, movesAccount: Bool = false
    ) async throws -> PendingSignIn {
        try await issue(
            to: try phone(phoneInput), session: session, makeSession: true, attachDuringCooldown: true,
            client: client, userAgent: userAgent, channel: channel, language: language, movesAccount: movesAccount)
    }

    /// The JSON API's send step: validates the number and texts it a code. No session is made
    /// pending: the app later checks the code together with the number
    /// (``verify(phoneInput:verificationID:codeInput:client:userAgent:)``). Asked again during the cooldown, it sends nothing
    /// and reports the code already out, like
    /// ``requestCode(phoneInput:session:client:userAgent:channel:language:movesAccount:)``.
    public func sendCode(
        phoneInput: String, client: String? = nil, userAgent: String? = nil, channel: DeliveryChannel = .sms,
        language: Language = .english, movesAccount: Bool = false
    ) async throws -> CodeSent {
        let now = clock()
        let verificationID = SessionToken.generate()
        let request = try await issue(
            to: try phone(phoneInput), session: nil, makeSession: false, attachDuringCooldown: true,
            client: client, userAgent: userAgent, holder: verificationID.storageKey, channel: channel,
            language: language, now: now, movesAccount: movesAccount)
        return CodeSent(
            phone: request.phone, sent: request.sent, verificationID: request.sent ? verificationID : nil,
            codeExpiresAt: request.codeExpiresAt, resendAvailableAt: request.resendAvailableAt, decidedAt: now,
            channel: request.channel)
    }

    /// A typed number that is valid and one we text; checked before anything is read, stored
    /// or counted, so a refused number leaves no trace and uses up no limit.
    public func phone(_ input: String) throws(SignInError) -> PhoneNumber {
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(parsing: input)
        } catch {
            throw SignInError.phone(error)
        }
        try texted(phone)
        return phone
    }

    /// Refuses a number outside ``SignInPolicy/phoneRegions``.
    private func texted(_ phone: PhoneNumber) throws(SignInError) {
        guard policy.phoneRegions.accepts(phone) else {
            throw SignInError.phoneNotTexted(usOnly: policy.phoneRegions == .unitedStates)
        }
    }

    /// The resend button, or "Call me with the code instead" (`channel` `.voice`): a new code to
    /// the number this session is signing in with, replacing the old code; refused while the
    /// cooldown (one for texts and calls) runs, and refused for a number no longer texted
    /// (``SignInPolicy/phoneRegions`` narrowed since the first code).
    public func resendCode(
        session: SessionToken, client: String? = nil, userAgent: String? = nil, channel: DeliveryChannel = .sms,
        language: Language = .english, movesAccount: Bool = false
    ) async throws -> PendingSignIn {
        guard case .pending(let phone) = try await state(of: session) else { throw SignInError.noPendingSignIn }
        try texted(phone)
        return try await issue(
            to: phone, session: session, makeSession: true, attachDuringCooldown: false, client: client,
            userAgent: userAgent, channel: channel, language: language, movesAccount: movesAccount)
    }

    /// Whether codes can be delivered by call (the provider places calls).
    public var offersCalls: Bool { sms.channels.contains(.voice) }

    /// Whether `phone` may be called with its code: the provider places calls, and the number is
    /// in the US (`--phone-regions` may add other countries of code +1, whose calls can cost many
    /// times as much and are a favourite of toll fraud).
    public func offersCalls(to phone: PhoneNumber) -> Bool {
        offersCalls && phone.region == "US"
    }

    private func issue(
        to phone: PhoneNumber, session: SessionToken?, makeSession: Bool, attachDuringCooldown: Bool, client: String?,
        userAgent: String? = nil, holder: Data? = nil, channel: DeliveryChannel = .sms, language: Language = .english,
        now: Date? = nil, movesAccount: Bool = false
    ) async throws -> PendingSignIn {
        guard sms.channels.contains(channel), channel == .sms || offersCalls(to: phone) else {
            throw SignInError.channelUnavailable(channel)
        }
        let code = makeCode()
        let digest = hasher.digest(of: code, for: phone)
        let message = composer.message(for: code, to: phone, by: channel, in: language, movesAccount: movesAccount)
        let newToken = SessionToken.generate()
        let now = now ?? clock()
        let request = CodeIssue(
            phone: phone, codeDigest: digest, existingSession: session?.storageKey,
            newSession: makeSession ? newToken.storageKey : nil, attachSessionDuringCooldown: attachDuringCooldown,
            client: client, userAgent: userAgent, holder: holder, channel: channel, reference: message.reference,
            now: now)
        let rules = self.rules
        let outcome = try await store.transaction(rules.issueReads(request)) { found in
            rules.issue(request, given: found)
        }.outcome
        if let limited = outcome.limited { throw limitReached(limited, phone: phone, channel: channel, now: now) }
        // The store kept the caller's session if it was still live, else it used the new key.
        // (Without `makeSession` the new token was never stored and is dropped by the caller.)
        let token = outcome.keptExistingSession ? (session ?? newToken) : newToken
        let expiresAt = outcome.codeExpiresAt

        if let until = outcome.cooldownUntil {
            if !attachDuringCooldown {
                metrics.limitHit("resend_cooldown")
                let seconds = max(1, wholeSeconds(from: now, to: until))
                throw channel == .voice ? SignInError.callTooSoon(seconds: seconds) : .resendTooSoon(seconds: seconds)
            }
            return PendingSignIn(
                session: token, phone: phone, sent: false, codeExpiresAt: expiresAt, resendAvailableAt: until,
                channel: outcome.channel)
        }
        if let budget = outcome.budget { watch(budget) }
        let report: DeliveryReport
        do {
            report = try await sms.send(message)
        } catch {
            logger.error(
                "Delivery failed", metadata: ["to": "\(phone.masked)", "channel": "\(channel)", "error": "\(error)"])
            metrics.deliveryFailed()
            // A message refused (a 4xx) says the provider answers: a trial it was ends the pause,
            // else one refused number after another would keep texts paused for everyone. An
            // error that is no provider's answer (a send cancelled) says nothing either way.
            if let failure = error as? DeliveryError {
                if failure.kind != .refused {
                    await providerFailed(channel)
                } else if outcome.providerFailing {
                    await providerRecovered(channel)
                }
            }
            // The login step made the session pending for this number: undo that too. A resend
            // keeps its session, which was already pending for the number.
            let madePending = makeSession && attachDuringCooldown ? token.storageKey : nil
            let keepCount = (error as? DeliveryError)?.mayHaveBeenSent ?? false
            _ = try await store.transaction(rules.withdrawReads(phone: phone, pendingSession: madePending)) {
                found in
                rules.withdraw(
                    phone: phone, codeDigest: digest, pendingSession: madePending, keepCount: keepCount, given: found)
            }
            throw channel == .voice ? SignInError.callFailed : SignInError.deliveryFailed
        }
        logger.info("Sign-in code sent", metadata: ["to": "\(phone.masked)", "channel": "\(channel)"])
        metrics.codeSent()
        if outcome.providerFailing { await providerRecovered(channel) }
        await record(report, for: message.reference)
        return PendingSignIn(
            session: token, phone: phone, sent: true, codeExpiresAt: expiresAt,
            resendAvailableAt: now.addingTimeInterval(policy.resendCooldown), channel: channel)
    }

    /// Records what a provider reported of the send named `reference` (its answer to the send, or
    /// a status callback whose signature the caller checked), moving its status only forward.
    public func recordDelivery(_ report: DeliveryReport, for reference: SendReference) async throws
        -> DeliveryRecorded
    {
        let rules = self.rules
        let now = clock()
        let recorded = try await store.transaction(rules.deliveryReads(reference)) { found in
            rules.recordDelivery(report, for: reference, at: now, given: found)
        }.outcome
        if case .recorded(let send, changed: true) = recorded, send.status.isFinal {
            metrics.delivered(channel: send.channel, status: send.status, errorCode: send.errorCode)
        }
        return recorded
    }

    /// The provider's answer to a send, recorded; a failure to write it is logged, not thrown:
    /// the code went out and the person is waiting for it.
    func record(_ report: DeliveryReport, for reference: SendReference) async {
        do {
            _ = try await recordDelivery(report, for: reference)
        } catch {
            logger.warning("Could not record the provider's answer", metadata: ["error": "\(error)"])
        }
    }

}

/// Whole seconds from `now` until `date`, rounded up (a wait of 29.2 s is "30 seconds"), never
/// negative. Times pass through SQLite as REAL seconds since 1970, whose last bits are noise:
/// up to a millisecond over a whole second still counts as that second, not the next.
public func wholeSeconds(from now: Date, to date: Date) -> Int {
    wholeSeconds(date.timeIntervalSince(now))
}

/// ``wholeSeconds(from:to:)`` for an interval.
public func wholeSeconds(_ interval: TimeInterval) -> Int {
    max(0, Int((interval - 0.001).rounded(.up)))
}
