import Foundation
import Testing

@testable import EventsCore

@Suite("Events")
struct EventTests {
    @Test(
        "a client's network is kept no more exactly than an IPv4 /24 or an IPv6 /48",
        arguments: [
            ("203.0.113.7", "203.0.113.0/24"),
            ("10.0.0.255", "10.0.0.0/24"),
            ("2001:db8:0:0::/64", "2001:db8::/48"),
            ("2001:db8:1234:5678::/64", "2001:db8:1234::/48"),
            ("2001:db8::1", "2001:db8::/48"),
            ("::1", "::/48"),
            ("fe80:1:2:3:4:5:6:7", "fe80:1:2::/48"),
            ("2001:0:5::1", "2001:0:5::/48"),
        ])
    func network(_ client: String, _ expected: String) {
        #expect(ClientNetwork.of(client) == expected)
    }

    @Test(
        "anything that is not an address keeps no network",
        arguments: ["unknown", "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.-4", "2001:db8::1::2", "12345::1",
                    "g::1", "1:2:3:4:5:6:7:8:9", String(repeating: "1", count: 100)])
    func notAnAddress(_ client: String) {
        #expect(ClientNetwork.of(client) == nil)
    }

    @Test("every sentence a line can have is in both catalogs")
    func sentences() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for language in ["en", "es"] {
            let data = try Data(contentsOf: root.appendingPathComponent("Locales/\(language).json"))
            let catalog = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for key in ActivityLine.keys { #expect(catalog[key] != nil, "\(language): \(key)") }
        }
        #expect(ActivityLine.keys.count > 25)
    }

    @Test("a network as a person reads it")
    func shown() {
        #expect(ClientNetwork.shown("203.0.113.0/24") == "203.0.113.x")
        #expect(ClientNetwork.shown("2001:db8::/48") == "2001:db8::/48")
    }

    @Test("a user agent is kept to 512 bytes, and the network in place of the client")
    func trimmed() {
        let event = Event(.signedIn, at: 1, userAgent: String(repeating: "é", count: 400), client: "198.51.100.9")
        #expect(event.userAgent!.utf8.count <= 512)
        #expect(event.network == "198.51.100.0/24")
        #expect(EventType(rawValue: "session.created") == .signedIn)
    }
}
