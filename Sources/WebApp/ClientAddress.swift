import HTTPLite

/// The address a request came from, for per-client limits and logs.
///
/// Behind a reverse proxy every connection comes from the proxy, so with `trustProxy` the
/// last `X-Forwarded-For` entry (the one our proxy appended) is used. Without it the header is
/// ignored: any client can send one.
struct ClientAddress: Sendable {
    let trustProxy: Bool

    func of(_ request: Request) -> String? {
        if trustProxy,
            let forwarded = request.headers["X-Forwarded-For"].last?.split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces),
            !forwarded.isEmpty, forwarded.count <= 64
        {
            return forwarded
        }
        return request.remoteAddress?.ipAddress
    }
}
