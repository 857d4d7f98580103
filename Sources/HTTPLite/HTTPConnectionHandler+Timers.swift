import NIOCore
import NIOHTTP1

/// How long a connection may take: the wait for a request (idle, then the request deadline),
/// and backpressure (no reading while the client does not read, and a deadline for an answer
/// to drain).
extension HTTPConnectionHandler {
    // MARK: - Backpressure

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            readHeldBack = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            drainTimeout?.cancel()
            drainTimeout = nil
            if case .waitingForDrain(let head, let body) = state { dispatch(head, body: body, context: context) }
            if readHeldBack {
                readHeldBack = false
                context.read()
            }
        } else if drainTimeout == nil {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            drainTimeout = context.eventLoop.scheduleTask(in: configuration.requestTimeout) {
                let (handler, context) = loopBound.value
                handler.drainTimedOut(context: context)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    private func drainTimedOut(context: ChannelHandlerContext) {
        drainTimeout = nil
        guard !context.channel.isWritable else { return }
        logger.info("Closing connection whose client does not read", metadata: ["connection": "\(connectionID)"])
        closeNow(context: context)
    }

    // MARK: - Timers

    /// Starts the wait for the next request: closed when idle past ``ServerConfiguration/idleTimeout``,
    /// or when the request has not fully arrived by ``ServerConfiguration/requestTimeout``.
    func waitForRequest(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        requestDeadline = now + configuration.requestTimeout
        schedule(at: min(now + configuration.idleTimeout, requestDeadline), context: context)
    }

    func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        timeout?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timeout = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.requestTimedOut(context: context)
        }
    }

    private func requestTimedOut(context: ChannelHandlerContext) {
        timeout = nil
        switch state {
        case .idle:
            logger.debug("Closing idle connection", metadata: ["connection": "\(connectionID)"])
            closeNow(context: context)
        case .receiving(let head, _), .rejecting(let head, _, _):
            refuse(head, status: .requestTimeout, context: context)
        case .waitingForDrain, .responding, .closed:
            break
        }
    }

    func cancelTimers() {
        timeout?.cancel()
        timeout = nil
        drainTimeout?.cancel()
        drainTimeout = nil
    }

    func closeNow(context: ChannelHandlerContext) {
        state = .closed
        cancelTimers()
        context.close(promise: nil)
    }
}
