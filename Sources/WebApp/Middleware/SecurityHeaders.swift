import HTTPLite

/// Headers every response carries: a strict Content-Security-Policy (no inline script or
/// style), no MIME sniffing, no cross-site referrers, no framing, and HSTS over HTTPS.
struct SecurityHeaders: Middleware {
    typealias Context = AppContext
    let https: Bool

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: Self.contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        if https {
            response.headers.replaceOrAdd(
                name: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains")
        }
        return response
    }
}
