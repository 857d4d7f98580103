import Foundation
import HTTPLite
import HTTPTypes
import Logging
import NIOCore

/// An endpoint that records every request and answers from a script (then 200).
final class Receiver: @unchecked Sendable {
    struct Received: Sendable {
        let path: String
        let headers: HTTPFields
        let body: String
    }
    private let lock = NSLock()
    private var received: [Received] = []
    private var script: [HTTPResponse.Status]
    private var server: HTTPServer<ClosureResponder<BasicRequestContext>>!
    private(set) var url = ""

    var requests: [Received] { lock.withLock { received } }

    init(script: [HTTPResponse.Status]) { self.script = script }

    func start() async throws {
        var logger = Logger(label: "receiver")
        logger.logLevel = .critical
        server = HTTPServer(
            responder: ClosureResponder { request, _ in
                let status = self.lock.withLock { () -> HTTPResponse.Status in
                    self.received.append(
                        Received(path: request.uri, headers: request.headers, body: String(buffer: request.body)))
                    return self.script.isEmpty ? .ok : self.script.removeFirst()
                }
                // A redirect leads back here, where it would be delivered at once if followed.
                return Response(
                    status: status, headers: status == .movedPermanently ? [.location: "/hook?redirected"] : [:])
            }, configuration: ServerConfiguration(host: "127.0.0.1", port: 0), logger: logger)
        let address = try await server.start()
        url = "http://127.0.0.1:\(address.port!)/hook"
    }

    func stop() async { await server.shutdown() }
}
