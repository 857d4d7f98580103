import Foundation
import Wording

/// "Lost your phone or number?" refused. The code of the new number keeps its own
/// ``SignInError``s, and a new number with its own account is a ``NumberChangeError``.
public enum RecoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was typed cannot be a recovery code (not 10 letters and digits): no try was counted.
    case malformedCode
    /// The number has no account, or the code is not one of its unused codes (one answer for both).
    case wrongNumberOrCode
    /// Too many wrong tries for this number lately.
    case tooManyForNumber(seconds: Int)
    /// Too many wrong tries from this network address lately.
    case tooManyFromClient(seconds: Int)
    /// The proof is older than it may be (or the account moved since): start again.
    case proofExpired
    /// "Is this your account?": the code is not one of the account's unused recovery codes.
    case notThisAccountsCode
    /// "Is this your account?" is no longer waiting: it was answered elsewhere, or took too long.
    case claimEnded

    public var saying: Phrase {
        switch self {
        case .malformedCode: Phrase("recover.malformed")
        case .wrongNumberOrCode: Phrase("recover.wrong")
        case .tooManyForNumber(let seconds): Phrase("recover.tooManyForNumber", ["wait": .wait(seconds: seconds)])
        case .tooManyFromClient(let seconds): Phrase("recover.tooManyFromClient", ["wait": .wait(seconds: seconds)])
        case .proofExpired: Phrase("recover.expired")
        case .notThisAccountsCode: Phrase("claim.wrong")
        case .claimEnded: Phrase("claim.ended")
        }
    }

    public var description: String {
        switch self {
        case .malformedCode: "A recovery code is 10 letters and digits."
        case .wrongNumberOrCode: "That number and recovery code do not go together."
        case .tooManyForNumber(let seconds): "Too many tries for this number; wait \(seconds) s."
        case .tooManyFromClient(let seconds): "Too many tries from this network; wait \(seconds) s."
        case .proofExpired: "The recovery took too long; start again."
        case .notThisAccountsCode: "That is not one of this account's recovery codes."
        case .claimEnded: "The question was answered elsewhere or took too long: sign in again."
        }
    }

    /// Seconds the person must wait, when the error is about a limit.
    public var retryAfter: Int? {
        switch self {
        case .tooManyForNumber(let seconds), .tooManyFromClient(let seconds): seconds
        default: nil
        }
    }
}
