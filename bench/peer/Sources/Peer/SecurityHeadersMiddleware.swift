import HTTPTypes
import Hummingbird

/// The headers Phone Login puts on every answer (a strict Content-Security-Policy, no MIME
/// sniffing, no cross-site referrers, no framing), added like Hummingbird's own
/// `ContentSecurityMiddleware` adds its headers.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let headers: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        response.headers.append(contentsOf: headers)
        return response
    }
}
