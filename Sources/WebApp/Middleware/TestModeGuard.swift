import HTTPLite
import HTTPTypes
import NIOCore
import Wording

/// In SMS test mode every code is 123456, so whoever reaches the app can sign in as anyone:
/// only this machine may use it. A request from a peer that is not a loopback address, or one
/// that came through a proxy (which would make a remote visitor look local), gets 403 before
/// any page, API call or static file answers.
///
/// The command already refuses test mode off loopback and with `--trust-proxy` or `--https`;
/// this is the second lock, for a loopback listener that something forwards to anyway (an SSH
/// tunnel, a container port mapping, a proxy someone put in front).
struct TestModeGuard: Middleware {
    typealias Context = AppContext

    /// Headers a proxy adds; their presence means the request did not start on this machine.
    static let proxyHeaders: [HTTPField.Name] = [.forwarded, .xForwardedFor, .xRealIP]
    static let refusal = StatusError(
        .forbidden, Phrase("http.testMode"),
        message:
            "This server runs in SMS test mode (every code is 123456) and answers only this machine, not requests through a proxy."
    )

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        guard Self.isLocal(request) else {
            context.logger.notice(
                "Refused a request in SMS test mode: not from this machine",
                metadata: ["peer": "\(request.remoteAddress?.ipAddress ?? "unknown")"])
            throw Self.refusal
        }
        return try await next(request, context)
    }

    /// Whether `request` came straight from a loopback peer, through no proxy.
    static func isLocal(_ request: Request) -> Bool {
        guard !proxyHeaders.contains(where: { request.headers[$0] != nil }) else { return false }
        return isLoopback(request.remoteAddress)
    }

    /// 127.0.0.0/8, `::1` and IPv4-mapped `::ffff:127.x.x.x`; an unknown peer is not loopback.
    /// Read from the address's bytes: this runs on every request in test mode.
    static func isLoopback(_ peer: SocketAddress?) -> Bool {
        switch peer {
        case .v4(let address):
            return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            return withUnsafeBytes(of: address.address.sin6_addr) { bytes in
                let zeroPrefix = bytes[0..<10].allSatisfy { $0 == 0 }
                if zeroPrefix && bytes[10] == 0 && bytes[11] == 0 {
                    return bytes[12..<15].allSatisfy { $0 == 0 } && bytes[15] == 1  // ::1
                }
                return zeroPrefix && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127  // ::ffff:127.x.x.x
            }
        default:
            return false
        }
    }
}
