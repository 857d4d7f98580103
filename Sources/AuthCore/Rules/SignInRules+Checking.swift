import DeliveryCore
import Crypto
import Encodings
import EventsCore
import Foundation

/// A typed code to compare against the stored digest for the session's phone.
public struct CodeCheck: Sendable {
    /// The pending session that must be signing in with `phone`; `nil` checks by phone alone
    /// (the JSON API).
    public var session: Data?
    public var phone: PhoneNumber
    /// The digest of the typed code for `phone`; `nil` when what was typed is not six digits,
    /// which can never be right and so is answered without counting a try.
    public var candidateDigest: Data?
    /// Storage key of the signed-in session to create on success (a fresh id: no fixation).
    public var signedInSession: Data
    /// Without a session (the JSON API): the digest of the `verification_id` the caller was
    /// given with the code; only its holder may try the code.
    public var holder: Data?
    /// The client that typed it, for the per-client failure limit; `nil` if unknown.
    public var client: String?
    /// The key to remember this browser by on success ("Remember this phone"), if asked.
    public var rememberDevice: Data?
    /// The browser's `User-Agent`, for "Your devices".
    public var userAgent: String?
    public var now: Date
    /// What a right code does: sign in (the default), or move an account to the number.
    public var purpose: CheckPurpose = .signIn
    /// The storage key of this browser's remembered-phone cookie, if it has one: a remembered
    /// phone of the account is not asked "Is this your account?".
    public var device: Data? = nil
    /// The account the asker is signed in as ("Confirm it's you"): a code to its own number
    /// proves the number, and asks nothing, since the session already proved the account.
    public var signedInAs: Int64? = nil

    public init(
        session: Data?, phone: PhoneNumber, candidateDigest: Data?, signedInSession: Data, holder: Data? = nil,
        client: String? = nil, rememberDevice: Data? = nil, userAgent: String? = nil, now: Date,
        purpose: CheckPurpose = .signIn
    ) {
        self.purpose = purpose
        self.session = session
        self.userAgent = userAgent
        self.rememberDevice = rememberDevice
        self.holder = holder
        self.client = client
        self.phone = phone
        self.candidateDigest = candidateDigest
        self.signedInSession = signedInSession
        self.now = now
    }
}

/// What a right code is for.
public enum CheckPurpose: Sendable, Equatable {
    /// Signs in with the number (making its account on first sign-in).
    case signIn
    /// "Change your number": moves the account of `user`, whose number is `from`, to the number
    /// the code went to, and counts a text to `from` (sent by `notice`) that tells its holder.
    /// `recovering` ("Lost your phone or number?", after a recovery code): every session and
    /// remembered phone of the account ends too (the lost phone's among them), and the person is
    /// signed in with the new number.
    /// `from` nil: the account is detached from any number (a recovery after "This number is new
    /// to me"): it attaches to the new number, and no text goes to a number that is someone
    /// else's now (`notice` nil).
    case moveAccount(user: Int64, from: String?, notice: SendReference?, recovering: Bool = false)
}

/// What a typed code came to.
public enum CheckOutcome: Sendable, Equatable {
    /// Right code: it is consumed, the pending session is gone and a signed-in one exists for
    /// the user (whose id the store reports in ``Applied/signedInUserID``).
    case signedIn
    /// What was typed is not six digits: nothing was compared or counted, so a slip of the
    /// finger (an early tap on Verify, a letter) never costs a try or counts toward the lock.
    case malformed
    /// Wrong code; `remainingAttempts` more tries before the code is dead (0: dead now).
    case incorrect(remainingAttempts: Int)
    /// The code's lifetime has passed.
    case expired
    /// The code had already used up its attempts.
    case tooManyAttempts
    /// The phone had too many failed codes in the window; sign-in is locked until then.
    case locked(until: Date)
    /// This client typed too many wrong codes in its window; its checks wait until then.
    case clientLimited(until: Date)
    /// The code out for the phone was asked for by someone else (another browser, another
    /// `verification_id`): nothing was compared or counted.
    case notYours
    /// There is no code for this phone (already used, or replaced and purged).
    case noCode
    /// The session is not pending (expired, signed out, or never existed).
    case noPendingSession
    /// Right code for a change of number: the account holds the new number now.
    case numberMoved
    /// Right code for a change of number, to a number that has its own account: nothing moved
    /// (the code is used up; only now, once the person showed they hold it, may they learn it).
    case numberHasAccount
    /// Right code for a change of number, but the account is no longer on the number the change
    /// started from (another change got there first, or the account is gone): nothing moved.
    case numberChangedMeanwhile
    /// Right code, for a number whose account has not seen it sign in with a code for
    /// ``SignInPolicy/dormantAfter``, from a browser that is not one of its remembered phones:
    /// the number may have changed hands. The code is used up; nobody is signed in. A page's
    /// pending session became "Is this your account?" (``AuthChange/makeClaim(session:phone:user:at:until:)``,
    /// under the signed-in session's key).
    case dormant(user: Int64, numberProvedAt: Double, waysBack: WaysBack)
}

extension SignInRules {
    /// What ``check(_:given:)`` reads (``CheckReads``).
    public func checkReads(_ request: CodeCheck) -> CheckReads {
        CheckReads(request, policy: policy)
    }

    /// Judges a typed code: the session must be pending for the phone and hold its code (or
    /// the API caller its `verification_id`); then the client's and the phone's failure limits,
    /// the code's attempts, its lifetime, the code's format, and the digests (compared in
    /// constant time). A malformed code counts nothing; a wrong one counts a try and a failure; the right one is used up, and the session is replaced
    /// by a fresh signed-in one.
    public func check(_ request: CodeCheck, given found: CheckFound) -> AuthDecision<CheckOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        if request.session != nil {
            guard Self.isLive(found.session, now: now), found.session?.pendingPhone == phone else {
                return AuthDecision(.noPendingSession)
            }
        }
        guard let code = found.code else { return AuthDecision(.noCode) }
        if let holder = code.holder {
            guard let caller = request.session ?? request.holder, constantTimeEquals(holder, caller) else {
                return AuthDecision(.notYours)
            }
        }
        if let until = found.clientFailures.fullUntil {
            return AuthDecision(.clientLimited(until: until))
        }
        if let until = found.phoneFailures.fullUntil {
            // Noted once, dated when it began (the failure that filled the window).
            let began = found.phoneFailures.nthNewest ?? now
            return AuthDecision(
                .locked(until: until),
                changes: [
                    .recordEventOnce(
                        Event(.locked, at: began, phone: phone, userAgent: request.userAgent, client: request.client),
                        since: began)
                ])
        }
        if code.failedAttempts >= policy.maxAttemptsPerCode { return AuthDecision(.tooManyAttempts) }
        if !code.isLive(at: now) { return AuthDecision(.expired) }
        // Not six digits: it cannot match, so it is no guess and is not counted. Judged after
        // the code's own state, so a dead or locked code still says so.
        guard let candidate = request.candidateDigest else { return AuthDecision(.malformed) }
        guard constantTimeEquals(code.digest, candidate) else {
            // The wrong code tried last, sent again (Reload on the page that said so, which
            // Safari answers by posting the form again; a double tap): no new guess, so it is
            // answered as before and not counted twice.
            let wrongTry = Self.wrongTry(candidate, against: code)
            if let last = code.lastWrongDigest, constantTimeEquals(last, wrongTry) {
                return AuthDecision(
                    .incorrect(remainingAttempts: max(0, policy.maxAttemptsPerCode - code.failedAttempts)))
            }
            return AuthDecision(
                .incorrect(remainingAttempts: max(0, policy.maxAttemptsPerCode - code.failedAttempts - 1)),
                changes: [
                    .countWrongTry(phone: phone, digest: wrongTry),
                    .recordFailure(phone: phone, client: request.client, at: now),
                    Self.event(.wrongCode, at: now, phone: phone, userAgent: request.userAgent, client: request.client),
                ])
        }
        if case .moveAccount(let user, let from, let notice, let recovering) = request.purpose {
            return move(
                user: user, from: from, notice: notice, recovering: recovering, request, code: code, given: found)
        }
        if let dormancy = found.dormancy, dormancy.user != request.signedInAs, isDormant(dormancy, now: now) {
            return AuthDecision(
                .dormant(user: dormancy.user, numberProvedAt: dormancy.numberProvedAt, waysBack: dormancy.waysBack),
                changes: [.deleteCode(phone: phone)]
                    + (code.send.map { [.markVerified(reference: $0.reference, at: now)] } ?? [])
                    + (request.session.map { [.deleteSession(key: $0)] } ?? []) + [
                        .makeClaim(
                            session: request.signedInSession, phone: phone, user: dormancy.user, at: now,
                            until: now + policy.claimLifetime),
                        Self.event(
                            .claimAsked, at: now, user: dormancy.user, phone: phone, userAgent: request.userAgent,
                            client: request.client),
                    ])
        }
        // Right code: single use, then a fresh session id for the signed-in state (and the
        // browser remembered, when the person asked).
        return AuthDecision(
            .signedIn,
            changes: [.deleteCode(phone: phone)]
                + (code.send.map { [.markVerified(reference: $0.reference, at: now)] } ?? [])
                + (request.session.map { [.deleteSession(key: $0)] } ?? [])
                + newSession(
                    phone: phone, session: request.signedInSession, at: now, userAgent: request.userAgent,
                    api: request.session == nil, method: code.send?.channel == .voice ? .call : .code,
                    client: request.client,
                    way: request.signedInAs == nil ? nil : code.send?.channel == .voice ? .confirmedByCall : .confirmedByText)
                + (request.rememberDevice.map {
                    rememberDevice(
                        $0, phone: phone, userAgent: request.userAgent, session: request.signedInSession, now: now,
                        client: request.client)
                } ?? []))
    }

    /// A right code for a change of number: used up whatever comes of it (the person showed they
    /// hold the number); the account moves when it is still on `from` and nobody else holds the
    /// new number, and the text telling `from` of it is counted like any text. A recovery also
    /// ends every session and remembered phone the account had, and signs the person in.
    private func move(
        user: Int64, from: String?, notice: SendReference?, recovering: Bool, _ request: CodeCheck, code: StoredCode,
        given found: CheckFound
    ) -> AuthDecision<CheckOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        let used: [AuthChange] =
            [.deleteCode(phone: phone)]
            + (code.send.map { [.markVerified(reference: $0.reference, at: now)] } ?? [])
            + (request.session.map { [.deleteSession(key: $0)] } ?? [])
        guard let owners = found.numberOwners, owners.accountPhone == from, from != nil || owners.accountDetached else {
            return AuthDecision(.numberChangedMeanwhile, changes: used)
        }
        if let holder = owners.phoneHolder, holder != user {
            return AuthDecision(.numberHasAccount, changes: used)
        }
        var moved: [AuthChange] = [
            .moveAccount(user: user, from: from, to: phone, at: now),
            // The codes to the new number (and its wrong tries) were no account's: they are this one's now.
            .adoptEvents(phone: phone, since: now - policy.codeLifetime),
            Self.event(
                .numberChanged, at: now, user: user, phone: phone, detail: recovering ? "recovered" : nil,
                userAgent: request.userAgent, client: request.client),
        ]
        if let from, let notice {
            moved.append(.recordSend(phone: from, client: nil, at: now, channel: .sms, cost: 1, reference: notice))
        }
        guard recovering else { return AuthDecision(.numberMoved, changes: used + moved) }
        return AuthDecision(
            .numberMoved,
            changes: used + moved + Self.ending(found.places, of: user, at: now, why: .accountChanged)
                + [.revokeApps(user: user, at: now)]
                + newSession(
                    phone: phone, session: request.signedInSession, at: now, userAgent: request.userAgent,
                    api: request.session == nil, method: code.send?.channel == .voice ? .call : .code,
                    client: request.client, way: .recoveryCode))
    }

    /// The recycled-number guard: the account's number has not signed in with a code for
    /// ``SignInPolicy/dormantAfter`` (0: the guard is off), and the browser is not one of its
    /// remembered phones.
    func isDormant(_ dormancy: Dormancy, now: Double) -> Bool {
        Self.numberIsDormant(provedAt: dormancy.numberProvedAt, now: now, dormantAfter: policy.dormantAfter)
            && !dormancy.rememberedHere
    }

    /// Whether a number that last proved itself at `provedAt` is dormant at `now`: at least
    /// `dormantAfter` seconds ago, and never when `dormantAfter` is 0 (the guard is off). The one
    /// rule for the sign-in guard and for what the console calls dormant.
    public static func numberIsDormant(provedAt: Double, now: Double, dormantAfter: Double) -> Bool {
        dormantAfter > 0 && now - provedAt >= dormantAfter
    }

    /// What is kept of a wrong try: SHA-256 of the code's digest and the typed one, so it can only
    /// ever match a try at that same code (a value left by another code, written by an instance
    /// that did not clear it, matches nothing).
    static func wrongTry(_ candidate: Data, against code: StoredCode) -> Data {
        Data(SHA256.hash(data: code.digest + candidate))
    }
}
