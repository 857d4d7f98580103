import AuthCore
import Foundation
import HTTPLite
import Wording

extension Pages {
    /// "Didn't get a code?" (GOV.UK's "Not received a text message?"): where the last code went
    /// and how long ago, what to try, a way to change the number, and a new code, with the
    /// resend wait said and counted down (`countdown.js`, from when the page came: the wait is
    /// short, and a phone's clock may be off by more) when it still runs.
    func verifyHelp(
        csrf: String, phone: PhoneNumber, status: SignInService.CodeStatus, delivery: DeliveryView
    ) throws -> Response {
        let wait = status.resendWait
        let called = status.delivery?.channel == .voice
        var values: [String: Any] = [
            "csrf": csrf, "phone": phone.nationalFormat, "sent": status.sentAgo != nil, "called": called,
            "sentAgo": status.sentAgo.map { Self.ago($0, words) } ?? "", "pageAddress": "/verify/help",
            // Worded for the channel last used: after a call, "If the call doesn't come".
            "resendWhen": wait > 0
                ? words(called ? "help.tryAgainInAfterCall" : "help.tryAgainIn", ["wait": words.wait(seconds: wait)])
                : words(called ? "help.askForNewAfterCall" : "help.askForNew"),
            "waitPhrase": wait > 0 ? words.wait(seconds: wait) : "",
            "countsDown": wait > 0, "resendWait": wait, "offersCall": delivery.offersCall,
        ]
        values.merge(Self.deliveryValues(delivery)) { $1 }
        return try page("verify-help", values, answering: nil)
    }

    /// "less than a minute ago", "1 minute ago", "25 minutes ago", "over an hour ago".
    static func ago(_ seconds: Int, _ words: Catalog) -> String {
        switch seconds {
        case ..<60: words("time.lessThanAMinuteAgo")
        case ..<3600: words.plural("time.minutesAgo", count: seconds / 60)
        default: words("time.overAnHourAgo")
        }
    }
}
