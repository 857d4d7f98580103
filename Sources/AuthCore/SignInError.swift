import Foundation

/// Why a sign-in step did not go through. Each case carries the sentence shown to the person.
public enum SignInError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The typed phone number was empty or invalid.
    case phone(PhoneNumber.ParseError)
    /// The typed code is not the one sent (or is not six digits).
    case incorrectCode
    /// The code's ten minutes have passed, or it was already used.
    case codeExpired
    /// The code took its last wrong try; a new one must be requested.
    case tooManyAttempts
    /// A new code was asked for before the cooldown ended.
    case resendTooSoon(seconds: Int)
    /// There is no sign-in in progress for this session (it expired or never started).
    case noPendingSignIn
    /// The text message could not be sent; nothing was changed.
    case deliveryFailed

    public var description: String {
        switch self {
        case .phone(let error): return error.description
        case .incorrectCode: return "Incorrect verification code"
        case .codeExpired: return "Your code expired"
        case .tooManyAttempts: return "Too many incorrect codes. Please request a new code."
        case .resendTooSoon(let seconds):
            return "Please wait \(seconds) second\(seconds == 1 ? "" : "s") before requesting a new code."
        case .noPendingSignIn: return "Your sign-in expired. Please enter your phone number again."
        case .deliveryFailed: return "We couldn't send the text message. Please try again."
        }
    }
}
