import DeliveryCore
import Testing

@testable import AuthCore

/// A second tap on "Text me a new code" or "Call me instead" (a slow network, a double tap)
/// refused as too soon is told the text or call just sent is on its way, nothing new sent; any
/// other refusal, another channel, a delivery already reported lost, or an older send is not.
@Suite("The same tap again")
struct SameTapTests {
    func status(
        _ channel: DeliveryChannel = .sms, _ delivered: DeliveryStatus = .queued, sentAgo: Int? = 2
    ) -> SignInService.CodeStatus {
        SignInService.CodeStatus(
            resendWait: 28, triesLeft: 5, expiresIn: 598, sentAgo: sentAgo,
            delivery: .init(channel: channel, status: delivered, reportedAgo: 1, errorCode: nil))
    }

    @Test("refused as too soon, by the same channel, within seconds of its send, still on its way")
    func sameTap() {
        #expect(status().isStillOnItsWay(after: .resendTooSoon(seconds: 28), by: .sms))
        #expect(status(.voice).isStillOnItsWay(after: .callTooSoon(seconds: 28), by: .voice))
        #expect(status(.sms, .sent).isStillOnItsWay(after: .resendTooSoon(seconds: 28), by: .sms))
    }

    @Test("not the same tap: another refusal, another channel, lost already, sent long enough ago, or no record")
    func notTheSameTap() {
        #expect(!status().isStillOnItsWay(after: .tooManyCodesForPhone(seconds: 600), by: .sms))
        #expect(!status(.sms).isStillOnItsWay(after: .callTooSoon(seconds: 28), by: .voice))
        #expect(!status(.sms, .undelivered).isStillOnItsWay(after: .resendTooSoon(seconds: 28), by: .sms))
        #expect(!status(.voice, .failed).isStillOnItsWay(after: .callTooSoon(seconds: 28), by: .voice))
        #expect(
            !status(sentAgo: SignInService.sameTapWithin).isStillOnItsWay(after: .resendTooSoon(seconds: 25), by: .sms))
        #expect(!status(sentAgo: nil).isStillOnItsWay(after: .resendTooSoon(seconds: 28), by: .sms))
        var unknown = status()
        unknown.delivery = nil
        #expect(!unknown.isStillOnItsWay(after: .resendTooSoon(seconds: 28), by: .sms))
    }
}
