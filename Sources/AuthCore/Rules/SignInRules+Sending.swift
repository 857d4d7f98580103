import DeliveryCore
import EventsCore
import Foundation

extension SignInRules {
    // MARK: Sending a code

    /// What ``issue(_:given:)`` reads (``IssueReads``).
    public func issueReads(_ request: CodeIssue) -> IssueReads {
        IssueReads(request, rules: self)
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
    func breakerUntil(_ conversion: Conversion) -> Date? {
        guard breakerHolds(sent: conversion.sent, verified: conversion.verified) else { return nil }
        return conversion.atPosition.map { Date(timeIntervalSince1970: $0 + policy.breakerWindow) }
    }

    /// Whether `sent` settled codes to one exchange in the breaker's window, `verified` of them
    /// used, are enough, and used too little, for the breaker to hold the exchange.
    public func breakerHolds(sent: Int, verified: Int) -> Bool {
        sent >= policy.breakerMinCodes && Double(verified) < policy.breakerMinConversion * Double(sent)
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
    public func issue(_ request: CodeIssue, given found: IssueFound) -> AuthDecision<IssueOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        let kept = Self.isLive(found.session, now: now) && request.existingSession != nil
        var changes: [AuthChange] = []
        if let existing = request.existingSession, !kept { changes.append(.deleteSession(key: existing)) }
        let sessionKey = kept ? request.existingSession : request.newSession
        // A new pending session is a row anyone may make, even during the cooldown, when no text
        // (and so no sending limit) is involved: counted per client, refused past its limit.
        let startsSignIn = !kept && request.newSession != nil ? request.client : nil
        if startsSignIn != nil, let until = found.clientSignIns.fullUntil {
            return AuthDecision(
                IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: kept,
                    limited: SendLimitReached(.clientSignIns, until: until)),
                changes: changes)
        }

        // A locked number gets no text at all, not even by joining a code in its cooldown: no
        // code can be accepted until the failures leave the window.
        if let until = found.phoneFailures.fullUntil {
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
                codeExpiresAt: Date(timeIntervalSince1970: code.expiresAt), keptExistingSession: kept,
                channel: code.send?.channel ?? .sms)
            guard request.attachSessionDuringCooldown else { return AuthDecision(outcome, changes: changes) }
            codeExpiresAt = code.expiresAt
        } else {
            if let limited = sendLimit(found, now: now) {
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
                Self.event(
                    .codeSent, at: now, phone: phone,
                    detail: (request.channel == .voice ? CodeChannel.call : .sms).rawValue,
                    reference: request.reference.hex, userAgent: request.userAgent, client: request.client),
                .storeCode(
                    phone: phone,
                    code: StoredCode(
                        digest: request.codeDigest, sentAt: now, expiresAt: codeExpiresAt, failedAttempts: 0,
                        holder: sessionKey ?? request.holder, send: send)),
            ]
            if let trial = providerTrial(found.provider, channel: request.channel, now: now) { changes.append(trial) }
            var sending = IssueOutcome(
                cooldownUntil: nil, codeExpiresAt: Date(timeIntervalSince1970: codeExpiresAt),
                keptExistingSession: kept,
                budget: BudgetUse(
                    textsInHour: found.budgetHour.count.count + cost(request),
                    textsInDay: found.budgetDay.count.count + cost(request), cost: cost(request)),
                channel: request.channel)
            sending.providerFailing = found.provider.failures > 0
            outcome = sending
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
        return now < end && code.isLive(at: now) ? end : nil
    }

    /// Which sending limit, if any, refuses another code now, and until when: the spend
    /// budget first (nobody gets a text past it), the provider's pause, then the number, its
    /// calls, the client, the exchange and the pumping breaker.
    func sendLimit(_ found: IssueFound, now: Double) -> SendLimitReached? {
        if let until = [found.budgetHour.fullUntil, found.budgetDay.fullUntil].compactMap({ $0 }).max() {
            return SendLimitReached(.budget, until: until)
        }
        if let until = providerPausedUntil(found.provider, now: now) {
            return SendLimitReached(.providerPaused, until: Date(timeIntervalSince1970: until))
        }
        let windows: [(SendLimit, LimitWindow)] = [
            (.phone, found.phoneSends), (.phoneCalls, found.phoneCalls), (.client, found.clientSends),
            (.exchange, found.exchangeSends),
        ]
        for (limit, window) in windows {
            if let until = window.fullUntil { return SendLimitReached(limit, until: until) }
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

    /// What ``withdraw(phone:codeDigest:pendingSession:keepCount:given:)`` reads: the pending
    /// session and the phone's code; the phone is locked.
    public func withdrawReads(phone: PhoneNumber, pendingSession: Data?) -> SessionAndCodeReads {
        SessionAndCodeReads(session: pendingSession, phone: phone, locks: [.phone(phone.e164)])
    }

    /// Undoes ``issue(_:given:)`` after the text could not be delivered: the code if it is still
    /// the one with `codeDigest`, its count against the sending limits, and the session made
    /// pending for it, so the person can try again at once from a clean state.
    ///
    /// A text whose send timed out may still arrive (and be billed): it stays counted
    /// (`keepCount`), only the code and the pending session go.
    public func withdraw(
        phone: PhoneNumber, codeDigest: Data, pendingSession: Data?, keepCount: Bool = false,
        given found: SessionAndCode
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
