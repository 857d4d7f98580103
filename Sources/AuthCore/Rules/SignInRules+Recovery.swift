import Crypto
import Encodings
import EventsCore
import Foundation

/// "Lost your phone or number?": the account's old number and one of its recovery codes.
public struct RecoveryProof: Sendable {
    /// The number the account is on (the one the person lost).
    public var phone: PhoneNumber
    /// The keyed digest of the typed recovery code (AccountCore's `RecoveryCodes`): what is
    /// typed is never compared, only its digest.
    public var codeDigest: Data
    /// The client that typed it, for the per-client limit; `nil` if unknown.
    public var client: String?
    public var now: Date
    /// "Is this your account?" answered with a recovery code: the waiting session (pending for
    /// `phone`, naming the account), and the signed-in session a right code begins.
    public var claim: Claim?

    /// A recovery code given on "Is this your account?".
    public struct Claim: Sendable {
        public var session: Data
        public var account: Int64
        public var signedIn: Data
        public var userAgent: String?
        /// Answered through the JSON API: the session begun is an API token.
        public var api: Bool

        public init(session: Data, account: Int64, signedIn: Data, userAgent: String?, api: Bool = false) {
            self.session = session
            self.account = account
            self.signedIn = signedIn
            self.userAgent = userAgent
            self.api = api
        }
    }

    public init(phone: PhoneNumber, codeDigest: Data, client: String?, now: Date, claim: Claim? = nil) {
        self.phone = phone
        self.codeDigest = codeDigest
        self.client = client
        self.now = now
        self.claim = claim
    }
}

/// What a recovery try came to.
public enum RecoveryOutcome: Sendable, Equatable {
    /// The code is one of the account's: it is spent, and the person may move the account to a
    /// new number. `codesLeft`: its unused codes after this one; `phone` and `detachedFrom`: its
    /// number (nil: detached) and the one it was detached from, as the transaction leaves them.
    case proved(user: Int64, codesLeft: Int, phone: String?, detachedFrom: String?)
    /// No account on the number, or not one of its unused codes: the same answer for both, so
    /// the page tells nobody whether a number has an account. Counted towards both limits.
    case wrong
    /// Too many wrong tries for this number in the window; nothing was looked at.
    case numberLimited(until: Date)
    /// Too many wrong tries from this client in the window; nothing was looked at.
    case clientLimited(until: Date)
    /// "Is this your account?" is no longer waiting (it expired, or was answered elsewhere).
    case claimEnded
}

extension SignInRules {
    /// What is kept of a wrong recovery try: SHA-256 of the number and the code's keyed digest,
    /// so it matches only that same try again.
    static func recoveryTry(_ digest: Data, phone: String) -> Data {
        Data(SHA256.hash(data: Data(phone.utf8) + digest))
    }

    /// What ``proveRecovery(_:given:)`` reads (``RecoveryReads``).
    public func recoveryReads(_ request: RecoveryProof) -> RecoveryReads {
        RecoveryReads(request, policy: policy)
    }

    /// Judges a recovery try: the client's and the number's limits first (a full window looks at
    /// nothing), then the code. A right code is spent at once, so two tries with one code (two
    /// tabs, or a thief racing its owner) prove the account once; a wrong one counts for the
    /// number and the client alike, whether or not the number has an account.
    public func proveRecovery(_ request: RecoveryProof, given found: RecoveryFound) -> AuthDecision<RecoveryOutcome> {
        let now = request.now.timeIntervalSince1970
        if let claim = request.claim {
            guard let session = found.session, Self.isLive(session, now: now), session.claimUserID == claim.account,
                session.pendingPhone == request.phone.e164
            else { return AuthDecision(.claimEnded) }
        }
        // The account the question was about is no longer on the number (its new holder started
        // afresh in another browser): nothing is left to prove, and nothing is counted.
        if let claim = request.claim, found.match.user != claim.account {
            return AuthDecision(.claimEnded, changes: [.deleteSession(key: claim.session)])
        }
        if let until = found.clientFailures.fullUntil { return AuthDecision(.clientLimited(until: until)) }
        if let until = found.numberFailures.fullUntil { return AuthDecision(.numberLimited(until: until)) }
        let tried = Self.recoveryTry(request.codeDigest, phone: request.phone.e164)
        guard let user = found.match.user, found.match.matches else {
            // The number's last wrong try, sent again (Reload on the page that said so, which
            // Safari answers by posting the form again; a double tap): no new guess.
            if let last = found.match.lastWrongTry, constantTimeEquals(last, tried) { return AuthDecision(.wrong) }
            return AuthDecision(
                .wrong,
                changes: [
                    .recordRecoveryFailure(phone: request.phone.e164, client: request.client, at: now, tried: tried),
                    Self.event(.wrongRecoveryCode, at: now, phone: request.phone.e164, client: request.client),
                ])
        }
        let spent: [AuthChange] = [.spendRecoveryCode(user: user, digest: request.codeDigest, at: now)]
        guard let claim = request.claim else {
            return AuthDecision(
                .proved(
                    user: user, codesLeft: max(0, found.match.unused - 1), phone: found.match.phone,
                    detachedFrom: found.match.detachedFrom),
                changes: spent + [
                    Self.event(.recoveryProved, at: now, user: user, phone: request.phone.e164, client: request.client)
                ])
        }
        // "It's mine", proved: the number's code came a moment ago, the recovery code now, so the
        // person signs in (and the number counts as proved from now).
        return AuthDecision(
            .proved(
                user: user, codesLeft: max(0, found.match.unused - 1), phone: found.match.phone,
                detachedFrom: found.match.detachedFrom),
            changes: spent + [
                .deleteSession(key: claim.session),
                Self.event(
                    .claimProved, at: now, user: user, phone: request.phone.e164,
                    detail: SignInWay.recoveryCode.rawValue, userAgent: claim.userAgent, client: request.client),
            ]
                + newSession(
                    phone: request.phone.e164, session: claim.signedIn, at: now, userAgent: claim.userAgent,
                    api: claim.api, method: .code, client: request.client, way: .recoveryCode))
    }
}
