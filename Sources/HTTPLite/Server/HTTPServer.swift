import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves one ``HTTPResponder`` over HTTP/1.1 on SwiftNIO.
///
/// NIO's HTTP/1.1 codec parses the wire; each connection's ``HTTPConnectionHandler`` turns
/// parsed parts into a ``Request``, enforces the limits in ``ServerConfiguration``, calls the
/// responder off the event loop, and writes the ``Response`` back with keep-alive handled.
public final class HTTPServer<Responder: HTTPResponder>: Sendable where Responder.Context: RootRequestContext {
    /// The limits and address this server was made with.
    public let configuration: ServerConfiguration
    private let responder: Responder
    private let group: any EventLoopGroup
    private let logger: Logger
    private let state = NIOLockedValueBox(ServerState())
    private let limits: ConnectionLimits
    /// Once begun (``Draining/begin()``, the step before ``beginShutdown()`` when a load balancer
    /// needs time to notice), every answer says `Connection: close` and closes its connection;
    /// new connections are still taken, and an idle keep-alive one carries its next request.
    public let draining: Draining

    private struct ServerState {
        var channel: (any Channel)?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var nextConnectionID = 0
        var isShuttingDown = false
        /// Completes when every connection open at shutdown has closed; set by ``beginShutdown()``.
        var drained: EventLoopFuture<Void>?
    }

    public init(
        responder: Responder, configuration: ServerConfiguration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger,
        draining: Draining = Draining()
    ) {
        self.draining = draining
        self.responder = responder
        self.configuration = configuration
        self.group = eventLoopGroup
        self.logger = logger
        self.limits = ConnectionLimits(
            maxTotal: configuration.maxConnections, maxPerClient: configuration.maxConnectionsPerClient)
    }

    /// Binds and starts accepting connections; returns the bound address (with the real port
    /// when the configuration asked for port 0).
    @discardableResult
    public func start() async throws -> SocketAddress {
        let configuration = self.configuration
        let limits = {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.maxHeaderFieldCount
            return limits
        }()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: configuration.backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { [self] channel in
                guard let connectionID = self.register(channel) else {
                    return channel.close()
                }
                // Pipelined requests wait their turn in HTTPConnectionHandler, not in NIO's
                // pipelining handler (see HTTPConnectionHandler+Pipelining).
                return channel.pipeline.configureHTTPServerPipeline(
                    withPipeliningAssistance: false, withErrorHandling: false, withEncoderConfiguration: .init(),
                    withDecoderLimitConfiguration: limits
                ).flatMapThrowing {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHandler(
                        HTTPConnectionHandler(
                            responder: self.responder, configuration: configuration, limits: self.limits,
                            logger: self.logger, connectionID: connectionID, draining: self.draining))
                }
            }
        let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        state.withLockedValue { $0.channel = channel }
        guard let address = channel.localAddress else { throw HTTPServerError.noLocalAddress }
        return address
    }

    /// How many client connections are open right now.
    public var openConnectionCount: Int {
        state.withLockedValue { $0.connections.count }
    }

    /// Stops accepting, lets requests in flight finish (up to the grace period), closes idle
    /// connections at once and busy ones right after their response, then returns.
    public func shutdown() async {
        beginShutdown()
        await waitUntilStopped()
    }

    /// The first half of ``shutdown()``, for callers that cannot wait (a graceful-shutdown or
    /// cancellation handler): stops accepting and asks every connection to finish its request
    /// and close. Only the first call does anything.
    public func beginShutdown() {
        let eventLoop = group.any()
        let begun = state.withLockedValue { state -> (listener: (any Channel)?, connections: [any Channel])? in
            guard !state.isShuttingDown else { return nil }
            state.isShuttingDown = true
            let connections = Array(state.connections.values)
            state.drained = EventLoopFuture.andAllComplete(connections.map(\.closeFuture), on: eventLoop)
            return (state.channel, connections)
        }
        guard let (listener, connections) = begun else { return }
        listener?.close(promise: nil)
        for connection in connections {
            connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        let forceClose = eventLoop.scheduleTask(in: configuration.shutdownGracePeriod) {
            for connection in connections { connection.close(promise: nil) }
        }
        state.withLockedValue { $0.drained }?.whenComplete { _ in forceClose.cancel() }
    }

    /// Suspends until the server has stopped: its listener closed and, after ``beginShutdown()``,
    /// every connection that was open then. Returns at once if it never started.
    public func waitUntilStopped() async {
        guard let listener = state.withLockedValue({ $0.channel }) else { return }
        try? await listener.closeFuture.get()
        try? await state.withLockedValue { $0.drained }?.get()
    }

    /// Counts a new connection and gives it an id; `nil` when it must be closed at once (the
    /// server is shutting down, or a connection cap is reached).
    private func register(_ channel: any Channel) -> Int? {
        // Behind a trusted proxy every connection is the proxy's: its requests are counted per
        // forwarded client instead (``HTTPConnectionHandler``).
        let client =
            configuration.trustProxy ? nil : channel.remoteAddress?.ipAddress.map { ClientAddress(text: $0).group }
        if let refusal = limits.admitConnection(client: client) {
            logger.debug("Refused connection", metadata: ["reason": "\(refusal.rawValue)"])
            configuration.onConnectionRefused?(refusal)
            return nil
        }
        let id = ObjectIdentifier(channel)
        let connectionID = state.withLockedValue { state -> Int? in
            state.nextConnectionID += 1
            if state.isShuttingDown { return nil }
            state.connections[id] = channel
            return state.nextConnectionID
        }
        channel.closeFuture.whenComplete { [state, limits] _ in
            limits.releaseConnection(client: client)
            _ = state.withLockedValue { $0.connections.removeValue(forKey: id) }
        }
        return connectionID
    }
}

/// Why the server could not start.
public enum HTTPServerError: Error {
    /// The socket bound but reported no address.
    case noLocalAddress
}
