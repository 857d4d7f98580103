import NIOConcurrencyHelpers

/// Why the server closed a connection at once instead of serving it.
public enum ConnectionRefusal: String, Sendable {
    /// The server already holds ``ServerConfiguration/maxConnections``.
    case total
    /// This client (its ``ClientAddress/group``) already holds
    /// ``ServerConfiguration/maxConnectionsPerClient``.
    case perClient = "per_client"
}

/// The open connections, in total and per client group, shared by every connection of a
/// server: one attacker's 400 idle sockets must not use up what everyone else needs.
///
/// Without a trusted proxy a connection is counted per client from its accept to its close.
/// Behind one, every connection comes from the proxy, so each request is counted for the
/// client the proxy names while it is being answered (for a proxy that opens a connection per
/// request, as nginx does by default, that is the same thing).
final class ConnectionLimits: Sendable {
    private let maxTotal: Int
    private let maxPerClient: Int
    private let counts = NIOLockedValueBox(Counts())

    private struct Counts {
        var total = 0
        var perClient: [String: Int] = [:]
    }

    init(maxTotal: Int, maxPerClient: Int) {
        self.maxTotal = maxTotal
        self.maxPerClient = maxPerClient
    }

    /// Counts a new connection (and its client, when given); `nil` when admitted, else why not.
    func admitConnection(client: String?) -> ConnectionRefusal? {
        counts.withLockedValue { counts in
            guard counts.total < maxTotal else { return .total }
            if let client {
                guard counts.perClient[client, default: 0] < maxPerClient else { return .perClient }
                counts.perClient[client, default: 0] += 1
            }
            counts.total += 1
            return nil
        }
    }

    /// Forgets a connection admitted with ``admitConnection(client:)``.
    func releaseConnection(client: String?) {
        counts.withLockedValue { counts in
            counts.total -= 1
            if let client { Self.decrement(&counts.perClient, client) }
        }
    }

    /// Counts one more request in progress for `client` (behind a proxy); false past the cap.
    func admitRequest(client: String) -> Bool {
        counts.withLockedValue { counts in
            guard counts.perClient[client, default: 0] < maxPerClient else { return false }
            counts.perClient[client, default: 0] += 1
            return true
        }
    }

    /// Forgets a request admitted with ``admitRequest(client:)``.
    func releaseRequest(client: String) {
        counts.withLockedValue { Self.decrement(&$0.perClient, client) }
    }

    private static func decrement(_ counts: inout [String: Int], _ client: String) {
        let left = counts[client, default: 1] - 1
        counts[client] = left > 0 ? left : nil
    }
}
