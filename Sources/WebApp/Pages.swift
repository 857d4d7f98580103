import AuthCore
import HTMLRender
import HTTPLite
import NIOHTTP1

/// The app's pages: one method per template, taking typed values, returning a response with
/// `Cache-Control: no-store` (every page depends on the session, so the back button must not
/// show a stale one).
struct Pages: Sendable {
    static let templateNames = ["layout", "login", "verify", "home", "error"]
    let renderer: PageRenderer

    /// Longest typed phone text echoed back into the form.
    private static let maxEchoedInput = 64

    /// - Parameter remembered: `phone` is the number that last signed in on this browser
    ///   (the page offers "Not you?").
    func login(
        csrf: String, phone: String = "", remembered: Bool = false, error: String? = nil,
        status: HTTPResponseStatus = .ok
    ) throws -> Response {
        try page(
            "login",
            [
                "csrf": csrf, "phone": String(phone.prefix(Self.maxEchoedInput)), "remembered": remembered,
                "error": error ?? "", "hasError": error != nil,
            ], status: status)
    }

    func verify(
        csrf: String, phone: PhoneNumber, resendWait: Int, notice: String? = nil, error: String? = nil,
        status: HTTPResponseStatus = .ok
    ) throws -> Response {
        let digits: [[String: Any]] = (1...6).map { ["index": $0, "first": $0 == 1] }
        return try page(
            "verify",
            [
                "csrf": csrf, "phone": phone.nationalFormat, "digits": digits, "resendWait": resendWait,
                "notice": notice ?? "", "error": error ?? "",
            ], status: status)
    }

    func home(csrf: String, user: User) throws -> Response {
        try page("home", ["csrf": csrf, "phone": user.phone.nationalFormat])
    }

    func error(_ status: HTTPResponseStatus, message: String) throws -> Response {
        try page("error", ["reason": status.reasonPhrase, "message": message], status: status)
    }

    private func page(_ name: String, _ values: [String: Any], status: HTTPResponseStatus = .ok) throws -> Response {
        var response = Response.html(try renderer.render(name, values), status: status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}
