import AuthCore
import Wording

/// A browser's `User-Agent` in words for "Your devices": "Safari on iPhone", "Chrome on
/// Android", "Firefox on Windows". Only the common browsers and systems are named; anything
/// else is "A browser" on "an unknown system", never the raw header (which anyone can fill).
enum UserAgentDescription {
    /// How a session is named on the page and in the API: an API token, or its browser.
    static func describe(_ session: SignedInPlaces.Session, _ words: Catalog) -> String {
        session.api ? words("devices.apiToken") : describe(session.userAgent, words)
    }

    /// Browser and system names are the products' own, the same in every language.
    static func describe(_ userAgent: String?, _ words: Catalog) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return words("devices.aBrowser") }
        return words(
            "devices.browserOn",
            [
                "browser": browser(agent) ?? words("devices.aBrowser"),
                "system": system(agent) ?? words("devices.unknownSystem"),
            ])
    }

    /// Checked in this order: Edge, Opera and Samsung's browser also say "Chrome", Chrome also
    /// says "Safari".
    private static func browser(_ agent: String) -> String? {
        let names: [(token: String, name: String)] = [
            ("Edg", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Firefox/", "Firefox"),
            ("FxiOS", "Firefox"), ("CriOS", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        return names.first { agent.contains($0.token) }?.name
    }

    private static func system(_ agent: String) -> String? {
        let systems: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("CrOS", "ChromeOS"), ("Macintosh", "Mac"), ("Linux", "Linux"),
        ]
        return systems.first { agent.contains($0.token) }?.name
    }
}
