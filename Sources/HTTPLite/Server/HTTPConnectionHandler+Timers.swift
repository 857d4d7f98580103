import NIOCore
import NIOHTTP1

/// How long a connection may take: the wait for a request (idle, then the request deadline),
/// and a deadline for an answer to drain while the client does not read.
extension HTTPConnectionHandler {
    // MARK: - Backpressure

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            drainTimeout?.cancel()
            drainTimeout = nil
            if case .waitingForDrain(let head, let body) = state { dispatch(head, body: body, context: context) }
            resumeReading(context: context)
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
        idleSince = now
        requestDeadline = now + configuration.requestTimeout
        holdTo(min(now + configuration.idleTimeout, requestDeadline), context: context)
    }

    /// Holds the connection's wait to `deadline` (`nil`: no deadline, while the responder works).
    ///
    /// One timer per connection, not one per request: scheduling and cancelling a task on every
    /// request cost about 5% of a static file's CPU (`perf`, docs/BENCHMARKS.md). A timer set for
    /// an earlier moment stays; when it fires it looks at the deadline then in force and, if that
    /// lies ahead, sets itself again for it. Only a deadline earlier than the timer's moves it.
    func holdTo(_ deadline: NIODeadline?, context: ChannelHandlerContext) {
        self.deadline = deadline
        guard let deadline else { return }
        if let firesAt = timerFiresAt, firesAt <= deadline { return }
        timer?.cancel()
        setTimer(at: deadline, context: context)
    }

    private func setTimer(at moment: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timerFiresAt = moment
        timer = context.eventLoop.scheduleTask(deadline: moment) {
            let (handler, context) = loopBound.value
            handler.timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        timerFiresAt = nil
        guard let deadline else { return }
        if deadline > .now() {
            setTimer(at: deadline, context: context)
        } else {
            self.deadline = nil
            requestTimedOut(context: context)
        }
    }

    private func requestTimedOut(context: ChannelHandlerContext) {
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
        deadline = nil
        timer?.cancel()
        timer = nil
        timerFiresAt = nil
        drainTimeout?.cancel()
        drainTimeout = nil
    }

    func closeNow(context: ChannelHandlerContext) {
        state = .closed
        cancelTimers()
        context.close(promise: nil)
    }
}
