import NIOCore
import NIOHTTP1

/// Closes a connection that sends more than ``ServerConfiguration/maxPipelinedRequests``
/// requests ahead of their answers.
///
/// NIO's `HTTPServerPipelineHandler` keeps pipelined requests until their turn, and the decoder
/// turns a whole read (tens of kilobytes) into requests at once: without a bound, a client that
/// pipelines small requests and never reads makes the server hold thousands of decoded requests
/// (about 2 MB) per connection. Browsers do not pipeline at all, so a deep pipeline is an abuse:
/// past the bound the connection is closed, and the requests behind it are dropped as they are
/// decoded rather than kept. Sits between the decoder and the pipeline handler, counting request
/// heads in and answers (`.end`) out.
final class PipelineDepthLimit: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let maximum: Int
    private let onExceeded: (() -> Void)?
    /// Requests received whose answer has not been written to its end.
    private var unanswered = 0
    private var closing = false

    init(maximum: Int, onExceeded: (() -> Void)? = nil) {
        self.maximum = maximum
        self.onExceeded = onExceeded
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            if unanswered > maximum {
                closing = true
                onExceeded?()
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered -= 1 }
        context.write(data, promise: promise)
    }
}
