import HTTPTypes
import NIOCore
import Testing

@testable import HTTPLite

/// Who a request behind a trusted proxy comes from: the last `X-Forwarded-For` entry, read the
/// same from NIO's head (the connection's count) as from swift-http-types' fields.
@Suite("The client a trusted proxy names")
struct ClientAddressTests {
    @Test(
        "the last entry, trimmed of spaces and tabs, without its port; anything not an address is the proxy's own",
        arguments: [
            (["203.0.113.7"], "203.0.113.7"),
            (["203.0.113.7, 198.51.100.8"], "198.51.100.8"),
            (["203.0.113.7", "198.51.100.8"], "198.51.100.8"),
            (["203.0.113.7,\t 198.51.100.8 \t"], "198.51.100.8"),
            (["203.0.113.7,198.51.100.8,"], "198.51.100.8"),
            (["198.51.100.7:443"], "198.51.100.7"),
            (["[2001:db8::1]:443"], "2001:db8::1"),
            (["2001:DB8:0:0::1"], "2001:db8::1"),
            (["unknown"], nil),
            (["198.51.100.7 x"], nil),
            (["198.51.100.7\u{00A0}"], nil),
            ([" , "], nil),
            ([""], nil),
            ([String(repeating: "1", count: 65)], nil),
            ([], nil),
        ] as [([String], String?)])
    func forwarded(_ values: [String], _ expected: String?) {
        #expect(ClientAddress.forwardedFor(values) == expected)
        var fields = HTTPFields()
        for value in values { fields.append(HTTPField(name: .xForwardedFor, value: value)) }
        let peer = try? SocketAddress(ipAddress: "127.0.0.1", port: 9)
        #expect(ClientAddress(peer: peer, forwardedFor: values)?.address == expected ?? "127.0.0.1")
        #expect(ClientAddress(peer: peer, headers: fields, trustProxy: true)?.address == expected ?? "127.0.0.1")
    }
}
