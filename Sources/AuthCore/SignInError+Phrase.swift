import Foundation
import Wording

/// What people are told of a sign-in refusal, in their language (`Locales/`): the key of each
/// case and its values. ``SignInError/description`` keeps the English sentence for the log.
extension SignInError {
    public var saying: Phrase {
        switch self {
        case .phone(let error): error.saying
        case .phoneNotTexted(let usOnly): Phrase(usOnly ? "signIn.usOnly" : "signIn.notTexted")
        case .malformedCode: Phrase("signIn.malformedCode")
        case .incorrectCode: Phrase("signIn.incorrectCode")
        case .codeExpired: Phrase("signIn.codeExpired")
        case .tooManyAttempts: Phrase("signIn.tooManyAttempts")
        case .resendTooSoon(let seconds): Phrase("signIn.resendTooSoon", ["duration": .duration(seconds: seconds)])
        case .tooManyCodesForPhone(let seconds):
            Phrase("signIn.tooManyCodesForPhone", ["wait": .wait(seconds: seconds)])
        case .tooManyCodesFromClient(let seconds):
            Phrase("signIn.tooManyCodesFromClient", ["wait": .wait(seconds: seconds)])
        case .tooManyCodesForExchange(let seconds):
            Phrase("signIn.tooManyCodesForExchange", ["wait": .wait(seconds: seconds)])
        case .tooManyCallsForPhone(let seconds):
            Phrase("signIn.tooManyCallsForPhone", ["wait": .wait(seconds: seconds)])
        case .textsUnavailable: Phrase("signIn.textsUnavailable")
        case .callsUnavailable: Phrase("signIn.callsUnavailable")
        case .deliveryPaused(.sms, let seconds): Phrase("signIn.textsPaused", ["wait": .wait(seconds: seconds)])
        case .deliveryPaused(.voice, let seconds): Phrase("signIn.callsPaused", ["wait": .wait(seconds: seconds)])
        case .tooManyFailuresFromClient(let seconds):
            Phrase("signIn.tooManyFailuresFromClient", ["wait": .wait(seconds: seconds)])
        case .codeRequestedElsewhere: Phrase("signIn.codeRequestedElsewhere")
        case .phoneLocked(let seconds): Phrase("signIn.phoneLocked", ["duration": .duration(seconds: seconds)])
        case .tooManySignInsFromClient(let seconds):
            Phrase("signIn.tooManySignInsFromClient", ["wait": .wait(seconds: seconds)])
        case .noPendingSignIn: Phrase("signIn.noPendingSignIn")
        case .deliveryFailed: Phrase("signIn.deliveryFailed")
        case .callFailed: Phrase("signIn.callFailed")
        case .channelUnavailable(.voice): Phrase("signIn.callsNotOffered")
        case .channelUnavailable(.sms): Phrase("signIn.textsUnavailable")
        case .callTooSoon(let seconds): Phrase("signIn.callTooSoon", ["duration": .duration(seconds: seconds)])
        }
    }
}

extension PhoneNumber.ParseError {
    public var saying: Phrase {
        switch self {
        case .empty: Phrase("phone.empty")
        case .invalid: Phrase("phone.invalid")
        case .wrongLength(let digits): Phrase("phone.wrongLength", ["n": .count(digits)])
        }
    }
}
