import DeliveryCore
import Foundation

/// Why a sign-in step did not go through. Each case carries the sentence shown to the person.
public enum SignInError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The typed phone number was empty or invalid.
    case phone(PhoneNumber.ParseError)
    /// The number is valid, but not one we text (``SignInPolicy/phoneRegions``: another region,
    /// or a toll-free, premium-rate or other number that cannot take a code). `usOnly` says
    /// whether US numbers are the only ones texted, which the sentence then says.
    case phoneNotTexted(usOnly: Bool)
    /// What was typed is not six digits (too few, letters): no try was counted.
    case malformedCode
    /// The typed code is not the one sent.
    case incorrectCode
    /// The code's ten minutes have passed, or it was already used.
    case codeExpired
    /// The code took its last wrong try; a new one must be requested.
    case tooManyAttempts
    /// A new code was asked for before the cooldown ended.
    case resendTooSoon(seconds: Int)
    /// Too many codes went to this number lately.
    case tooManyCodesForPhone(seconds: Int)
    /// Too many codes were asked for from this network address lately.
    case tooManyCodesFromClient(seconds: Int)
    /// Too many texts went to numbers like this one (its exchange) lately.
    case tooManyCodesForExchange(seconds: Int)
    /// Too many calls went to this phone number in the window.
    case tooManyCallsForPhone(seconds: Int)
    /// The spend budget for texts is used up: nobody gets a text until it frees.
    case textsUnavailable(seconds: Int)
    /// The spend budget has no room for a call (which counts as several texts).
    case callsUnavailable(seconds: Int)
    /// Too many wrong codes came from this network address lately.
    case tooManyFailuresFromClient(seconds: Int)
    /// The code out for this number was asked for elsewhere (another browser or API caller).
    case codeRequestedElsewhere
    /// Too many wrong codes for this number in a day: sign-in to it is locked for a while.
    case phoneLocked(seconds: Int)
    /// Too many sign-ins were started from this network address lately.
    case tooManySignInsFromClient(seconds: Int)
    /// There is no sign-in in progress for this session (it expired or never started).
    case noPendingSignIn
    /// The text message could not be sent; nothing was changed.
    case deliveryFailed
    /// The call could not be placed; nothing was changed.
    case callFailed
    /// The provider cannot deliver on this channel (calls with a Twilio Messaging Service only).
    case channelUnavailable(DeliveryChannel)

    public var description: String {
        switch self {
        case .phone(let error): return error.description
        case .phoneNotTexted(let usOnly):
            return usOnly ? "We can only send codes to US phone numbers." : "We can't send codes to this phone number."
        case .malformedCode: return "Enter the 6-digit code"
        case .incorrectCode: return "Incorrect verification code"
        case .codeExpired: return "Your code expired"
        case .tooManyAttempts: return "Too many incorrect codes. Please request a new code."
        case .resendTooSoon(let seconds):
            return "Please wait \(seconds) second\(seconds == 1 ? "" : "s") before requesting a new code."
        case .tooManyCodesForPhone(let seconds):
            return "Too many codes were sent to this number. Please try again in \(Self.duration(seconds))."
        case .tooManyCodesFromClient(let seconds):
            return "Too many codes were requested from your network. Please try again in \(Self.duration(seconds))."
        case .tooManyCodesForExchange(let seconds):
            return "We can't send a code to this number right now. Please try again in \(Self.duration(seconds))."
        case .tooManyCallsForPhone(let seconds):
            return
                "We have called this number too often. You can ask for a text now, or a call in \(Self.duration(seconds))."
        case .textsUnavailable:
            return "We can't send text messages right now. Please try again later."
        case .callsUnavailable:
            return "We can't call phones right now. Please try again later."
        case .tooManyFailuresFromClient(let seconds):
            return
                "Too many incorrect codes were tried from your network. Please try again in \(Self.duration(seconds))."
        case .codeRequestedElsewhere:
            return "The code for this number was requested somewhere else. Please ask for a new code here."
        case .phoneLocked(let seconds):
            return "Too many incorrect codes for this number. Sign-in is locked for \(Self.duration(seconds))."
        case .tooManySignInsFromClient(let seconds):
            return "Too many sign-ins were started from your network. Please try again in \(Self.duration(seconds))."
        case .noPendingSignIn: return "Your sign-in expired. Please enter your phone number again."
        case .deliveryFailed: return "We couldn't send the text message. Please try again."
        case .callFailed: return "We couldn't call your phone. Please try again."
        case .channelUnavailable(.voice): return "We can't call phones right now. We can text you a code instead."
        case .channelUnavailable(.sms): return "We can't send text messages right now. Please try again later."
        }
    }

    /// Seconds the person must wait, when the error is about a limit.
    public var retryAfter: Int? {
        switch self {
        case .resendTooSoon(let seconds), .tooManyCodesForPhone(let seconds), .tooManyCodesFromClient(let seconds),
            .tooManyCodesForExchange(let seconds), .tooManyCallsForPhone(let seconds), .textsUnavailable(let seconds),
            .callsUnavailable(let seconds),
            .tooManyFailuresFromClient(let seconds), .phoneLocked(let seconds), .tooManySignInsFromClient(let seconds):
            return seconds
        default:
            return nil
        }
    }

    /// "45 seconds", "9 minutes", "3 hours": rounded up, in the largest unit that fits.
    public static func duration(_ seconds: Int) -> String {
        func plural(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if seconds < 60 { return plural(max(1, seconds), "second") }
        if seconds < 3600 { return plural((seconds + 59) / 60, "minute") }
        return plural((seconds + 3599) / 3600, "hour")
    }
}
