import Foundation
import HTTPLite
import NIOCore
import Testing
import TestSupport

@testable import WebApp

/// What a client on the open internet can do by holding many connections open: the caps per
/// client (an IPv4 address or an IPv6 /64, or the forwarded client behind a trusted proxy) and
/// in total. Each test fails without the defence it names.
@Suite("Connection caps")
struct ConnectionCapTests {
    /// The idle and request timeouts far past the caps' tests' sockets' own 60 s: a close those
    /// sockets see is a cap's doing (the counter says so too), however long a loaded machine
    /// takes to do it.
    static func onlyCapsClose(_ configuration: inout AppConfiguration) {
        configuration.server.requestTimeout = .seconds(600)
        configuration.server.idleTimeout = .seconds(600)
    }

    /// `count` idle connections to `server`, once it has taken them all.
    func hold(_ count: Int, on server: TestServer) async throws -> [RawConnection] {
        let held = try (0..<count).map { _ in try RawConnection(port: server.port, readTimeoutSeconds: 60) }
        #expect(await eventually { server.app.server.openConnectionCount == count })
        return held
    }

    @Test("connections past the per-client cap are closed at once and counted")
    func perClientCap() async throws {
        try await withServer({
            $0.server.maxConnectionsPerClient = 5
            Self.onlyCapsClose(&$0)
        }) { server in
            let held = try await hold(5, on: server)
            let sixth = try RawConnection(port: server.port, readTimeoutSeconds: 60)
            #expect(await sixth.isClosedByPeer())
            held[0].send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await held[0].readResponse()?.hasPrefix("HTTP/1.1 200") == true)
            held[1].send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            let metrics = try #require(await held[1].readResponse())
            #expect(sample(metrics, "http_connections_refused_total", ["reason": "per_client"]) == 1)
            // A closed connection frees its place.
            held[4].send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = await held[4].readAll()
            #expect(await eventually { server.app.server.openConnectionCount < 5 })
            let again = try RawConnection(port: server.port, readTimeoutSeconds: 60)
            again.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await again.readResponse()?.hasPrefix("HTTP/1.1 200") == true)
        }
    }

    @Test("connections past the total cap are closed at once and counted")
    func totalCap() async throws {
        try await withServer({
            $0.server.maxConnections = 3
            Self.onlyCapsClose(&$0)
        }) { server in
            let held = try await hold(3, on: server)
            let fourth = try RawConnection(port: server.port, readTimeoutSeconds: 60)
            #expect(await fourth.isClosedByPeer())
            held[0].send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            let metrics = try #require(await held[0].readResponse())
            #expect(sample(metrics, "http_connections_refused_total", ["reason": "total"]) == 1)
        }
    }

    @Test("behind a trusted proxy the per-client cap counts the forwarded client, not the proxy")
    func perClientCapBehindProxy() async throws {
        try await withServer({
            $0.server.trustProxy = true
            $0.server.maxConnectionsPerClient = 2
        }) { server in
            // Two requests in progress (their bodies never come) for one forwarded client.
            func slowRequest(from client: String) throws -> RawConnection {
                let connection = try RawConnection(port: server.port, readTimeoutSeconds: 60)
                connection.send(
                    "POST /login HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: \(client)\r\nContent-Length: 10\r\n\r\n")
                return connection
            }
            let held = try [slowRequest(from: "198.51.100.7"), slowRequest(from: "198.51.100.7")]
            // Both heads read (so both requests counted) before the third comes: a connection
            // taken but not yet read would let the third in ahead of it.
            #expect(await eventually { held.allSatisfy { $0.isReadByServer(port: server.port) } })
            let third = try slowRequest(from: "198.51.100.7")
            let refused = try #require(await third.readResponse())
            #expect(refused.hasPrefix("HTTP/1.1 503"))
            #expect(refused.contains("Retry-After: 1"))
            // Another client behind the same proxy (the same peer address) is served.
            let other = Browser(baseURL: server.baseURL)
            #expect(try await other.get("/login", headers: ["X-Forwarded-For": "198.51.100.8"]).status == .ok)
            // And the many connections from the proxy itself are not capped per client: each
            // carries requests of its own clients.
            let many = try (0..<6).map { _ in try RawConnection(port: server.port, readTimeoutSeconds: 60) }
            for (index, connection) in many.enumerated() {
                connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.\(index)\r\n\r\n")
            }
            for connection in many { #expect(await connection.readResponse()?.hasPrefix("HTTP/1.1 200") == true) }
            _ = held
        }
    }

    @Test("one IPv6 /64 is one client, whatever address in it a connection uses")
    func ipv6Grouping() {
        let a = ClientAddress(text: "2001:db8:1:2:aaaa::1")
        let b = ClientAddress(text: "2001:db8:1:2:ffff:ffff:ffff:fffe")
        let c = ClientAddress(text: "2001:db8:1:3::1")
        #expect(a.group == b.group)
        #expect(a.group != c.group)
        #expect(a.group == "2001:db8:1:2::/64")
        #expect(ClientAddress(text: "::ffff:203.0.113.9").group == "203.0.113.9")
        #expect(ClientAddress(text: "203.0.113.9").group == "203.0.113.9")
        #expect(ClientAddress(text: "not an address").group == "not an address")
    }

    @Test(
        "behind the proxy, an X-Forwarded-For that is not an address counts as the proxy, a port is dropped",
        arguments: [
            ("198.51.100.9:4431", "198.51.100.9"), ("[2001:db8::1]:443", "2001:db8:0:0::/64"), ("garbage", "127.0.0.1"),
            ("unknown", "127.0.0.1"), ("3325256713", "127.0.0.1"), ("0xc6.51.100.9", "127.0.0.1"), ("", "127.0.0.1"),
            ("203.0.113.5, 198.51.100.7", "198.51.100.7"), ("::ffff:198.51.100.7", "198.51.100.7"),
        ])
    func forwardedForParsing(_ header: String, _ group: String) throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 5555)
        let client = ClientAddress(peer: peer, headers: [.xForwardedFor: header], trustProxy: true)
        #expect(client?.group == group, "\(header)")
    }
}
