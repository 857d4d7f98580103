import DeliveryCore
import Foundation

/// A request to store a new code for a phone and attach a session to it.
public struct CodeIssue: Sendable {
    public var phone: PhoneNumber
    public var codeDigest: Data
    /// The session that asked, if the browser already had one.
    public var existingSession: Data?
    /// Storage key to use if a new session must be created; `nil` with no `existingSession`
    /// makes no session pending (the JSON API, whose clients check the code with the number).
    public var newSession: Data?
    /// When the cooldown is running: still attach the session to the phone (a login form
    /// re-submitted for the same number) rather than refusing (an explicit resend).
    public var attachSessionDuringCooldown: Bool
    /// The client address that asked (for the per-client limit); `nil` if unknown.
    public var client: String?
    /// Who may try the code when no session is made pending (the JSON API): the digest of the
    /// `verification_id` handed to the caller. With a session, the session is the holder.
    public var holder: Data?
    /// A text or a call.
    public var channel: DeliveryChannel
    /// The name the send is recorded under (its status callback address ends with it).
    public var reference: SendReference
    public var now: Date

    public init(
        phone: PhoneNumber, codeDigest: Data, existingSession: Data?, newSession: Data?,
        attachSessionDuringCooldown: Bool, client: String? = nil, holder: Data? = nil,
        channel: DeliveryChannel = .sms, reference: SendReference = .generate(), now: Date
    ) {
        self.channel = channel
        self.reference = reference
        self.client = client
        self.holder = holder
        self.phone = phone
        self.codeDigest = codeDigest
        self.existingSession = existingSession
        self.newSession = newSession
        self.attachSessionDuringCooldown = attachSessionDuringCooldown
        self.now = now
    }
}

/// A sending limit that refused a new code.
public enum SendLimit: Sendable, Equatable {
    /// Too many codes went to this phone number in the window.
    case phone
    /// Too many codes were asked for from this client address in the window.
    case client
    /// Too many texts went to numbers of this exchange in the window.
    case exchange
    /// The pumping breaker: the exchange's recent codes were hardly ever used.
    case exchangePaused
    /// Too many calls went to this phone number in the window.
    case phoneCalls
    /// The spend budget (texts per hour or per day, for everyone) is used up.
    case budget
    /// Sign-in to this number is locked (too many failed codes in the window): a code sent now
    /// could never be accepted, so none is sent.
    case locked
    /// Too many sign-ins (new pending sessions) were started from this client address.
    case clientSignIns
}

/// How much of the spend budget is used (in texts; a call counts ``SignInPolicy/callCost``)
/// once a send is counted: for the metrics and the warnings at 80% and 100%.
public struct BudgetUse: Sendable, Equatable {
    public var textsInHour: Int
    public var textsInDay: Int
    /// What the send just counted cost.
    public var cost: Int

    public init(textsInHour: Int, textsInDay: Int, cost: Int = 1) {
        self.textsInHour = textsInHour
        self.textsInDay = textsInDay
        self.cost = cost
    }
}

/// What asking for a code came to.
public struct IssueOutcome: Sendable, Equatable {
    /// `nil`: the new code digest is stored (replacing any older one). Otherwise a code went to
    /// this phone less than the cooldown ago, nothing new was stored, and this is when the
    /// cooldown ends.
    public var cooldownUntil: Date?
    /// When the code now valid for the phone expires.
    public var codeExpiresAt: Date
    /// Whether the session made pending is `existingSession` (true) or `newSession` (false).
    public var keptExistingSession: Bool
    /// Set when a sending limit refused the code: which one, and when it allows another.
    /// Nothing was stored then.
    public var limited: SendLimitReached?
    /// Set when a text is to go out: the budget used, this text included.
    public var budget: BudgetUse?

    public init(
        cooldownUntil: Date?, codeExpiresAt: Date, keptExistingSession: Bool, limited: SendLimitReached? = nil,
        budget: BudgetUse? = nil
    ) {
        self.cooldownUntil = cooldownUntil
        self.codeExpiresAt = codeExpiresAt
        self.keptExistingSession = keptExistingSession
        self.limited = limited
        self.budget = budget
    }
}

/// Which sending limit refused a code, and when it allows another.
public struct SendLimitReached: Sendable, Equatable {
    public var limit: SendLimit
    public var until: Date

    public init(_ limit: SendLimit, until: Date) {
        self.limit = limit
        self.until = until
    }
}

extension SignInRules {
    // MARK: Sending a code

    /// What ``issue(_:given:)`` needs: the asking session, the phone's code, its failures in the
    /// lock window (as ``checkReads(_:)`` reads them), and every sending window (phone, client,
    /// exchange, the budget); every send is locked, since the budget is one count for all.
    public func issueReads(_ request: CodeIssue) -> AuthReads {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        return AuthReads(
            session: request.existingSession, code: phone,
            phoneSends: Self.window(phone, max: policy.maxCodesPerPhone, per: policy.codesPerPhoneWindow, now: now),
            clientSends: request.client.map {
                Self.window($0, max: policy.maxCodesPerClient, per: policy.codesPerClientWindow, now: now)
            },
            exchangeSends: Self.window(
                Self.exchange(of: request.phone), max: policy.maxTextsPerExchange,
                per: policy.textsPerExchangeWindow, now: now),
            textsInHour: AllSends(since: now - 3600, reaching: max(1, policy.maxTextsPerHour - cost(request) + 1)),
            textsInDay: AllSends(since: now - 86_400, reaching: max(1, policy.maxTextsPerDay - cost(request) + 1)),
            phoneFailures: Self.window(
                phone, max: policy.maxFailuresPerPhone, per: policy.failuresPerPhoneWindow, now: now),
            locks: [.allSends, .phone(phone)],
            clientSignIns: request.newSession == nil
                ? nil
                : request.client.map {
                    Self.window($0, max: policy.maxSignInsPerClient, per: policy.signInsPerClientWindow, now: now)
                },
            exchangeConversion: settledCodes(Self.exchange(of: request.phone), now: now),
            phoneCalls: request.channel == .voice
                ? Self.window(phone, max: policy.maxCallsPerPhone, per: policy.callsPerPhoneWindow, now: now) : nil)
    }

    /// The window of settled codes (sent between ``SignInPolicy/breakerWindow`` and
    /// ``SignInPolicy/codeLifetime`` ago) to numbers starting with `prefix`.
    public func settledCodes(_ prefix: String, now: Double) -> SettledCodes {
        SettledCodes(
            prefix: prefix, since: now - policy.breakerWindow, settledBy: now - policy.codeLifetime,
            position: max(0, policy.breakerMinCodes - 1))
    }

    /// Whether the pumping breaker holds the exchange, and until when: enough settled codes in
    /// the window, too few used. It holds until the window no longer has that many.
    func breakerUntil(_ conversion: Conversion?) -> Date? {
        guard let conversion, conversion.sent >= policy.breakerMinCodes,
            Double(conversion.verified) < policy.breakerMinConversion * Double(conversion.sent)
        else { return nil }
        return Self.windowFull(nthNewest: conversion.atPosition, window: policy.breakerWindow)
    }

    /// What a send costs against the budget, in texts.
    func cost(_ request: CodeIssue) -> Int {
        request.channel == .voice ? policy.callCost : 1
    }

    /// The exchange a number belongs to, as the prefix of its E.164 form: `+1530555`.
    public static func exchange(of phone: PhoneNumber) -> String {
        "+1\(phone.areaCode)\(phone.exchange)"
    }

    /// Stores a new code for the phone unless sign-in to it is locked, the resend cooldown is
    /// running or a sending limit is reached, and makes the session pending for that phone.
    ///
    /// A code sent less than the cooldown ago is kept (no second text); a login form sent again
    /// for the same number then joins it. The asking session is kept while it is live; an
    /// expired one is deleted so it is never revived, and the new key is used instead.
    public func issue(_ request: CodeIssue, given found: AuthSnapshot) -> AuthDecision<IssueOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        let kept = Self.isLive(found.session, now: now) && request.existingSession != nil
        var changes: [AuthChange] = []
        if let existing = request.existingSession, !kept { changes.append(.deleteSession(key: existing)) }
        let sessionKey = kept ? request.existingSession : request.newSession
        // A new pending session is a row anyone may make, even during the cooldown, when no text
        // (and so no sending limit) is involved: counted per client, refused past its limit.
        let startsSignIn = !kept && request.newSession != nil ? request.client : nil
        if startsSignIn != nil,
            let until = Self.windowFull(nthNewest: found.clientSignInAt, window: policy.signInsPerClientWindow)
        {
            return AuthDecision(
                IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: kept,
                    limited: SendLimitReached(.clientSignIns, until: until)),
                changes: changes)
        }

        // A locked number gets no text at all, not even by joining a code in its cooldown: no
        // code can be accepted until the failures leave the window.
        if let until = Self.windowFull(nthNewest: found.phoneFailureAt, window: policy.failuresPerPhoneWindow) {
            return AuthDecision(
                IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: kept,
                    limited: SendLimitReached(.locked, until: until)),
                changes: changes)
        }
        let outcome: IssueOutcome
        let codeExpiresAt: Double
        if let code = found.code, let cooldownEnd = cooldownEnd(of: code, now: now) {
            outcome = IssueOutcome(
                cooldownUntil: Date(timeIntervalSince1970: cooldownEnd),
                codeExpiresAt: Date(timeIntervalSince1970: code.expiresAt), keptExistingSession: kept)
            guard request.attachSessionDuringCooldown else { return AuthDecision(outcome, changes: changes) }
            codeExpiresAt = code.expiresAt
        } else {
            if let limited = sendLimit(found, channel: request.channel) {
                return AuthDecision(
                    IssueOutcome(
                        cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: kept, limited: limited),
                    changes: changes)
            }
            codeExpiresAt = now + policy.codeLifetime
            let send = SendRecord(
                reference: request.reference, phone: phone, channel: request.channel, sentAt: now)
            changes += [
                .recordSend(
                    phone: phone, client: request.client, at: now, channel: request.channel, cost: cost(request),
                    reference: request.reference),
                .storeCode(
                    phone: phone,
                    code: StoredCode(
                        digest: request.codeDigest, sentAt: now, expiresAt: codeExpiresAt, failedAttempts: 0,
                        holder: sessionKey ?? request.holder, send: send)),
            ]
            outcome = IssueOutcome(
                cooldownUntil: nil, codeExpiresAt: Date(timeIntervalSince1970: codeExpiresAt),
                keptExistingSession: kept,
                budget: BudgetUse(
                    textsInHour: (found.textsInHour?.count ?? 0) + cost(request),
                    textsInDay: (found.textsInDay?.count ?? 0) + cost(request), cost: cost(request)))
        }
        // A pending sign-in lives as long as its code plus a short grace (in which it can only
        // be told the code expired and ask for a new one). Any signed-in state this browser had
        // is replaced: it is now signing in (again) with this phone.
        if let sessionKey {
            changes.append(
                .makePending(
                    session: sessionKey, phone: phone, at: now, until: codeExpiresAt + policy.pendingSessionGrace))
        }
        if let startsSignIn { changes.append(.recordSignInStart(client: startsSignIn, at: now)) }
        return AuthDecision(outcome, changes: changes)
    }

    /// When the resend cooldown of `code` ends, if it is still running at `now` (and the code
    /// still valid); `nil` when a new code may be sent. A text its provider reported undelivered
    /// or failed ends the cooldown at once: that code will never arrive, and a call (or another
    /// text) may go now. A call not answered does not: calling again at once would ring a
    /// stranger's phone as fast as anyone can press. The cooldown is one for texts and calls.
    func cooldownEnd(of code: StoredCode, now: Double) -> Double? {
        if let send = code.send, send.channel == .sms, send.status.didNotArrive { return nil }
        let end = code.sentAt + policy.resendCooldown
        return now < end && code.expiresAt > now ? end : nil
    }

    /// Which sending limit, if any, refuses another code now, and until when: the spend
    /// budget first (nobody gets a text past it), then the number, the client, the exchange.
    func sendLimit(_ found: AuthSnapshot, channel: DeliveryChannel) -> SendLimitReached? {
        let budget = [
            Self.windowFull(nthNewest: found.textsInHour?.reachedAt, window: 3600),
            Self.windowFull(nthNewest: found.textsInDay?.reachedAt, window: 86_400),
        ].compactMap { $0 }.max()
        if let until = budget { return SendLimitReached(.budget, until: until) }
        if let until = Self.windowFull(nthNewest: found.phoneSendAt, window: policy.codesPerPhoneWindow) {
            return SendLimitReached(.phone, until: until)
        }
        if channel == .voice,
            let until = Self.windowFull(nthNewest: found.phoneCallAt, window: policy.callsPerPhoneWindow)
        {
            return SendLimitReached(.phoneCalls, until: until)
        }
        if let until = Self.windowFull(nthNewest: found.clientSendAt, window: policy.codesPerClientWindow) {
            return SendLimitReached(.client, until: until)
        }
        if let until = Self.windowFull(nthNewest: found.exchangeSendAt, window: policy.textsPerExchangeWindow) {
            return SendLimitReached(.exchange, until: until)
        }
        if let until = breakerUntil(found.exchangeConversion) { return SendLimitReached(.exchangePaused, until: until) }
        return nil
    }

    /// The share of the budget worth a warning in the log once `use` is reached: the send that
    /// takes the hour's or the day's count to 80% or to 100% (each crossed once, so one line).
    public func budgetWarning(_ use: BudgetUse) -> String? {
        for (count, max, window) in [
            (use.textsInHour, policy.maxTextsPerHour, "hour"), (use.textsInDay, policy.maxTextsPerDay, "day"),
        ] {
            func crosses(_ mark: Int) -> Bool { count - use.cost < mark && count >= mark }
            if crosses(max) { return "100% of the texts per \(window) (\(max)) are used" }
            if crosses((max * 4 + 4) / 5) { return "80% of the texts per \(window) (\(count) of \(max)) are used" }
        }
        return nil
    }

    // MARK: Taking a code back

    /// What ``withdraw(phone:codeDigest:pendingSession:given:)`` needs; the phone is locked.
    public func withdrawReads(phone: PhoneNumber, pendingSession: Data?) -> AuthReads {
        AuthReads(session: pendingSession, code: phone.e164, locks: [.phone(phone.e164)])
    }

    /// Undoes ``issue(_:given:)`` after the text could not be delivered: the code if it is still
    /// the one with `codeDigest`, its count against the sending limits, and the session made
    /// pending for it, so the person can try again at once from a clean state.
    ///
    /// A text whose send timed out may still arrive (and be billed): it stays counted
    /// (`keepCount`), only the code and the pending session go.
    public func withdraw(
        phone: PhoneNumber, codeDigest: Data, pendingSession: Data?, keepCount: Bool = false,
        given found: AuthSnapshot
    ) -> AuthDecision<Void> {
        var changes: [AuthChange] = []
        if let pendingSession, let session = found.session, session.pendingPhone == phone.e164,
            session.userID == nil
        {
            changes.append(.deleteSession(key: pendingSession))
        }
        if let code = found.code, code.digest == codeDigest {
            changes.append(.deleteCode(phone: phone.e164))
            if !keepCount { changes.append(.forgetNewestSend(phone: phone.e164)) }
        }
        return AuthDecision((), changes: changes)
    }
}
