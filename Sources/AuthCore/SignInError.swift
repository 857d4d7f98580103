import DeliveryCore
import Foundation

/// Why a sign-in step did not go through. What people are told is ``saying``, in their language.
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
    /// The provider failed on this channel again and again lately: sending on it is paused for
    /// everyone for a while (``SignInPolicy/providerFailuresToPause``); the other channel may work.
    case deliveryPaused(DeliveryChannel, seconds: Int)
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
    /// A call was asked for before the wait after the last code ended (the same wait as
    /// ``resendTooSoon``, said for a call).
    case callTooSoon(seconds: Int)

    /// The key of what people are told (``saying``, in `Locales/`) and its values: for the log.
    public var description: String { saying.description }

    /// Seconds the person must wait, when the error is about a limit.
    public var retryAfter: Int? {
        switch self {
        case .resendTooSoon(let seconds), .callTooSoon(let seconds), .tooManyCodesForPhone(let seconds), .tooManyCodesFromClient(let seconds),
            .tooManyCodesForExchange(let seconds), .tooManyCallsForPhone(let seconds), .textsUnavailable(let seconds),
            .callsUnavailable(let seconds), .deliveryPaused(_, let seconds),
            .tooManyFailuresFromClient(let seconds), .phoneLocked(let seconds), .tooManySignInsFromClient(let seconds):
            return seconds
        default:
            return nil
        }
    }
}
