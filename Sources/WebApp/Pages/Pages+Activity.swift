import EventsCore
import Foundation
import HTTPLite
import Wording

extension Pages {
    /// The delivery statuses a provider ends with, the only ones a line shows.
    static let finalDeliveries: Set<String> = ["delivered", "undelivered", "failed"]

    /// "Recent activity": the person's events, newest first (``EventsCore/ActivityLine``), each
    /// with when, the browser or app, and its network; "Not you? Sign out everywhere" above them.
    /// `before`: the id this page starts before (nil: the newest page); `olderThan`: the id the
    /// next page starts before, when there is one.
    /// `appName`: an app's name by its client id, where it is still configured (its id otherwise).
    func activity(
        csrf: String, events: [StoredEvent], before: Int64?, olderThan: Int64?,
        appName: (String) -> String? = { _ in nil }
    ) throws -> Response {
        let isOlderPage = before != nil
        let lines = activityLines(events, appName: appName)
        return try page(
            "activity",
            [
                "csrf": csrf, "lines": lines, "hasLines": !lines.isEmpty, "hasOlder": olderThan != nil,
                "olderThan": olderThan.map(String.init) ?? "", "isOlderPage": isOlderPage,
                "paged": olderThan != nil || isOlderPage,
                // The language switch keeps the page.
                "pageAddress": before.map { "/account/activity?before=\($0)" } ?? "/account/activity",
            ], answering: nil)
    }

    /// Each event as "Recent activity" says it: the sentence, when, its delivery, browser and network.
    func activityLines(_ events: [StoredEvent], appName: (String) -> String? = { _ in nil }) -> [[String: Any]] {
        events.map { stored in
            var line = ActivityLine(stored)
            if let id = stored.event.app, let name = appName(id) { line.values["app"] = name }
            let event = stored.event
            let device = UserAgentDescription.describe(event.userAgent, words)
            // Only a provider's last word is shown: "on its way" would stay forever when it
            // never reports.
            let status = stored.status.flatMap { Self.finalDeliveries.contains($0) ? words("activity.delivery." + $0) : nil }
            return [
                "sentence": words(line.key, line.values.merging(["device": device]) { kept, _ in kept }),
                "iso": Self.iso(event.at), "when": Self.when(event.at, words),
                "hasStatus": status != nil, "status": status ?? "",
                "hasDevice": event.userAgent != nil && !line.namesDevice, "device": device,
                "hasNetwork": event.network != nil,
                "network": event.network.map { words("activity.network", ["network": ClientNetwork.shown($0)]) } ?? "",
            ]
        }
    }
}
