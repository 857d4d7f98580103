import HTTPLite
import Logging
import Testing

/// Behind a trusted proxy each request's client is the one its own `X-Forwarded-For` names: the
/// connection works it out when the head is counted and hands it to that request alone.
@Suite("The forwarded client of each request on one connection")
struct ForwardedClientTests {
    @Test(
        "pipelined requests on one kept-alive connection (a body among them, an address that is none, no header) each keep their own client"
    )
    func pipelined() async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.trustProxy = true
        var logger = Logger(label: "forwarded")
        logger.logLevel = .critical
        let server = HTTPServer(
            responder: ClosureResponder<BasicRequestContext> { request, _ in
                .text("client=\(request.client?.address ?? "none");")
            }, configuration: configuration, logger: logger)
        let address = try await server.start()
        // The read's time-out only keeps a broken server from hanging the run: the answers end
        // when the server closes after the last request, however long a loaded machine takes
        // (a fresh clone's CI read nothing within 10 s while 150 suites shared two cores).
        let connection = try RawConnection(port: address.port!, readTimeoutSeconds: 60)
        let requests = [
            "GET /a HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.1\r\n\r\n",
            "POST /b HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9, 2001:DB8::7\r\nContent-Length: 3\r\n\r\nabc",
            "GET /c HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: garbage\r\n\r\n",
            "GET /d HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /e HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.5\r\nConnection: close\r\n\r\n",
        ]
        #expect(connection.send(requests.joined()))
        let answers = await connection.readAll()
        await server.shutdown()
        let clients = answers.components(separatedBy: "client=").dropFirst().map { String($0.prefix { $0 != ";" }) }
        #expect(clients == ["198.51.100.1", "2001:db8::7", "127.0.0.1", "127.0.0.1", "198.51.100.5"])
    }
}
