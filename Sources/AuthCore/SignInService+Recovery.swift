import Foundation
import Wording

/// "Lost your phone or number?": the old number and a recovery code prove the account; then a
/// code to a new number moves the account there, ending every other session and remembered
/// phone, and signs the person in.
extension SignInService {
    /// A recovery proved: whose account, and how many of its codes are left.
    public struct RecoveryProved: Sendable, Equatable {
        /// The account.
        public let account: Int64
        public let codesLeft: Int
        /// The number the account is on (nil: detached from it) and the one it was detached
        /// from, as the code's transaction left them: a proof is made from these, with no read
        /// after the commit (one that failed would answer "try again" with the code spent).
        public let phone: PhoneNumber?
        public let detachedFrom: PhoneNumber?
    }

    /// Checks the old number and a recovery code (`codeDigest`: its keyed digest, nil when what
    /// was typed cannot be a code). A right code is spent at once. A malformed number or code
    /// is refused before anything is read or counted.
    public func proveRecovery(phoneInput: String, codeDigest: Data?, client: String? = nil) async throws
        -> RecoveryProved
    {
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(parsing: phoneInput)
        } catch {
            throw SignInError.phone(error)
        }
        guard let codeDigest else { throw RecoveryError.malformedCode }
        let now = clock()
        let request = RecoveryProof(phone: phone, codeDigest: codeDigest, client: client, now: now)
        let rules = self.rules
        let outcome = try await store.transaction(rules.recoveryReads(request)) { found in
            rules.proveRecovery(request, given: found)
        }.outcome
        switch outcome {
        case .proved(let user, let left, let number, let detachedFrom):
            metrics.verification("recovery_proved")
            logger.notice("Recovery code used", metadata: ["user": "\(user)", "phone": "\(phone.masked)"])
            return RecoveryProved(
                account: user, codesLeft: left, phone: try number.map(SignInRules.phone),
                detachedFrom: try detachedFrom.map(SignInRules.phone))
        case .claimEnded:
            throw StoredDataCorrupt("a recovery that answered a question it was not asked")
        case .wrong, .numberLimited, .clientLimited:
            logger.notice("Wrong recovery try", metadata: ["phone": "\(phone.masked)"])
            throw refusal(outcome, now: now)
        }
    }

    /// A recovery code refused: what the person is told, counted in the metrics.
    func refusal(_ outcome: RecoveryOutcome, now: Date) -> RecoveryError {
        switch outcome {
        case .numberLimited(let until):
            metrics.limitHit("recovery_number")
            return .tooManyForNumber(seconds: max(1, wholeSeconds(from: now, to: until)))
        case .clientLimited(let until):
            metrics.limitHit("recovery_client")
            return .tooManyFromClient(seconds: max(1, wholeSeconds(from: now, to: until)))
        default:
            metrics.verification("recovery_wrong")
            return .wrongNumberOrCode
        }
    }

    /// The last step of a recovery: the code sent to `phone` (by the pending `session`, or the
    /// API's `holder`) moves `user`'s account there, as a change of number does, and in the
    /// same transaction every session and remembered phone of the account ends and a new
    /// signed-in session begins: the lost phone is signed out. The old number is told by text.
    /// `from`: the number the account is on (nil: detached from any).
    public func recoverAccount(
        _ account: Int64, from: PhoneNumber?, to phone: PhoneNumber, session: SessionToken?, holder: Data? = nil,
        codeInput: String, client: String? = nil, language: Language = .english, userAgent: String? = nil
    ) async throws -> SignedIn {
        let signedIn = SessionToken.generate()
        let moved = try await moveAccount(
            account, from: from, to: phone, session: session, holder: holder, codeInput: codeInput, client: client,
            language: language, recovering: (signedIn, userAgent))
        return SignedIn(session: signedIn, user: User(id: moved, phone: phone))
    }

    /// The number an account is on (nil: detached from its number, "This number is new to me"
    /// said by the number's new holder) and its unused recovery codes; nil when there is no such
    /// account.
    public func accountNumber(of account: Int64) async throws
        -> (phone: PhoneNumber?, unusedCodes: Int, detachedFrom: PhoneNumber?)?
    {
        guard let found = try await store.read(SingleRead { $0.accountNumber(user: account) }) else { return nil }
        return (
            try found.phone.map(SignInRules.phone), found.unusedRecoveryCodes,
            try found.detachedFrom.map(SignInRules.phone)
        )
    }
}
