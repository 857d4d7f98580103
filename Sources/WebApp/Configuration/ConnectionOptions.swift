import ArgumentParser
import HTTPLite
import NIOCore

/// The `webapp` options that bound what clients may hold open: connections in total and per
/// client, how long an idle one is kept, the second port for probes and metrics, and how a
/// shutdown (SIGTERM) drains.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .customLong("max-connections"),
        help: "Most connections open at once; more are closed at once (the file limit is raised to fit).")
    var maxConnections = ServerConfiguration().maxConnections

    @Option(
        name: .customLong("max-connections-per-client"),
        help: """
            Most connections open at once from one client (an IPv4 address or an IPv6 /64); with \
            --trust-proxy, most requests in progress for one forwarded client.
            """)
    var maxConnectionsPerClient = ServerConfiguration().maxConnectionsPerClient

    @Option(
        name: .customLong("idle-timeout"), help: "Seconds a connection may wait between requests before it is closed.")
    var idleTimeout = 15

    @Option(
        name: .customLong("ops-port"),
        help: """
            Serve /healthz, /readyz and /metrics on this port (same --host) instead of the main one; \
            0 picks a free port.
            """)
    var opsPort: Int?

    @Option(
        name: .customLong("shutdown-delay"),
        help: """
            Seconds between SIGTERM and closing the listener, during which /readyz answers 503 \
            (so a load balancer stops sending) while every request is still served, each answer \
            closing its connection.
            """)
    var shutdownDelay = 0

    @Option(
        name: .customLong("shutdown-grace"),
        help: "Seconds the requests in flight get to finish once the listener is closed; then they are cut.")
    var shutdownGrace = 10

    /// The option names that may also come from `WEBAPP_*` variables.
    static let names = [
        "max-connections", "max-connections-per-client", "idle-timeout", "ops-port", "shutdown-delay", "shutdown-grace",
    ]

    func validate() throws {
        guard maxConnections >= 1, maxConnectionsPerClient >= 1 else {
            throw ValidationError("--max-connections and --max-connections-per-client must be at least 1.")
        }
        guard (1...3600).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be 1 to 3600 seconds.")
        }
        if let opsPort, !(0...65535).contains(opsPort) {
            throw ValidationError("--ops-port must be between 0 and 65535.")
        }
        guard (0...300).contains(shutdownDelay), (1...600).contains(shutdownGrace) else {
            throw ValidationError("--shutdown-delay must be 0 to 300 seconds, --shutdown-grace 1 to 600.")
        }
    }

    /// These options applied to the server's configuration.
    func apply(to server: inout ServerConfiguration) {
        server.maxConnections = maxConnections
        server.maxConnectionsPerClient = maxConnectionsPerClient
        server.idleTimeout = .seconds(Int64(idleTimeout))
        server.shutdownGracePeriod = .seconds(Int64(shutdownGrace))
    }
}
