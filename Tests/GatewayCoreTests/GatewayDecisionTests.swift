import AuthCore
import Foundation
import GatewayCore
import Testing

/// What the check endpoints decide from the proxy's X-Forwarded-* headers and the session.
@Suite("Gateway decisions")
struct GatewayDecisionTests {
    static let domain = try! GatewayDomain("example.com")
    static let owner = User(id: 1, phone: try! PhoneNumber(parsing: "4155550100"))
    static let neighbour = User(id: 2, phone: try! PhoneNumber(parsing: "5305550123"))
    static let rules = try! GatewayRules(
        json: Data(#"{"hosts": {"admin.example.com": ["+14155550100"], "photos.example.com": ["+1530"]}}"#.utf8),
        domain: domain)

    func gateway(https: Bool = true) throws -> Gateway {
        try Gateway(publicURL: "https://login.example.com/", domain: Self.domain, rules: Self.rules, https: https)
    }

    @Test("signed in and allowed passes; a host not in the rules admits everyone signed in")
    func pass() throws {
        let gateway = try gateway()
        let host = HostName(authority: "wiki.example.com")!
        #expect(gateway.decide((nil, "wiki.example.com", "/"), user: Self.neighbour) == .pass(Self.neighbour, host))
        #expect(
            gateway.decide((nil, "Admin.Example.com", "/"), user: Self.owner)
                == .pass(Self.owner, HostName(authority: "admin.example.com")!))
    }

    @Test("the rules: a number, an area code, and everyone else refused")
    func rules() throws {
        let gateway = try gateway()
        let admin = HostName(authority: "admin.example.com")!
        let photos = HostName(authority: "photos.example.com")!
        #expect(
            gateway.decide((nil, "admin.example.com", "/"), user: Self.neighbour) == .notAllowed(Self.neighbour, admin))
        #expect(gateway.decide((nil, "photos.example.com", "/"), user: Self.neighbour) == .pass(Self.neighbour, photos))
        #expect(gateway.decide((nil, "photos.example.com", "/"), user: Self.owner) == .notAllowed(Self.owner, photos))
    }

    @Test("signed out: sign in, returning to the original address rebuilt from the headers")
    func signIn() throws {
        let gateway = try gateway()
        guard case .signIn(let back) = gateway.decide(("https", "wiki.example.com", "/page?x=1"), user: nil) else {
            Issue.record("expected signIn")
            return
        }
        #expect(back?.url == "https://wiki.example.com/page?x=1")
        #expect(
            gateway.loginAddress(returningTo: back)
                == "https://login.example.com/login?rd=https%3A%2F%2Fwiki.example.com%2Fpage%3Fx%3D1")
        // http is not trusted when the app runs over HTTPS; an odd URI returns to the root.
        guard case .signIn(let root) = gateway.decide(("http", "wiki.example.com", "https://evil.test/"), user: nil)
        else { return }
        #expect(root?.url == "https://wiki.example.com/")
    }

    @Test(
        "a missing, repeated or foreign host is refused, signed in or not",
        arguments: [
            nil, "", "wiki.example.com, evil.test", "evil.test", "example.com.evil.test", "user@wiki.example.com",
        ]
    )
    func refused(host: String?) throws {
        let gateway = try gateway()
        for user in [nil, Self.owner] {
            guard case .refused = gateway.decide(("https", host, "/"), user: user) else {
                Issue.record("\(String(describing: host)) was not refused")
                return
            }
        }
    }

    @Test("the public address must be on the domain, with no path")
    func publicURL() {
        #expect(throws: Gateway.Invalid.self) {
            try Gateway(publicURL: "https://login.other.test", domain: Self.domain, rules: .everyone, https: true)
        }
        #expect(throws: Gateway.Invalid.self) {
            try Gateway(publicURL: "https://login.example.com/app", domain: Self.domain, rules: .everyone, https: true)
        }
        #expect(throws: Gateway.Invalid.self) {
            try Gateway(publicURL: "http://login.example.com", domain: Self.domain, rules: .everyone, https: true)
        }
        #expect(
            (try? Gateway(
                publicURL: "http://login.example.com:8080", domain: Self.domain, rules: .everyone, https: false))?
                .publicURL == "http://login.example.com:8080")
    }

    @Test(
        "a rules file that is wrong says what to fix",
        arguments: [
            (#"{"wiki.example.com": ["+14155550100"]}"#, "not JSON of the form"),
            (#"{"hosts": {"wiki.other.test": ["+14155550100"]}}"#, "outside the gateway domain"),
            (#"{"hosts": {"wiki.example.com": ["4155550100"]}}"#, "give a number as +14155550100"),
            (#"{"hosts": {"wiki.example.com": ["+1415555"]}}"#, "give a number as +14155550100"),
            (#"{"hosts": {"wiki.example.com": ["+1123"]}}"#, "give a number as +14155550100"),
            (#"{"hosts": {}, "defualt": "deny"}"#, "keys other than \"hosts\": defualt"),
            (#"{"hosts": {"wiki.example.com": ["+15555550100"]}}"#, "give a number as +14155550100"),
            (#"{"hosts": {"wiki.example.com:8080": []}}"#, "not a host name"),
            (#"{"hosts": {"wiki.example.com": [], "WIKI.example.com": []}}"#, "twice"),
        ])
    func badRules(json: String, says: String) {
        do {
            _ = try GatewayRules(json: Data(json.utf8), domain: Self.domain)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(says), "\(error.description)")
        }
    }

    @Test("an empty list locks a host for everyone")
    func emptyList() throws {
        let rules = try GatewayRules(json: Data(#"{"hosts": {"vault.example.com": []}}"#.utf8), domain: Self.domain)
        #expect(!rules.admits(Self.owner.phone, to: HostName(authority: "vault.example.com")!))
        #expect(rules.admits(Self.owner.phone, to: HostName(authority: "wiki.example.com")!))
    }
}
