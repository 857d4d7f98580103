import Foundation
import Wording

/// "Change your number" refused after the code was checked (or before anything was sent, for
/// the account's own number). The code's own refusals stay ``SignInError``s.
public enum NumberChangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The new number is the account's number already.
    case sameNumber
    /// The new number has its own account (said only once its code proved the person holds it).
    case numberHasAccount
    /// The account moved (another tab's change) or went while this change ran: nothing moved.
    case changedMeanwhile

    public var saying: Phrase {
        switch self {
        case .sameNumber: Phrase("yourAccount.phone.same")
        case .numberHasAccount: Phrase("yourAccount.phone.taken")
        case .changedMeanwhile: Phrase("yourAccount.phone.meanwhile")
        }
    }

    public var description: String {
        switch self {
        case .sameNumber: "That is already your number."
        case .numberHasAccount: "That number already has its own account."
        case .changedMeanwhile: "The account's number changed while this change ran."
        }
    }
}
