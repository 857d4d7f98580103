import AuthCore
import Foundation
import HTTPLite

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
            "sentAgo": status.sentAgo.map(Self.ago) ?? "",
            "resendWhen": wait > 0
                ? "If it still hasn't come, you can try again in \(SignInError.duration(wait))."
                : "If it still hasn't come, ask for a new one.",
            "countsDown": wait > 0, "resendWait": wait, "offersCall": delivery.offersCall,
        ]
        values.merge(Self.deliveryValues(delivery)) { $1 }
        return try page("verify-help", values, answering: nil)
    }

    /// "less than a minute ago", "1 minute ago", "25 minutes ago", "over an hour ago".
    static func ago(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "less than a minute ago"
        case ..<120: "1 minute ago"
        case ..<3600: "\(seconds / 60) minutes ago"
        default: "over an hour ago"
        }
    }
}
