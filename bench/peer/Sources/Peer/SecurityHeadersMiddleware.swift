import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The headers Phone Login puts on every answer (a strict Content-Security-Policy, no MIME
/// sniffing, no cross-site referrers, no framing), added like Hummingbird's own
/// `ContentSecurityMiddleware` adds its headers.
/// The layout's inline script is allowed by its hash, as Phone Login allows it.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let headers: HTTPFields

    init(templates: String) throws {
        let layout = try String(contentsOfFile: templates + "/layout.mustache", encoding: .utf8)
        let hashes = layout.components(separatedBy: "<script>").dropFirst().compactMap {
            $0.components(separatedBy: "</script>").first
        }.map { " 'sha256-" + Data(SHA256.hash(data: Data($0.utf8))).base64EncodedString() + "'" }.joined()
        headers = [
            .contentSecurityPolicy:
                "default-src 'self'; script-src 'self'\(hashes); style-src 'self'; img-src 'self' data:; "
                + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "same-origin",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        response.headers.append(contentsOf: headers)
        return response
    }
}
