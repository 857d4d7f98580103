import Foundation

/// A typed code to compare against the stored digest for the session's phone.
public struct CodeCheck: Sendable {
    /// The pending session that must be signing in with `phone`; `nil` checks by phone alone
    /// (the JSON API).
    public var session: Data?
    public var phone: PhoneNumber
    public var candidateDigest: Data
    /// Storage key of the signed-in session to create on success (a fresh id: no fixation).
    public var signedInSession: Data
    public var now: Date

    public init(session: Data?, phone: PhoneNumber, candidateDigest: Data, signedInSession: Data, now: Date) {
        self.session = session
        self.phone = phone
        self.candidateDigest = candidateDigest
        self.signedInSession = signedInSession
        self.now = now
    }
}

/// What a typed code came to.
public enum CheckOutcome: Sendable, Equatable {
    /// Right code: it is consumed, the pending session is gone and a signed-in one exists for
    /// the user (whose id the store reports in ``Applied/signedInUserID``).
    case signedIn
    /// Wrong code; `remainingAttempts` more tries before the code is dead (0: dead now).
    case incorrect(remainingAttempts: Int)
    /// The code's lifetime has passed.
    case expired
    /// The code had already used up its attempts.
    case tooManyAttempts
    /// The phone had too many failed codes in the window; sign-in is locked until then.
    case locked(until: Date)
    /// There is no code for this phone (already used, or replaced and purged).
    case noCode
    /// The session is not pending (expired, signed out, or never existed).
    case noPendingSession
}

extension SignInRules {
    /// What ``check(_:given:)`` needs: the session, the phone's code and its failures in the
    /// lock window; the phone is locked.
    public func checkReads(_ request: CodeCheck) -> AuthReads {
        let phone = request.phone.e164
        return AuthReads(
            session: request.session, code: phone,
            phoneFailures: Self.window(
                phone, max: policy.maxFailuresPerPhone, per: policy.failuresPerPhoneWindow,
                now: request.now.timeIntervalSince1970),
            locks: [.phone(phone)])
    }

    /// Judges a typed code: the session must be pending for the phone; then the phone's lock,
    /// the code's attempts, its lifetime, and the digests (compared in constant time). A wrong
    /// code counts a try and a failure; the right one is used up, and the session is replaced
    /// by a fresh signed-in one.
    public func check(_ request: CodeCheck, given found: AuthSnapshot) -> AuthDecision<CheckOutcome> {
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        if request.session != nil {
            guard Self.isLive(found.session, now: now), found.session?.pendingPhone == phone else {
                return AuthDecision(.noPendingSession)
            }
        }
        guard let code = found.code else { return AuthDecision(.noCode) }
        if let until = Self.windowFull(nthNewest: found.phoneFailureAt, window: policy.failuresPerPhoneWindow) {
            return AuthDecision(.locked(until: until))
        }
        if code.failedAttempts >= policy.maxAttemptsPerCode { return AuthDecision(.tooManyAttempts) }
        if code.expiresAt <= now { return AuthDecision(.expired) }
        guard constantTimeEquals(code.digest, request.candidateDigest) else {
            return AuthDecision(
                .incorrect(remainingAttempts: max(0, policy.maxAttemptsPerCode - code.failedAttempts - 1)),
                changes: [.countWrongTry(phone: phone), .recordFailure(phone: phone, at: now)])
        }
        // Right code: single use, then a fresh session id for the signed-in state.
        let absolute = now + policy.sessionLifetime
        return AuthDecision(
            .signedIn,
            changes: [.deleteCode(phone: phone)] + (request.session.map { [.deleteSession(key: $0)] } ?? []) + [
                .signIn(
                    phone: phone, session: request.signedInSession, at: now,
                    expiresAt: min(absolute, now + policy.sessionIdleTimeout), absoluteExpiresAt: absolute)
            ])
    }
}
