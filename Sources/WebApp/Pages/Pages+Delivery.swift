import AuthCore
import DeliveryCore
import Foundation
import Wording

/// What Verify and the help page say about the last code's text or call, from what its provider
/// reported.
extension Pages {
    /// The page's words for a delivery: a sentence, whether the code will not come this way
    /// (the page then says so as a problem, and offers the other way at once), and whether a
    /// call can be offered instead.
    struct DeliveryWords: Equatable {
        /// The sentence in three parts, so the number can be kept on one line (a `.nowrap` span
        /// on the page, one built the same way by `delivery.js`): before it, it, after it.
        let before: String
        let number: String
        let after: String
        var sentence: String { before + number + after }
        let didNotArrive: Bool
        /// The last send was a text that did not arrive and calls are offered: "Call me" first.
        let callInstead: Bool
    }

    /// Everything a page says and does about the last code's delivery.
    struct DeliveryView {
        let words: DeliveryWords?
        let delivery: SignInService.Delivery?
        /// The provider places calls.
        let offersCall: Bool
        /// The provider reports deliveries (`--public-url` with Twilio or the webhook).
        let reported: Bool

        init(
            _ delivery: SignInService.Delivery?, phone: PhoneNumber, offersCall: Bool, reported: Bool, words: Catalog
        ) {
            self.words = Pages.deliveryWords(delivery, phone: phone, offersCall: offersCall, words: words)
            self.delivery = delivery
            self.offersCall = offersCall
            self.reported = reported
        }

        /// What `GET /verify/status` answers.
        var reply: DeliveryReply {
            DeliveryReply(
                sentence: words?.sentence ?? "", before: words?.before ?? "", number: words?.number ?? "",
                after: words?.after ?? "", final: delivery?.status.isFinal ?? false,
                problem: words?.didNotArrive ?? false, callInstead: words?.callInstead ?? false)
        }
    }

    /// `nil` while nothing is known yet (the provider has not answered the send).
    static func deliveryWords(
        _ delivery: SignInService.Delivery?, phone: PhoneNumber, offersCall: Bool, words: Catalog
    ) -> DeliveryWords? {
        guard let delivery, delivery.status != .sending else { return nil }
        let ago = delivery.reportedAgo.map { words("delivery.ago", ["ago": Self.ago($0, words)]) } ?? ""
        let key: String
        switch (delivery.channel, delivery.status) {
        case (.sms, .sending), (.sms, .queued): key = "delivery.textOnItsWay"
        case (.sms, .sent): key = "delivery.textSent"
        case (.sms, .delivered): key = "delivery.textDelivered"
        case (.sms, .undelivered): key = "delivery.textUndelivered"
        case (.sms, .failed): key = "delivery.textFailed"
        case (.voice, .sending), (.voice, .queued): key = "delivery.callQueued"
        case (.voice, .sent): key = "delivery.callSent"
        case (.voice, .delivered): key = "delivery.callAnswered"
        case (.voice, .undelivered): key = "delivery.callUnanswered"
        case (.voice, .failed): key = "delivery.callFailed"
        }
        // Split around the number, so the page can keep it on one line.
        let parts =
            words.split(key, around: "phone", ["ago": ago]).map { ($0.before, phone.nationalFormat, $0.after) }
            ?? (words(key, ["ago": ago]), "", "")
        let lost = delivery.status.didNotArrive
        return DeliveryWords(
            before: parts.0, number: parts.1, after: parts.2, didNotArrive: lost,
            callInstead: lost && delivery.channel == .sms && offersCall)
    }

    /// The template values every page about a pending code shares for its delivery.
    /// `watchesDelivery`: the provider reports deliveries and the last one is not final, so
    /// `delivery.js` asks; Verify then carries its problem box and the call form hidden, for the
    /// script to show once the text is reported undelivered (`mayCallInstead`).
    static func deliveryValues(_ view: DeliveryView?) -> [String: Any] {
        let (words, delivery) = (view?.words, view?.delivery)
        let (offersCall, reported) = (view?.offersCall ?? false, view?.reported ?? false)
        let problem = words?.didNotArrive ?? false
        let callInstead = words?.callInstead ?? false
        let watches = reported && delivery.map { !$0.status.isFinal } ?? false
        return [
            "deliveryProblem": problem,
            "deliveryBefore": words?.before ?? "", "deliveryNumber": words?.number ?? "",
            "deliveryHasNumber": !(words?.number.isEmpty ?? true), "deliveryAfter": words?.after ?? "",
            "lastWasCall": delivery?.channel == .voice,
            "callInstead": callInstead, "watchesDelivery": watches, "showsDeliveryProblem": problem || watches,
            "mayCallInstead": callInstead || (watches && offersCall && delivery?.channel == .sms),
        ]
    }

    /// What `GET /verify/status` answers (`delivery.js`): the sentence, and whether it is final,
    /// a problem, and a reason to offer the call.
    struct DeliveryReply: Encodable {
        let sentence: String
        /// The sentence's parts around the number (`delivery.js` keeps the number on one line).
        let before: String
        let number: String
        let after: String
        let final: Bool
        let problem: Bool
        let callInstead: Bool
    }
}
