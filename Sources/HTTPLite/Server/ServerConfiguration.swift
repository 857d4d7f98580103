import HTTPTypes
import NIOCore

/// Where the server listens and the limits it enforces on every connection.
public struct ServerConfiguration: Sendable {
    /// Host to bind, e.g. `127.0.0.1`.
    public var host: String
    /// Port to bind; `0` lets the system pick a free one (``HTTPServer/start()`` returns the bound address).
    public var port: Int
    /// Largest request body accepted; a bigger one gets 413.
    public var maxBodySize: Int
    /// Longest request target (path and query) accepted; a longer one gets 414.
    public var maxURILength: Int
    /// Largest single header field (name and value); the request line counts as one field.
    /// A bigger one gets 431.
    public var maxHeaderFieldSize: Int
    /// Largest total of all header fields; more gets 431.
    public var maxHeaderListSize: Int
    /// Most header fields in one request; more gets 431.
    public var maxHeaderFieldCount: Int
    /// How long a connection may take to deliver its next complete request, counted from when
    /// it opened or its last answer was written: a slow client trickling bytes is closed after
    /// this (with 408 once its request head has arrived). It is also how long an answer may take
    /// to drain to a client that does not read it.
    public var requestTimeout: TimeAmount
    /// How long a connection may wait with no request begun (a kept-alive connection between
    /// requests, or a new one) before it is closed; at most ``requestTimeout``.
    public var idleTimeout: TimeAmount
    /// Most connections open at once; a new one past it is closed at once.
    public var maxConnections: Int
    /// Most connections open at once from one client (its ``ClientAddress/group``); behind a
    /// trusted proxy, most requests in progress for one forwarded client (past it: 503).
    public var maxConnectionsPerClient: Int
    /// Most requests a connection may send ahead of their answers (HTTP/1.1 pipelining); one
    /// more closes the connection. Browsers never pipeline; the bound keeps a client that
    /// pipelines and never reads from making the server hold its requests.
    public var maxPipelinedRequests = 16
    /// The server is behind a reverse proxy that appends the client's address to
    /// `X-Forwarded-For`: the client of a request is that address, not the proxy's.
    public var trustProxy = false
    /// How long a graceful shutdown waits for requests in flight before closing their connections.
    public var shutdownGracePeriod: TimeAmount
    /// Pending-connection queue length (the kernel caps it at `net.core.somaxconn`): a burst of
    /// new connections, such as a thousand opened at once, waits here instead of being dropped
    /// (a dropped SYN costs its client a second or more before it tries again).
    public var backlog: Int32
    /// Headers added to the answers the server gives by itself, before any responder sees the
    /// request (400, 408, 413, 414, 431): the app's security headers, so no answer goes out
    /// without them.
    public var refusalHeaders: HTTPFields = [:]
    /// Told of each such answer, with its status (the app counts them in its metrics).
    public var onRefusal: (@Sendable (HTTPResponse.Status) -> Void)?
    /// Told of each connection closed at once because a cap was reached (the app counts them).
    public var onConnectionRefused: (@Sendable (ConnectionRefusal) -> Void)?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxBodySize: Int = 64 * 1024, maxURILength: Int = 8 * 1024,
        maxHeaderFieldSize: Int = 16 * 1024, maxHeaderListSize: Int = 32 * 1024, maxHeaderFieldCount: Int = 100,
        requestTimeout: TimeAmount = .seconds(30), idleTimeout: TimeAmount = .seconds(15),
        maxConnections: Int = 10_000, maxConnectionsPerClient: Int = 64,
        shutdownGracePeriod: TimeAmount = .seconds(10), backlog: Int32 = 1024
    ) {
        self.host = host
        self.port = port
        self.maxBodySize = maxBodySize
        self.maxURILength = maxURILength
        self.maxHeaderFieldSize = maxHeaderFieldSize
        self.maxHeaderListSize = maxHeaderListSize
        self.maxHeaderFieldCount = maxHeaderFieldCount
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.shutdownGracePeriod = shutdownGracePeriod
        self.backlog = backlog
    }
}
