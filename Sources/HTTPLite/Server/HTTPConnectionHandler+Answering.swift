import HTTPTypes
import NIOCore
import NIOHTTP1

/// Writing answers: a response (with `Content-Length`, `Connection` and keep-alive settled
/// here), and the refusals of requests that broke a limit.
extension HTTPConnectionHandler {
    /// Answers a request that broke a limit, then closes: the rest of its bytes are not worth reading.
    func refuse(_ head: HTTPRequestHead, status: HTTPResponseStatus, context: ChannelHandlerContext) {
        logger.info(
            "Refused request",
            metadata: [
                "connection": "\(connectionID)", "status": "\(status.code)", "method": "\(head.method.rawValue)",
            ])
        writeError(status, version: head.version, isHead: head.method == .HEAD, context: context)
    }

    func writeError(
        _ status: HTTPResponseStatus, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext
    ) {
        let message: String
        switch status {
        case .payloadTooLarge: message = "The request body is too large."
        case .uriTooLong: message = "The address is too long."
        case .requestHeaderFieldsTooLarge: message = "The request headers are too large."
        case .requestTimeout: message = "The request took too long to arrive."
        case .serviceUnavailable: message = "Too many connections from your address. Please try again in a moment."
        default: message = "The request could not be understood."
        }
        let head = HTTPRequestHead(version: version, method: isHead ? .HEAD : .GET, uri: "/")
        var response = Response.text(message + "\n", status: HTTPResponse.Status(code: Int(status.code)))
        for field in configuration.refusalHeaders { response.headers[field.name] = field.value }
        if status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        configuration.onRefusal?(response.status)
        write(response, for: head, close: true, context: context)
    }

    /// Behind a trusted proxy: counts the request for the client the proxy names, or refuses it
    /// (503, then close) when that client already has its share in progress.
    /// The client is worked out here, from NIO's head, once: the request takes it
    /// (``forwardedClient``).
    func countRequest(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> Bool {
        forwardedClient = ClientAddress(peer: remoteAddress, forwardedFor: head.headers["X-Forwarded-For"])
        guard let client = forwardedClient?.group else { return true }
        guard limits.admitRequest(client: client) else {
            configuration.onConnectionRefused?(.perClient)
            state = .rejecting(head, .serviceUnavailable, discarded: 0)
            refuse(head, status: .serviceUnavailable, context: context)
            return false
        }
        countedClient = client
        return true
    }

    func releaseCountedClient() {
        if let client = countedClient { limits.releaseRequest(client: client) }
        countedClient = nil
    }

    /// Writes the answer. The state is settled before the last part goes out: writing it lets
    /// NIO's pipeline handler hand over the next pipelined request at once, within this call.
    func write(_ response: Response, for head: HTTPRequestHead, close: Bool, context: ChannelHandlerContext) {
        releaseCountedClient()
        var headers = response.headers
        let close =
            close || quiescing || draining.isOn
            || headers.containsListElement(.connection, where: { $0.equalsIgnoringCase("close") })
        let hasBody = !(response.status.code < 200 || response.status == .noContent || response.status == .notModified)
        if hasBody {
            headers[.contentLength] = String(response.body.readableBytes)
        }
        if close {
            headers[.connection] = "close"
        } else if head.version.major == 1 && head.version.minor == 0 {
            headers[.connection] = "keep-alive"
        }
        let status = HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase)
        let responseHead = HTTPResponseHead(version: head.version, status: status, headers: HTTPHeaders(headers))
        unanswered = max(0, unanswered - 1)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if hasBody, head.method != .HEAD, response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        if close {
            state = .closed
            cancelTimers()
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        } else {
            state = .idle
            waitForRequest(context: context)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            handleQueued(context: context)
        }
    }
}
