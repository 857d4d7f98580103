import Foundation
import Wording

/// "Lost your phone or number?": the old number and a recovery code prove the account; then a
/// code to a new number moves the account there, ending every other session and remembered
/// phone, and signs the person in.
extension SignInService {
    /// A recovery proved: whose account, and how many of its codes are left.
    public struct RecoveryProved: Sendable, Equatable {
        /// The account, on the number it is on now (the one the person lost).
        public let user: User
        public let codesLeft: Int
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
        case .proved(let user, let left):
            metrics.verification("recovery_proved")
            logger.notice("Recovery code used", metadata: ["user": "\(user)", "phone": "\(phone.masked)"])
            return RecoveryProved(user: User(id: user, phone: phone), codesLeft: left)
        case .wrong:
            metrics.verification("recovery_wrong")
            logger.notice("Wrong recovery try", metadata: ["phone": "\(phone.masked)"])
            throw RecoveryError.wrongNumberOrCode
        case .numberLimited(let until):
            metrics.limitHit("recovery_number")
            throw RecoveryError.tooManyForNumber(seconds: max(1, wholeSeconds(from: now, to: until)))
        case .clientLimited(let until):
            metrics.limitHit("recovery_client")
            throw RecoveryError.tooManyFromClient(seconds: max(1, wholeSeconds(from: now, to: until)))
        }
    }

    /// The last step of a recovery: the code sent to `phone` (by the pending `session`, or the
    /// API's `holder`) moves `user`'s account there, as a change of number does, and in the
    /// same transaction every session and remembered phone of the account ends and a new
    /// signed-in session begins: the lost phone is signed out. The old number is told by text.
    public func recoverAccount(
        of user: User, to phone: PhoneNumber, session: SessionToken?, holder: Data? = nil, codeInput: String,
        client: String? = nil, language: Language = .english, userAgent: String? = nil
    ) async throws -> SignedIn {
        let signedIn = SessionToken.generate()
        let moved = try await moveAccount(
            of: user, to: phone, session: session, holder: holder, codeInput: codeInput, client: client,
            language: language, recovering: (signedIn, userAgent))
        return SignedIn(session: signedIn, user: moved)
    }
}
