/// Where a person is sent after signing in when a protected app sent them to Login
/// (`/login?rd=…`): an absolute `https` address (or `http` when the app itself is not served
/// over HTTPS) on the gateway domain or one of its subdomains. Everything else is refused, and
/// the person ends on Home instead: this is the open-redirect check.
///
/// The check reads the address the way a browser will, and refuses whatever a browser might
/// read differently: anything but printable ASCII (tabs and newlines, which browsers strip;
/// spaces; Unicode), backslashes (which browsers treat as slashes), user-info (`user@host`),
/// percent-encoding or an IP address in the host, a scheme other than http(s) (`javascript:`),
/// or a missing `//` (`https:/\evil.test`, `https:evil.test`).
public struct ReturnAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address to redirect to: scheme and host in lower case, the rest as given.
    public let url: String
    /// Its host.
    public let host: HostName

    /// Longest address accepted: a redirect target is a link, not a payload.
    public static let maximumLength = 2048

    /// `text` when it is a safe address on `domain`; `allowHTTP` also admits `http` (an app not
    /// served over HTTPS).
    public init?(_ text: some StringProtocol, domain: GatewayDomain, allowHTTP: Bool) {
        guard text.utf8.count <= Self.maximumLength,
            text.utf8.allSatisfy({ (0x21...0x7e).contains($0) && $0 != UInt8(ascii: "\\") })
        else { return nil }
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https"
        } else if allowHTTP, lowered.hasPrefix("http://") {
            scheme = "http"
        } else {
            return nil
        }
        let afterScheme = text.dropFirst(scheme.count + 3)
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard !authority.contains("@"), let host = HostName(authority: authority), domain.contains(host) else {
            return nil
        }
        self.host = host
        self.url = "\(scheme)://\(host)" + afterScheme[authorityEnd...]
    }

    public var description: String { url }
}
