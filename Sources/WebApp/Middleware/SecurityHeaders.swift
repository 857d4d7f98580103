import Crypto
import Foundation
import HTTPLite
import HTTPTypes

/// Headers every response carries: a strict Content-Security-Policy (no inline style, and no
/// inline script but the layout's fixed ones, allowed by their hashes), no MIME sniffing, no
/// cross-site referrers, no framing, and HSTS over HTTPS; scripts and style sheets only the two
/// of these that apply to them (``subresourceHeaders``).
struct SecurityHeaders: Middleware {
    typealias Context = AppContext
    /// The headers themselves, made once; the server adds them to the answers it gives before
    /// any middleware runs too (``HTTPLite/ServerConfiguration/refusalHeaders``).
    let headers: HTTPFields
    /// The two of them a script or a style sheet keeps (``subresourceHeaders``), picked once.
    private let subresource: HTTPFields
    private let formTargets: [String]
    private let assetOrigin: String?
    private let scriptHashes: [String]

    /// A page whose form may end in a redirect to an app known only at run time (one added in
    /// the console) names that app's origins here (``Response/allowingForms(to:)``); this
    /// middleware takes the field out and adds them to that page's `form-action`.
    static let extraFormTargets = HTTPField.Name("x-phonelogin-form-action")!

    /// - Parameter formTargets: origins besides this one that a form's answer may redirect to
    ///   (gateway mode: the protected apps, where signing in sends people back; browsers apply
    ///   `form-action` to a form's redirects too).
    /// - Parameter assetOrigin: another origin whose scripts, styles and images pages may use
    ///   (gateway mode: this app's public address, for the 403 page the proxy shows on a
    ///   protected host).
    /// - Parameter inlineScripts: the templates' inline scripts (``HTMLRender/PageRenderer/inlineScripts``),
    ///   allowed by their SHA-256 and nothing else inline.
    init(https: Bool, formTargets: [String] = [], assetOrigin: String? = nil, inlineScripts: [String] = []) {
        let scriptHashes = inlineScripts.map(Self.hashSource)
        var headers: HTTPFields = [
            .contentSecurityPolicy: Self.contentSecurityPolicy(
                formTargets: formTargets, assetOrigin: assetOrigin, scriptHashes: scriptHashes),
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "same-origin", .xFrameOptions: "DENY",
        ]
        if https { headers.append(HTTPField(name: .strictTransportSecurity, value: "max-age=31536000; includeSubDomains")) }
        self.headers = headers
        self.formTargets = formTargets
        self.assetOrigin = assetOrigin
        self.scriptHashes = scriptHashes
        self.subresource = HTTPFields(headers.filter { Self.subresourceHeaders.contains($0.name) })
    }

    static func contentSecurityPolicy(
        formTargets: [String] = [], assetOrigin: String? = nil, scriptHashes: [String] = []
    ) -> String {
        let other = assetOrigin.map { " " + $0 } ?? ""
        let hashes = scriptHashes.map { " " + $0 }.joined()
        return "default-src 'self'; script-src 'self'\(other)\(hashes); style-src 'self'\(other); img-src 'self' data:\(other); "
            + "frame-ancestors 'none'; form-action \((["'self'"] + formTargets).joined(separator: " ")); base-uri 'none'"
    }

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if let extra = response.headers[Self.extraFormTargets] {
            response.headers[Self.extraFormTargets] = nil
            var headers = headers
            headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(
                formTargets: formTargets + extra.split(separator: " ").map(String.init), assetOrigin: assetOrigin,
                scriptHashes: scriptHashes)
            response.headers.append(contentsOf: headers)
            return response
        }
        // Appended, not set one by one (each set scans the fields): no handler sets these,
        // this middleware alone does, once (SecurityHeadersTests checks each arrives once).
        response.headers.append(contentsOf: Self.isSubresource(response) ? subresource : headers)
        return response
    }

    /// A CSP source allowing the inline script `text` by its hash: `'sha256-…'` (base64 of the
    /// SHA-256 of its UTF-8 bytes, as CSP Level 3 §8.4 compares).
    static func hashSource(_ text: String) -> String {
        "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
    }

    /// What a script or a style sheet keeps: no sniffing (it must not be run as another type)
    /// and HSTS. A Content-Security-Policy, `X-Frame-Options` and `Referrer-Policy` govern the
    /// document they arrive with, so on these they do nothing but cost a phone about 240 bytes
    /// per file on its first visit.
    static let subresourceHeaders: Set<HTTPField.Name> = [.xContentTypeOptions, .strictTransportSecurity]

    /// Whether `response` is a script or a style sheet (images keep everything: an SVG opened
    /// on its own is a document).
    static func isSubresource(_ response: Response) -> Bool {
        guard let type = response.headers.first(where: { $0.name == .contentType })?.value else { return false }
        return type.hasPrefix("text/css") || type.hasPrefix("text/javascript")
    }
}
