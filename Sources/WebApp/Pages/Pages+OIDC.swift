import AuthCore
import Foundation
import HTTPLite
import OIDCCore

extension Pages {
    /// "Grafana wants your phone number": what the app gets, Allow and Don't allow.
    /// - Parameter phone: the signed-in number, said on the page with "Not you?".
    func consent(csrf: String, client: OIDCClient, scopes: [Scope], request: String, phone: PhoneNumber) throws
        -> Response
    {
        try page(
            "consent",
            [
                "csrf": csrf, "request": request, "pageAddress": "/oidc/consent?" + request,
                "title": words(
                    scopes.contains(.phone) ? "oidc.consent.title" : "oidc.consent.titleSignIn", ["app": client.name]),
                "wantsPhone": scopes.contains(.phone), "staysSignedIn": scopes.contains(.offlineAccess),
                "appName": client.name, "phone": phone.nationalFormat,
            ], answering: nil)
    }
}
