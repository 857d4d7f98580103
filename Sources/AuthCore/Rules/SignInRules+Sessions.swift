import EventsCore
import Foundation

extension SignInRules {
    /// What ``session(_:now:)`` needs: the session row (with its user's phone).
    public func sessionReads(_ key: Data) -> SingleRead<SessionRecord?> {
        SingleRead { $0.session(key) }
    }

    /// What a stored session stands for at `now` (`nil` when there is none or it expired), and
    /// the change that refreshes a signed-in session's idle timer when it was last seen more
    /// than ``sessionTouchInterval`` ago.
    public func session(_ key: Data, _ record: SessionRecord?, now date: Date) throws -> (
        state: SessionState, touch: AuthChange?
    )? {
        let now = date.timeIntervalSince1970
        guard let record, Self.isLive(record, now: now) else { return nil }
        if let pending = record.pendingPhone {
            if let account = record.claimUserID { return (.claiming(try Self.phone(pending), account: account), nil) }
            return (.pending(try Self.phone(pending)), nil)
        }
        guard let id = record.userID, let phone = record.userPhone else {
            throw StoredDataCorrupt("a session that is neither pending nor signed in")
        }
        let touch: AuthChange? =
            now - record.lastSeenAt >= Self.sessionTouchInterval
            ? .touchSession(
                key: key, at: now, expiresAt: min(record.absoluteExpiresAt, now + policy.sessionIdleTimeout))
            : nil
        return (.signedIn(User(id: id, phone: try Self.phone(phone))), touch)
    }

    /// The changes that begin a signed-in session for `phone` under `session` at `now`, and note
    /// it (how it was proved: `way`, else `method`'s): it ends after
    /// ``SignInPolicy/sessionIdleTimeout`` without use, and after ``SignInPolicy/sessionLifetime``
    /// whatever happens.
    func newSession(
        phone: String, session: Data, at now: Double, userAgent: String?, api: Bool = false, method: SignInMethod,
        provedAt: Double? = nil, client: String?, way: SignInWay? = nil
    ) -> [AuthChange] {
        let absolute = now + policy.sessionLifetime
        return [
            .signIn(
                phone: phone, session: session, at: now, expiresAt: min(absolute, now + policy.sessionIdleTimeout),
                absoluteExpiresAt: absolute, userAgent: userAgent, api: api, method: method, provedAt: provedAt),
            Self.event(
                .signedIn, at: now, phone: phone, detail: (way ?? method.way).rawValue, userAgent: userAgent,
                client: client),
            // The code that proved the number was sent at most a code's lifetime ago.
            .adoptEvents(phone: phone, since: now - policy.codeLifetime),
        ]
    }

    /// A phone number read back from the database.
    static func phone(_ stored: String) throws -> PhoneNumber {
        do {
            return try PhoneNumber(parsing: stored)
        } catch {
            throw StoredDataCorrupt("a stored phone number that does not parse")
        }
    }

    /// What ``SignInService/verificationStatus(id:)`` needs: the code its holder holds.
    public func heldCodeReads(holder: Data) -> SingleRead<HeldCode?> {
        SingleRead { $0.heldCode(holder) }
    }

    /// What a number's code status reads (``CodeStatusReads``): its code and its lock window.
    public func codeStatusReads(_ phone: PhoneNumber, now: Date) -> CodeStatusReads {
        CodeStatusReads(phone, now: now.timeIntervalSince1970, policy: policy)
    }

    /// When sign-in to the number is locked until (too many wrong codes in the window), if it is.
    public func lockedUntil(given found: CodeStatusFound) -> Date? {
        found.phoneFailures.fullUntil
    }

    /// Seconds until the phone may be sent another code (0 when it may now), given its code: the
    /// cooldown ``issue(_:given:)`` applies.
    public func resendWait(_ code: StoredCode?, now: Date) -> TimeInterval {
        let now = now.timeIntervalSince1970
        guard let code, let end = cooldownEnd(of: code, now: now) else { return 0 }
        return end - now
    }

    /// Tries the phone's code has left at `now`; `nil` when there is no live code (none, used
    /// up or expired), so nothing is said about tries.
    public func triesLeft(_ code: StoredCode?, now: Date) -> Int? {
        guard let code, code.isLive(at: now.timeIntervalSince1970) else { return nil }
        return max(0, policy.maxAttemptsPerCode - code.failedAttempts)
    }

    /// What the purge removes at `now`: ended sessions (each signed-in one noted as ended by
    /// expiry), codes expired over a day ago, the sends and failures that no window counts any
    /// more, and events older than ``SignInPolicy/eventRetention``.
    public func purgeCutoffs(now: Date) -> PurgeCutoffs {
        let seconds = now.timeIntervalSince1970
        return PurgeCutoffs(
            sessionsExpiredBy: seconds, codesExpiredBy: seconds - Self.expiredCodeKept,
            sendsBefore: seconds - max(policy.codesPerPhoneWindow, policy.codesPerClientWindow),
            failuresBefore: seconds - policy.failuresPerPhoneWindow,
            signInStartsBefore: seconds - policy.signInsPerClientWindow,
            recoveryFailuresBefore: seconds - policy.recoveryFailuresWindow,
            eventsBefore: seconds - policy.eventRetention)
    }
}
