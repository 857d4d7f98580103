import AuthCore
import HTTPLite

extension Pages {
    /// Gateway mode's 403: who is signed in, which app refused them, and the way to use another
    /// number (`signOut`, this app's sign-out page).
    /// - Parameter publicURL: this app's address: the proxy shows the page on the protected app's
    ///   host, where `/public/…` would ask that app (and be refused) for the style sheet.
    func notAllowed(phone: PhoneNumber, host: String, signOut: String, publicURL: String) throws -> Response {
        var response = try page(
            "not-allowed", ["phone": phone.nationalFormat, "host": host, "signOut": signOut], answering: nil,
            assetOrigin: publicURL)
        response.status = .forbidden
        // The number beside a host the request named: no compression to measure (BREACH).
        response.keepUncompressed()
        return response
    }

    /// `GET /logout`: the one-button page a protected app links to (a GET never signs anyone
    /// out: a link or an image on another site could).
    /// - Parameter domain: the gateway domain, whose apps all sign out with it.
    func logout(csrf: String, user: User, domain: String?) throws -> Response {
        try page(
            "logout",
            [
                "csrf": csrf, "phone": user.phone.nationalFormat, "gateway": domain != nil, "domain": domain ?? "",
                "pageAddress": "/logout",
            ],
            answering: nil)
    }
}
