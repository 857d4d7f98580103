import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// The last handler of a connection's pipeline, after NIO's HTTP/1.1 decoder: collects one
/// request (head and body within the limits), hands it to the responder on a task, and writes
/// the response.
///
/// Pipelined requests wait their turn in this handler (``HTTPConnectionHandler+Pipelining``),
/// so requests are answered one at a time in the order they came, at most
/// ``ServerConfiguration/maxPipelinedRequests`` ahead of their answers.
///
/// Backpressure: while the connection is not writable (the client is not reading what was
/// already written) or requests wait in the queue, this handler asks for no more bytes and
/// starts no new request, so a connection holds at most one answer in memory; an answer that
/// has not drained by the request deadline closes the connection.
final class HTTPConnectionHandler<Responder: HTTPResponder>: ChannelDuplexHandler, RemovableChannelHandler
where Responder.Context: RootRequestContext {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    enum State {
        /// Waiting for the next request head.
        case idle
        /// Reading a request's body.
        case receiving(HTTPRequestHead, ByteBuffer)
        /// A whole request that waits for the client to read the previous answer.
        case waitingForDrain(HTTPRequestHead, ByteBuffer)
        /// The request will be refused with `status`; its body is read and dropped.
        case rejecting(HTTPRequestHead, HTTPResponseStatus, discarded: Int)
        /// The responder is working on a request, or its response is being written.
        case responding
        /// The connection is closing; nothing more is read or written.
        case closed
    }

    /// Most bytes of a refused body read (and dropped) before the answer is sent and the
    /// connection closed, so a client that sends its whole body first still sees the status.
    private static var maxDiscardedBytes: Int { 1024 * 1024 }
    /// How long a shutdown leaves a connection that just became idle (``userInboundEventTriggered(context:event:)``).
    static var settle: TimeAmount { .seconds(1) }

    private let responder: Responder
    let configuration: ServerConfiguration
    let limits: ConnectionLimits
    let logger: Logger
    let connectionID: Int
    /// The server is draining: each answer closes its connection.
    let draining: Draining
    private var requestCount = 0
    var state = State.idle
    /// When the request being waited for must have arrived (``ServerConfiguration/requestTimeout``
    /// after the connection opened or the last answer was written).
    var requestDeadline = NIODeadline.distantFuture
    /// What the connection's wait is held to now (``holdTo(_:context:)``); `nil` while responding.
    var deadline: NIODeadline?
    /// The connection's one timer, and when it fires (at or before ``deadline``).
    var timer: Scheduled<Void>?
    var timerFiresAt: NIODeadline?
    /// Closes the connection when an answer has not drained by the request deadline.
    var drainTimeout: Scheduled<Void>?
    /// A read the pipeline asked for while the connection was not writable or requests waited,
    /// issued once neither is so.
    var readHeldBack = false
    /// What came behind the request being answered, in order: parts of pipelined requests, and
    /// bytes that did not parse.
    var queued = CircularBuffer<Queued>()
    /// Requests whose head has arrived and whose answer has not been written to its end.
    var unanswered = 0
    /// A graceful shutdown asked this connection to close after the request in progress.
    var quiescing = false
    /// When the connection last began to wait for a request (accepted, or an answer written).
    var idleSince = NIODeadline.now()
    var remoteAddress: SocketAddress?
    /// Behind a trusted proxy: the client the request in progress is counted for.
    var countedClient: String?
    /// Behind a trusted proxy: the client the request whose head came last names (set by
    /// ``countRequest(_:context:)``, taken by the request when its body has come).
    var forwardedClient: ClientAddress?

    /// The start of this connection's request ids (`3f9a-12.`: the process's tag, which tells
    /// this instance's ids from another's, and the connection); the request's number follows.
    private lazy var requestIDPrefix = "\(ProcessTag.value)-\(connectionID)."
    /// The peer as a client, worked out once per connection (it is the same for every request
    /// on it); behind a trusted proxy each request names its own.
    private lazy var peerClient: ClientAddress? = remoteAddress?.ipAddress.map(ClientAddress.init(text:))

    init(
        responder: Responder, configuration: ServerConfiguration, limits: ConnectionLimits, logger: Logger,
        connectionID: Int, draining: Draining = Draining()
    ) {
        self.draining = draining
        self.responder = responder
        self.configuration = configuration
        self.limits = limits
        self.logger = logger
        self.connectionID = connectionID
    }

    func handlerAdded(context: ChannelHandlerContext) {
        remoteAddress = context.channel.remoteAddress
        if context.channel.isActive { waitForRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        remoteAddress = context.channel.remoteAddress
        waitForRequest(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        cancelTimers()
        releaseCountedClient()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        accept(unwrapInboundIn(data), context: context)
    }

    /// One part of the request whose turn it is.
    func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch (part, state) {
        case (.head(let head), .idle):
            receive(head, context: context)
        case (.body(var part), .receiving(let head, var body)):
            if body.readableBytes + part.readableBytes > configuration.maxBodySize {
                state = .rejecting(head, .payloadTooLarge, discarded: body.readableBytes + part.readableBytes)
            } else {
                state = .closed  // drop the reference so `body` stays uniquely owned while appending
                body.writeBuffer(&part)
                state = .receiving(head, body)
            }
        case (.body(let part), .rejecting(let head, let status, let discarded)):
            let total = discarded + part.readableBytes
            state = .rejecting(head, status, discarded: total)
            if total > Self.maxDiscardedBytes { refuse(head, status: status, context: context) }
        case (.end, .receiving(let head, let body)):
            if context.channel.isWritable {
                dispatch(head, body: body, context: context)
            } else {
                // The client has not read the last answer yet: this one waits until it does.
                state = .waitingForDrain(head, body)
            }
        case (.end, .rejecting(let head, let status, _)):
            refuse(head, status: status, context: context)
        case (_, .closed):
            break
        default:
            // Requests wait their turn (accept), so anything else is a bug worth a log line.
            logger.error(
                "Unexpected HTTP part for connection state; closing", metadata: ["connection": "\(connectionID)"])
            closeNow(context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            logger.debug("Connection error", metadata: ["connection": "\(connectionID)", "error": "\(error)"])
            closeNow(context: context)
            return
        }
        // Bytes that do not parse behind requests still to be answered: those are answered
        // first, in order, and the refusal takes its turn after them.
        inTurn(.malformed(parserError), context: context)
    }

    /// Answers bytes that are not HTTP (400, or 431 for headers over the limits), then closes.
    func refuseMalformed(_ error: HTTPParserError, context: ChannelHandlerContext) {
        let status: HTTPResponseStatus = error == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
        logger.info(
            "Refused malformed request",
            metadata: ["connection": "\(connectionID)", "status": "\(status.code)", "error": "\(error)"])
        writeError(status, version: .http1_1, isHead: false, context: context)
    }

    // MARK: - Steps

    private func receive(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        // No longer idle: what is left of the request deadline applies.
        holdTo(requestDeadline, context: context)
        if head.uri.utf8.count > configuration.maxURILength {
            state = .rejecting(head, .uriTooLong, discarded: 0)
            return
        }
        // RFC 9112 §3.2: a request with more than one Host is refused (only the first would
        // become the request's authority; a proxy in front might route on another).
        if head.headers["Host"].count > 1 {
            state = .rejecting(head, .badRequest, discarded: 0)
            return
        }
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > configuration.maxBodySize
        {
            state = .rejecting(head, .payloadTooLarge, discarded: 0)
            if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // The client is waiting for our go-ahead; tell it no now instead of reading a body.
                refuse(head, status: .payloadTooLarge, context: context)
            }
            return
        }
        if configuration.trustProxy, !countRequest(head, context: context) { return }
        if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
            let interim = HTTPResponseHead(version: head.version, status: .continue)
            context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
        }
        state = .receiving(head, context.channel.allocator.buffer(capacity: 0))
    }

    /// NIO's HTTP/1 head as swift-http-types' `HTTPRequest`. A path in origin form (`/…`,
    /// nearly every request) is kept as it came, which is what NIOHTTPTypesHTTP1's own init
    /// ends with after a Foundation URL parse of it on every request; any other form (absolute,
    /// `*`) goes through that init.
    static func convert(_ head: HTTPRequestHead) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/") else {
            return try HTTPRequest(head, secure: false, splitCookie: false)
        }
        return HTTPRequest(
            method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers.first(name: "Host"),
            path: head.uri, headerFields: HTTPFields(head.headers, splitCookie: false))
    }

    func dispatch(_ head: HTTPRequestHead, body: ByteBuffer, context: ChannelHandlerContext) {
        holdTo(nil, context: context)
        state = .responding
        requestCount += 1
        let requestID = RequestID.choose(
            fromHeader: head.headers.first(name: "X-Request-Id"),
            fallback: requestIDPrefix + String(requestCount))
        // The request id reaches log lines through ``RequestID/current`` and the logging system's
        // metadata provider, not through a logger copied with metadata for every request.
        // NIO's HTTP/1 head becomes swift-http-types' HTTPRequest (Host becomes the authority);
        // a method it cannot carry is refused like any malformed request.
        guard let requestHead = try? Self.convert(head) else {
            refuse(head, status: .badRequest, context: context)
            return
        }
        let request = Request(
            head: requestHead, body: body, remoteAddress: remoteAddress,
            client: configuration.trustProxy ? forwardedClient.take() : peerClient,
            isKeepAlive: head.isKeepAlive)
        let source = RequestContextSource(logger: logger, remoteAddress: remoteAddress)
        let responder = self.responder
        let taskLogger = logger
        let future = context.eventLoop.makeFutureWithTask { () async -> Response in
            do {
                var response = try await RequestID.$current.withValue(requestID) {
                    try await responder.respond(to: request, context: Responder.Context(source: source))
                }
                response.headers[.requestID] = requestID
                return response
            } catch let error as any AnsweringError {
                var response = error.response
                response.headers[.requestID] = requestID
                return response
            } catch {
                taskLogger.error("Request failed", metadata: ["error": "\(error)", "request": "\(requestID)"])
                var response = Response.internalServerError
                response.headers[.requestID] = requestID
                return response
            }
        }
        future.assumeIsolated().whenSuccess { response in
            guard case .responding = self.state else { return }
            self.write(response, for: head, close: !head.isKeepAlive, context: context)
        }
    }
}

/// Four random hex digits chosen once per process.
private enum ProcessTag {
    static let value = String(UInt16.random(in: .min ... .max), radix: 16)
}
