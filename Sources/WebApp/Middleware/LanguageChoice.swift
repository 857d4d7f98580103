import Foundation
import HTTPLite
import HTTPTypes
import Wording

/// Which language a page is in (issue 29): the one the person chose with the link every page
/// carries ("Español" / "English", remembered in the `lang` cookie for a year), else the one
/// their browser's `Accept-Language` prefers, else English.
///
/// The link is `?lang=es` on the page's own address: this middleware remembers the choice and
/// sends the browser back to the same address without it (303), so the person stays on the
/// same page and step, and a pending sign-in is not touched. Only GET and HEAD switch; the
/// choice changes nothing but words, so it needs no CSRF token.
struct LanguageChoice: Middleware {
    typealias Context = AppContext

    static let cookieName = "lang"
    static let maxAge = 365 * 86_400
    let secure: Bool
    /// The JSON API: `Accept-Language` only (its clients keep no cookies of ours).
    var headerOnly = false

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        // Static files are the same in every language (and cached for a year).
        if request.path.hasPrefix("/public/") { return try await next(request, context) }
        var context = context
        if !headerOnly, request.method == .get || request.method == .head, request.rawQuery.contains("lang=") {
            let query = request.query
            if let asked = query["lang"], let language = Language(rawValue: asked) {
                var response = Response.redirect(to: Self.address(request.path, keeping: query))
                response.setCookie(
                    Cookie(name: Self.cookieName, value: language.code, maxAge: Self.maxAge, secure: secure))
                return response
            }
        }
        context.language =
            (headerOnly ? nil : request.cookie(Self.cookieName).flatMap(Language.init(rawValue:)))
            ?? Language.preferred(by: request.headers[.acceptLanguage])
        var response = try await next(request, context)
        response.headers[.contentLanguage] = context.language.code
        // The same address answers in another language for another header (or cookie).
        response.headers.append(HTTPField(name: .vary, value: headerOnly ? "Accept-Language" : "Accept-Language, Cookie"))
        return response
    }

    /// `path` with the query's other parameters (Login's `rd=`, say), `lang` left out. The path is
    /// this server's own (it starts with one `/`), so the redirect cannot leave the site.
    static func address(_ path: String, keeping query: URLEncodedForm) -> String {
        // One leading slash, then nothing a browser could read as another host (`/\evil`) or
        // another header: backslashes and control characters send the person to `/`.
        let clean =
            path.hasPrefix("/") && !path.hasPrefix("//")
            && !path.unicodeScalars.contains { $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
        let safePath = clean ? path : "/"
        let kept = query.removing("lang")
        return kept.pairs.isEmpty ? safePath : safePath + "?" + kept.encoded
    }
}
