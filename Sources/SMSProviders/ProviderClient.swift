import AsyncHTTPClient
import AuthCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// One POST to an SMS provider with the retry rule both providers share: a connection that
/// could not be made, or a 5xx answer, is tried once more; a 4xx is final; a request that
/// timed out after it was sent is not repeated (the text may have gone out, and a second one
/// would be a second text). Both attempts share one deadline, so the person waiting on Login
/// is answered within it whatever the provider does.
struct ProviderClient: Sendable {
    /// The HTTP client the providers use unless given one: a connection refused fails the
    /// attempt at once (AsyncHTTPClient would otherwise keep trying to connect until the
    /// deadline), so a provider that is down is said in half a second, not five.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(3))
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    let client: HTTPClient
    /// Deadline for a send, both attempts included, from connecting to the last byte of the answer.
    let timeout: TimeAmount
    /// Pause before the second attempt.
    let retryDelay: Duration
    let logger: Logger

    struct Answer: Sendable {
        let status: HTTPResponseStatus
        let body: ByteBuffer
    }

    /// Sends the request; returns a 2xx answer, or throws ``DeliveryError`` saying why not.
    /// `describe` turns a non-2xx answer into a log-safe reason.
    func post(
        url: String, headers: HTTPHeaders, body: ByteBuffer, provider: String,
        describe: (Answer) -> String
    ) async throws -> Answer {
        var lastReason = ""
        var kind = DeliveryError.Kind.unavailable
        let deadline = NIODeadline.now() + timeout
        for attempt in 1...2 {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers = headers
            request.body = .bytes(body)
            do {
                let response = try await client.execute(request, deadline: deadline)
                let answer = Answer(status: response.status, body: try await response.body.collect(upTo: 64 * 1024))
                if (200..<300).contains(answer.status.code) { return answer }
                lastReason = describe(answer)
                logger.error(
                    "SMS provider refused the message",
                    metadata: ["provider": "\(provider)", "attempt": "\(attempt)", "reason": "\(lastReason)"])
                // 400, 404, 422: this message was refused (a number it will not text). Any other
                // answer (5xx, 401, 403, 429) says the provider cannot send for us now.
                if [400, 404, 422].contains(answer.status.code) {
                    kind = .refused
                    break
                }
                guard answer.status.code >= 500 else { break }
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
                logger.error("SMS provider timed out", metadata: ["provider": "\(provider)", "attempt": "\(attempt)"])
                throw DeliveryError(reason: "\(provider) did not answer in time", kind: .timedOut)
            } catch let error as DeliveryError {
                throw error
            } catch {
                lastReason = "cannot reach \(provider): \(error)"
                logger.error(
                    "SMS provider unreachable",
                    metadata: ["provider": "\(provider)", "attempt": "\(attempt)", "error": "\(error)"])
            }
            // A second attempt only with time for it: the first took less than half the deadline.
            guard attempt == 1, (deadline - NIODeadline.now()).nanoseconds > timeout.nanoseconds / 2 else { break }
            try await Task.sleep(for: retryDelay)
        }
        throw DeliveryError(reason: lastReason, kind: kind)
    }
}
