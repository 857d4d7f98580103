import Foundation
import HTTPTypes
import NIOCore

/// Who sent a request, as far as the server can tell, and the group every per-client limit
/// counts it in.
///
/// Behind a reverse proxy every connection comes from the proxy, so with
/// ``ServerConfiguration/trustProxy`` the last `X-Forwarded-For` entry (the one our proxy
/// appended) is the client. Without it the header is ignored: any client can send one.
///
/// Limits count by ``group``: an IPv4 address is one client, but an IPv6 client holds a whole
/// /64 (2^64 addresses, one subscriber's network), so counting exact IPv6 addresses would let
/// one person rotate past every limit.
public struct ClientAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as text (`203.0.113.7`, `2001:db8::1`).
    public let address: String
    /// The key per-client limits count by: the IPv4 address, or the IPv6 /64 (`2001:db8:0:0::/64`).
    public let group: String

    /// The client of a request with these headers from this peer.
    public init?(peer: SocketAddress?, headers: HTTPFields, trustProxy: Bool) {
        self.init(peer: peer, forwardedFor: trustProxy ? headers[values: .xForwardedFor] : [])
    }

    /// The client of a request from this peer whose `X-Forwarded-For` fields (behind a trusted
    /// proxy; none otherwise) are `forwardedFor`.
    init?(peer: SocketAddress?, forwardedFor: [String]) {
        if let forwarded = Self.forwardedFor(forwardedFor) {
            self.init(text: forwarded)
        } else if let text = peer?.ipAddress {
            self.init(text: text)
        } else {
            return nil
        }
    }

    /// A client known by its address text; anything that is not an IP address (a proxy that sent
    /// garbage) is its own group, kept short.
    public init(text: String) {
        address = text
        group = Self.group(of: text)
    }

    public var description: String { address }

    /// The last `X-Forwarded-For` entry when it is an IP address (a port after it, as some
    /// proxies add, is dropped), in its canonical text. Anything else (garbage, `unknown`, an
    /// address in another notation) is `nil`, so the request counts as the proxy's own: a value
    /// that is not an address must not make a new client for every request. `values` are the
    /// fields' values in order. The entry is trimmed of the spaces and tabs a
    /// list may have around its commas (HTTP's optional whitespace), without Foundation: its
    /// `trimmingCharacters` was 28 µs of a sign-in's two requests.
    static func forwardedFor(_ values: [String]) -> String? {
        guard let entry = values.last?.split(separator: ",").last else { return nil }
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        var address = entry.drop(while: isSpace)
        while let end = address.last, isSpace(end) { address = address.dropLast() }
        guard !address.isEmpty, address.utf8.count <= 64 else { return nil }
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            address = address[address.index(after: address.startIndex)..<close]  // [2001:db8::1]:443
        } else if address.filter({ $0 == ":" }).count == 1, let colon = address.firstIndex(of: ":") {
            address = address[..<colon]  // 198.51.100.7:443
        }
        guard let parsed = try? SocketAddress(ipAddress: String(address), port: 0) else { return nil }
        return parsed.ipAddress
    }

    /// IPv4 as is; IPv6 by its first 64 bits; an IPv4-mapped IPv6 address as its IPv4 address.
    static func group(of text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: ":")) else { return text }
        let bare = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        guard let parsed = try? SocketAddress(ipAddress: bare, port: 0), case .v6(let v6) = parsed else {
            return text
        }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        let isMappedIPv4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        if isMappedIPv4 { return bytes[12..<16].map { String($0) }.joined(separator: ".") }
        let hextets = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return hextets.joined(separator: ":") + "::/64"
    }
}
