import Foundation
import HTTPLite
import HTTPTypes
import Logging
import NIOCore

/// A stand-in SMS provider on 127.0.0.1 and a free port, built on our own HTTPLite: it records
/// every request and answers from a script (status, body, delay), then 201 for the rest.
final class FakeProvider: @unchecked Sendable {
    struct Received: Sendable {
        let method: HTTPRequest.Method
        let path: String
        let headers: HTTPFields
        let body: String
    }

    struct Answer: Sendable {
        var status: HTTPResponse.Status = .created
        var body = #"{"sid": "SM123", "status": "queued"}"#
        var delay: Duration = .zero
    }

    private let lock = NSLock()
    private var received: [Received] = []
    private var script: [Answer]
    private var server: HTTPServer<ClosureResponder<BasicRequestContext>>!
    private(set) var baseURL = ""

    var requests: [Received] { lock.withLock { received } }

    private init(script: [Answer]) {
        self.script = script
    }

    static func start(_ script: [Answer] = []) async throws -> FakeProvider {
        let fake = FakeProvider(script: script)
        var logger = Logger(label: "fake-provider")
        logger.logLevel = .critical
        fake.server = HTTPServer(
            responder: ClosureResponder { request, _ in try await fake.answer(request) },
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), logger: logger)
        let address = try await fake.server.start()
        fake.baseURL = "http://127.0.0.1:\(address.port!)"
        return fake
    }

    func stop() async { await server.shutdown() }

    private func answer(_ request: Request) async throws -> Response {
        let next = lock.withLock { () -> Answer in
            received.append(
                Received(
                    method: request.method, path: request.uri, headers: request.headers,
                    body: String(buffer: request.body)))
            return script.isEmpty ? Answer() : script.removeFirst()
        }
        if next.delay > .zero { try await Task.sleep(for: next.delay) }
        return Response(
            status: next.status, headers: [.contentType: "application/json"], body: ByteBuffer(string: next.body))
    }
}

/// Runs `body` with a fake provider, stopping it afterwards.
func withProvider(_ script: [FakeProvider.Answer] = [], _ body: (FakeProvider) async throws -> Void) async throws {
    let provider = try await FakeProvider.start(script)
    do {
        try await body(provider)
    } catch {
        await provider.stop()
        throw error
    }
    await provider.stop()
}

/// A log handler that keeps what was logged, to check that no code leaks into it.
final class CapturedLog: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let meta = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        lock.withLock { lines.append("\(event.level) \(event.message) \(meta)") }
    }

    var logger: Logger { Logger(label: "test") { _ in self } }
}
