import GatewayCore
import Testing

/// The open-redirect check: only addresses a browser will read as a host on the gateway domain.
@Suite("Return addresses (rd=)")
struct ReturnAddressTests {
    let domain = try! GatewayDomain("example.com")

    @Test(
        "addresses on the domain or a subdomain are kept, scheme and host in lower case, the rest as given",
        arguments: [
            ("https://example.com", "https://example.com"),
            ("https://wiki.example.com/page?a=1&b=%20#top", "https://wiki.example.com/page?a=1&b=%20#top"),
            ("HTTPS://Wiki.Example.COM/Path", "https://wiki.example.com/Path"),
            ("https://a.b.example.com:8443/x", "https://a.b.example.com:8443/x"),
            ("https://wiki.example.com.//x", "https://wiki.example.com//x"),
            ("https://wiki.example.com?q", "https://wiki.example.com?q"),
        ])
    func kept(given: String, expected: String) {
        #expect(ReturnAddress(given, domain: domain, allowHTTP: false)?.url == expected)
    }

    @Test(
        "anything a browser could read as another host, or not as an address, is refused",
        arguments: [
            "https://evil.test/", "//evil.test", "/home", "https:/\\evil.test", "https:\\\\evil.test",
            "https://user@wiki.example.com/", "https://wiki.example.com@evil.test/", "javascript:alert(1)",
            "https://wiki.example.com.evil.test/", "https://badexample.com/", "https://example.com\\@evil.test",
            "https://wiki.example.com/\u{0009}x", "https://wiki.example.com/ x", "https://wiki.example.com\n.evil.test",
            "https:evil.test", "https:/evil.test", "ftp://wiki.example.com/", "https://127.0.0.1/",
            "https://%65vil.test/", "https://wiki.example.com:0/", "https://wiki.example.com:99999/",
            "https://wiki.example.com:/", "https://wïki.example.com/", "https://-a.example.com/",
            "https://.example.com/", "", "https://", "http://wiki.example.com/",
            "https://wiki.example.com/" + String(repeating: "a", count: 2048),
        ])
    func refused(given: String) {
        #expect(ReturnAddress(given, domain: domain, allowHTTP: false) == nil)
    }

    @Test("http is admitted only when the app is not served over HTTPS")
    func http() {
        #expect(
            ReturnAddress("http://wiki.example.com/", domain: domain, allowHTTP: true)?.url
                == "http://wiki.example.com/")
        #expect(ReturnAddress("http://wiki.example.com/", domain: domain, allowHTTP: false) == nil)
    }

    @Test("a domain needs two labels and is a host name")
    func domains() throws {
        #expect(throws: GatewayDomain.Invalid.self) { try GatewayDomain("com") }
        #expect(throws: GatewayDomain.Invalid.self) { try GatewayDomain("example.com:443") }
        #expect(throws: GatewayDomain.Invalid.self) { try GatewayDomain("10.0.0.1") }
        #expect(throws: GatewayDomain.Invalid.self) { try GatewayDomain("*.example.com") }
        #expect(try GatewayDomain("Example.COM.").name == "example.com")
    }
}
