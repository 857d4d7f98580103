import Foundation
import HTTPLite
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

@testable import WebApp
/// What a client on the open internet can do with connections: pipeline, never read, sit
/// idle. Each test fails without the defence it names. Holding many open is
/// ``ConnectionCapTests``.
@Suite("Connections on the open internet")
struct ConnectionTests {
    @Test("pipelined requests are all answered, in the order they were sent")
    func pipelining() async throws {
        try await withServer { server in
            let connection = try RawConnection(port: server.port)
            connection.send(
                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /login HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let all = await connection.readAll()
            let statuses = all.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "200", "200"])
            let healthz = try #require(all.range(of: "\r\n\r\nok\n"))
            let login = try #require(all.range(of: "<form"))
            let readyz = try #require(all.range(of: "\r\n\r\nready\n"))
            #expect(healthz.lowerBound < login.lowerBound && login.lowerBound < readyz.lowerBound)
        }
    }

    @Test("bytes that do not parse behind pipelined requests: the requests are answered in order first, then the 400")
    func malformedBehindPipeline() async throws {
        try await withServer { server in
            let connection = try RawConnection(port: server.port)
            connection.send(
                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n")
            let all = await connection.readAll()
            let statuses = all.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "200", "400"])
            #expect(all.contains("\r\n\r\nok\n") && all.contains("\r\n\r\nready\n"))

            // After a request that asks to close, what follows is not answered, but it is.
            let closing = try RawConnection(port: server.port)
            closing.send(
                "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /"
            )
            let answers = await closing.readAll().components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(answers == ["200", "200"])
        }
    }

    @Test("a client that sends and never reads is answered only as far as it reads; the rest waits, in order")
    func backpressure() async throws {
        try await withServer({
            // The answer that does not drain closes the connection at the request deadline (its
            // own test below): here the deadline lies past every wait of this test (the stall's
            // looks up to 60 s, each read up to 30 s). At 20 s, a loaded machine's slow looks
            // reached it and the connection closed after 21 answers (twice, CI and here).
            $0.server.requestTimeout = .seconds(300)
            $0.server.maxPipelinedRequests = 5000  // the bound on pipelining has a test of its own
        }) { server in
            // 2,000 pipelined requests for the OpenAPI document (48 KB each: 38 MB of answers)
            // from a client with a tiny receive window that reads nothing yet. The kernel holds
            // a few MB of them (its send buffer grows to 4 MB); the server must hold no more.
            let total = 800
            // Each read waits up to 30 s.
            let greedy = try RawConnection(port: server.port, readTimeoutSeconds: 30, receiveBuffer: 4096)
            let sender = Task.detached {
                greedy.send(String(repeating: "GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", count: total))
            }
            let probe = Browser(baseURL: server.baseURL)
            func answered() async throws -> Double {
                sample(try await probe.get("/metrics").body, "http_requests_total", ["route": "/api/v1/openapi.json"])
                    ?? 0
            }
            // Wait until the count stops moving: the same over three looks 700 ms apart (a busy
            // machine answers slowly, and once paused 700 ms mid-way), for at most 60 s.
            var looks = [try await answered()]
            let deadline = ContinuousClock.now + .seconds(60)
            while !(looks.count >= 3 && Set(looks.suffix(3)).count == 1), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(700))
                looks.append(try await answered())
            }
            let now = looks.last ?? 0
            // Stalled at what fits in the kernel's buffers and one answer in the server.
            #expect(Set(looks.suffix(3)).count == 1, "went on answering a client that reads nothing: \(looks)")
            #expect(now < Double(total) / 2, "answered \(now) of \(total) for a client that reads nothing")
            #expect(try await probe.get("/login").status == .ok)
            // Once the client reads, the rest is answered.
            let statusLine = Array("HTTP/1.1 200 OK".utf8)
            var count = 0
            var carried: [UInt8] = []
            while count < total, let chunk = await greedy.readChunk() {
                let bytes = carried + chunk
                count +=
                    bytes.indices.dropLast(statusLine.count - 1).filter {
                        bytes[$0] == statusLine[0] && bytes[$0..<$0 + statusLine.count].elementsEqual(statusLine)
                    }.count
                carried = Array(bytes.suffix(statusLine.count - 1))
            }
            _ = await sender.value
            #expect(count == total)
        }
    }

    @Test("a client that pipelines more than 16 requests ahead of their answers is cut off, its requests dropped")
    func pipelineDepth() async throws {
        try await withServer { server in
            // Sixteen ahead is fine (and answered in order) ...
            let fine = try RawConnection(port: server.port)
            fine.send(
                String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: 15)
                    + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await fine.readAll().components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 16)
            // ... 2,000 tiny ones in one write from a client that reads nothing are not kept.
            // Its reads wait up to 30 s, so a close seen is the server's even on a loaded machine.
            let greedy = try RawConnection(port: server.port, readTimeoutSeconds: 30, receiveBuffer: 4096)
            greedy.send(String(repeating: "GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", count: 2000))
            // Closed by the server (not this socket's own timeout), and counted as refused below.
            #expect(await greedy.isClosedByPeerAfterReading())
            let probe = Browser(baseURL: server.baseURL)
            let metrics = try await probe.get("/metrics").body
            #expect((sample(metrics, "http_requests_total", ["route": "/api/v1/openapi.json"]) ?? 0) <= 17)
            #expect(sample(metrics, "http_requests_total", ["route": "refused", "status": "429"]) == 1)
        }
    }

    @Test("a graceful shutdown closes an idle kept-alive connection at once and one mid-request after its answer")
    func quiescing() async throws {
        // Timeouts far past these sockets' own 20 s: a close seen is the shutdown's doing.
        try await withServer({
            $0.server.idleTimeout = .seconds(300)
            $0.server.requestTimeout = .seconds(300)
        }) { server in
            let idle = try RawConnection(port: server.port, readTimeoutSeconds: 20)
            idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await idle.readResponse()?.hasPrefix("HTTP/1.1 200") == true)
            // Mid-request for sure: the server's 100 Continue says it has the head.
            let busy = try RawConnection(port: server.port, readTimeoutSeconds: 20)
            busy.send("POST /api/v1/verifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
            busy.send("Expect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            #expect(await busy.readResponse()?.hasPrefix("HTTP/1.1 100") == true)
            busy.send("{")

            server.app.server.beginShutdown()
            #expect(await idle.isClosedByPeer())
            busy.send("}")
            let answer = await busy.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 4"))
            #expect(answer.lowercased().contains("connection: close"))
        }
    }

    @Test("an answer that does not drain by the request deadline closes the connection")
    func drainTimeout() async throws {
        try await withServer({
            $0.server.requestTimeout = .seconds(1)
            $0.server.maxPipelinedRequests = 1_000_000  // the bound on pipelining has a test of its own
        }) { server in
            // 12 MB of requests: more than the kernel buffers, so the send blocks once the server
            // stops reading; it fails because the server closes the connection (after about the
            // 1 s deadline), not because this socket's own 30 s send timeout ran out.
            let stuck = try RawConnection(port: server.port, readTimeoutSeconds: 30, receiveBuffer: 4096)
            let sent = await Task.detached {
                stuck.sendAll(String(repeating: "GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", count: 300_000))
            }.value
            #expect(sent == .closedByPeer)
            #expect(await eventually { server.app.server.openConnectionCount == 0 })
        }
    }

    @Test(
        "a kept-alive connection idle past the idle timeout is closed; a request in progress gets the request timeout")
    func idleTimeout() async throws {
        // The request timeout (120 s) is far past these sockets' own 20 s: a close seen is the
        // idle timeout's doing.
        try await withServer({
            $0.server.idleTimeout = .milliseconds(400)
            $0.server.requestTimeout = .seconds(120)
        }) { server in
            let idle = try RawConnection(port: server.port, readTimeoutSeconds: 20)
            idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await idle.readResponse()?.hasPrefix("HTTP/1.1 200") == true)
            #expect(await idle.isClosedByPeer())

            // A body that arrives in pieces over more than the idle timeout is still read.
            let slow = try RawConnection(port: server.port, readTimeoutSeconds: 20)
            slow.send("POST /api/v1/verifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
            slow.send("Content-Length: 2\r\n\r\n{")
            try await Task.sleep(for: .milliseconds(800))
            slow.send("}")
            let answer = try #require(await slow.readResponse())
            #expect(answer.hasPrefix("HTTP/1.1 400") || answer.hasPrefix("HTTP/1.1 422"))
        }
    }
}
