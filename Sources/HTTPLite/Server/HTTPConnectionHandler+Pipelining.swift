import Logging
import NIOCore
import NIOHTTP1

/// Pipelined requests, in this handler rather than in NIO's `HTTPServerPipelineHandler`.
///
/// NIO's handler stops asking for bytes whenever an answer is in progress, pipelined or not, so
/// every request cost two `epoll_ctl` calls (stop watching the socket, watch it again after the
/// answer): 3% of a static file's CPU in `perf`. Here reading stops only while requests
/// actually wait in ``queued`` (or the client is not reading): what one read brought is kept
/// in order and answered one request at a time.
///
/// A client more than ``ServerConfiguration/maxPipelinedRequests`` requests ahead of their
/// answers is cut off at once, its requests dropped as they are decoded: the decoder turns a
/// whole read (tens of kilobytes) into requests at once, and browsers do not pipeline at all,
/// so without a bound a client that pipelines small requests and never reads would make the
/// server hold thousands of them per connection.
extension HTTPConnectionHandler {
    /// What waits its turn behind the request being answered.
    enum Queued {
        case part(HTTPServerRequestPart)
        /// Bytes after the requests before them that did not parse: refused in their turn.
        case malformed(HTTPParserError)
    }

    /// A part as it arrives: handled now when its request's turn has come, else queued.
    func accept(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        if case .closed = state { return }
        if case .head = part {
            unanswered += 1
            if unanswered > configuration.maxPipelinedRequests {
                logger.info(
                    "Closing connection that pipelines too many requests",
                    metadata: ["connection": "\(connectionID)", "requests": "\(unanswered)"])
                configuration.onRefusal?(.tooManyRequests)
                queued.removeAll()
                closeNow(context: context)
                return
            }
        }
        inTurn(.part(part), context: context)
    }

    /// Runs `item` now when nothing is answered or waiting, else queues it behind the rest.
    func inTurn(_ item: Queued, context: ChannelHandlerContext) {
        if isAnswering || !queued.isEmpty {
            queued.append(item)
        } else {
            run(item, context: context)
        }
    }

    private func run(_ item: Queued, context: ChannelHandlerContext) {
        switch item {
        case .part(let part): handle(part, context: context)
        case .malformed(let error): refuseMalformed(error, context: context)
        }
    }

    /// Whether a request is being answered or waits to be (the parts behind it wait too).
    var isAnswering: Bool {
        switch state {
        case .responding, .waitingForDrain: true
        case .idle, .receiving, .rejecting, .closed: false
        }
    }

    /// After an answer: the parts that waited, in order, until one starts the next answer; then,
    /// with nothing left waiting, reading resumes.
    func handleQueued(context: ChannelHandlerContext) {
        while !isAnswering, let next = queued.popFirst() {
            run(next, context: context)
            if case .closed = state {
                queued.removeAll()
                return
            }
        }
        resumeReading(context: context)
    }

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable, queued.isEmpty {
            context.read()
        } else {
            readHeldBack = true
        }
    }

    /// Issues a read held back while the client did not read or requests waited.
    func resumeReading(context: ChannelHandlerContext) {
        guard readHeldBack, context.channel.isWritable, queued.isEmpty else { return }
        readHeldBack = false
        context.read()
    }

    /// A graceful shutdown (``HTTPServer/beginShutdown()``): an idle connection closes now; one
    /// with a request in progress closes after its answer (which says `Connection: close`).
    /// A connection idle for less than ``settle`` (accepted, or answered, a moment ago) may have
    /// a request on its way that closing now would reset, which a proxy cannot send elsewhere
    /// once sent (nginx does not retry a POST): it gets the rest of that moment, and closes
    /// then if nothing came.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiescing = true
        queued.removeAll()
        if case .idle = state {
            let settled = idleSince + Self.settle
            if settled <= .now() { closeNow(context: context) } else { holdTo(settled, context: context) }
        }
    }
}
