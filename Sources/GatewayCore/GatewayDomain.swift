/// The apps Phone Login signs people in to: one domain and its subdomains (`--gateway-domain
/// example.com` covers `example.com`, `wiki.example.com`, `a.b.example.com`, and not
/// `badexample.com` or `example.com.evil.test`).
///
/// The session cookie is set for this domain, so every protected app's requests carry it to
/// the proxy's check; return addresses and forwarded hosts outside it are refused.
public struct GatewayDomain: Sendable, Equatable, CustomStringConvertible {
    /// The domain in lower case.
    public let name: String

    /// Why a domain was refused.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// `text` as a domain: a host name of at least two labels (a cookie cannot be set for a
    /// top-level domain alone).
    public init(_ text: String) throws(Invalid) {
        guard let name = HostName.validName(text), !text.contains(":") else {
            throw Invalid(description: "The gateway domain \"\(text)\" is not a host name (like example.com).")
        }
        guard name.contains(".") else {
            throw Invalid(
                description:
                    "The gateway domain \"\(text)\" has one label only: give a domain of your own, like example.com.")
        }
        self.name = name
    }

    /// Whether `host` is this domain or one of its subdomains.
    public func contains(_ host: HostName) -> Bool {
        host.name == name || host.name.hasSuffix("." + name)
    }

    public var description: String { name }
}
