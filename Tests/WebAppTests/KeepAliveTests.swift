import Foundation
import TestSupport
import Testing

@testable import WebApp

/// Kept-alive, idle and trickling connections over real sockets: served in turn, then closed
/// by the request timeout without keeping others waiting.
@Suite("Kept-alive and idle connections")
struct KeepAliveTests {
    @Test("keep-alive serves several requests on one connection; Connection: close closes it")
    func keepAlive() async throws {
        try await withServer { server in
            let connection = try RawConnection(port: server.port)
            for _ in 0..<3 {
                connection.send("GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try #require(await connection.readResponse())
                #expect(response.hasPrefix("HTTP/1.1 200 OK"))
                #expect(!response.lowercased().contains("connection: close"))
            }
            connection.send("GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let last = try #require(await connection.readResponse())
            #expect(last.lowercased().contains("connection: close"))
            #expect(await connection.isClosedByPeer())
        }
    }

    @Test("idle and trickling connections are closed after the request timeout")
    func idleTimeout() async throws {
        // Nothing but the server's timeout closes these before their own 10 s socket timeouts
        // run out, so a close seen is the server's. No wall-clock bound is asserted.
        try await withServer({ $0.server.requestTimeout = .milliseconds(500) }) { server in
            let idle = try RawConnection(port: server.port, readTimeoutSeconds: 10)
            #expect(await idle.isClosedByPeer())

            // Bytes keep coming, but the request never completes: cut off all the same, while
            // they still come (a deadline pushed back by each byte would never cut it off).
            let slow = try RawConnection(port: server.port, readTimeoutSeconds: 10)
            var outcome = slow.sendAll("GET /login HTTP/1.1\r\nHost: x\r\n")
            for line in 0..<200 where outcome == .sent {
                try await Task.sleep(for: .milliseconds(100))
                outcome = slow.sendAll("X-Slow-\(line): 1\r\n")
            }
            #expect(outcome == .closedByPeer)
            let (answer, closed) = await slow.readUntilClosed()
            #expect(!answer.contains("200 OK"))
            #expect(closed)

            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/login").status == .ok)
        }
    }

    @Test("200 idle connections do not stop others being served, and are all closed by the timeout")
    func manyIdleConnections() async throws {
        try await withServer({
            $0.server.requestTimeout = .seconds(1)
            $0.server.maxConnectionsPerClient = 500  // all from 127.0.0.1; the cap has tests of its own
        }) { server in
            // Each socket gives up after 10 s; a close seen before that is the server's. Waited for
            // all at once, so a failure costs 10 s, not 200 × 10.
            let idle = try (0..<200).map { _ in try RawConnection(port: server.port, readTimeoutSeconds: 10) }
            let browser = Browser(baseURL: server.baseURL)
            #expect(try await browser.get("/login").status == .ok)
            let closed = await withTaskGroup(of: Bool.self) { group in
                for connection in idle { group.addTask { await connection.isClosedByPeer() } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(closed == idle.count)
            #expect(await eventually { server.app.server.openConnectionCount <= 1 })
        }
    }
}
