/// The request a reverse proxy is asking about, rebuilt from the headers it sends with its
/// check (`X-Forwarded-Proto`, `X-Forwarded-Host`, `X-Forwarded-Uri`): the protected app's
/// host, and the address to come back to after signing in.
///
/// The check endpoints exist for the proxy and always read these headers; a host outside the
/// gateway domain (or none, or several) is refused, so a misconfigured proxy fails closed.
public struct ForwardedRequest: Sendable, Equatable {
    /// The protected app's host.
    public let host: HostName
    /// The original address, as the proxy described it, when it is a safe return address.
    public let returnAddress: ReturnAddress?

    /// Why the proxy's description was refused.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// No `X-Forwarded-Host`, or one that is not a single host name.
        case noHost
        /// A host outside the gateway domain.
        case outsideDomain(HostName)

        public var description: String {
            switch self {
            case .noHost:
                "The proxy sent no single X-Forwarded-Host: set it to the protected app's host (see docs/GATEWAY.md)."
            case .outsideDomain(let host):
                "The protected host \(host.name) is outside the gateway domain."
            }
        }
    }

    /// - Parameters:
    ///   - proto: `X-Forwarded-Proto` (`https` when absent or unknown and `allowHTTP` is false).
    ///   - host: `X-Forwarded-Host`.
    ///   - uri: `X-Forwarded-Uri`, the path and query (`/` when absent).
    public init(
        proto: String?, host: String?, uri: String?, domain: GatewayDomain, allowHTTP: Bool
    ) throws(Refusal) {
        guard let text = host, !text.contains(","), let parsed = HostName(authority: text.trimmingSpaces) else {
            throw .noHost
        }
        guard domain.contains(parsed) else { throw .outsideDomain(parsed) }
        self.host = parsed
        let scheme = proto?.trimmingSpaces.lowercased() == "http" && allowHTTP ? "http" : "https"
        var path = uri?.trimmingSpaces ?? "/"
        if !path.hasPrefix("/") || path.hasPrefix("//") { path = "/" }
        self.returnAddress = ReturnAddress("\(scheme)://\(parsed)\(path)", domain: domain, allowHTTP: allowHTTP)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (header values' optional whitespace).
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
