import Synchronization

/// A server about to stop (``HTTPServer/draining``): still accepting and answering, but
/// every answer closes its connection, and the app's readiness probe says it is going, so a load
/// balancer sends the next requests elsewhere before the listener closes. Shared by the servers
/// of one process and whoever answers the probe.
public final class Draining: Sendable {
    private let on = Atomic<Bool>(false)

    public init() {}

    /// Whether draining has begun.
    public var isOn: Bool { on.load(ordering: .relaxed) }

    /// Begins draining; it never ends (the process is stopping).
    public func begin() { on.store(true, ordering: .relaxed) }
}
