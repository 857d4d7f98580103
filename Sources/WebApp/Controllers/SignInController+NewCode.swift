import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import Wording

/// Verify's "Text me a new code" and "Call me with the code instead": a new code, then Verify
/// with a notice; refused, Verify says why (and a double tap answers as the first tap did).
extension SignInController {
    @Sendable func resend(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        try await newCode(by: .sms, request, context)
    }

    /// "Call me with the code instead": a new code, read out on a call.
    @Sendable func call(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        try await newCode(by: .voice, request, context)
    }

    /// A new code by text or call, then Verify with the notice; refused, Verify says why.
    func newCode(by channel: DeliveryChannel, _ request: Request, _ context: PendingSignInContext)
        async throws -> Response
    {
        let (token, phone) = (context.session, context.phone)
        do {
            _ = try await signIn.resendCode(
                session: token, client: request.client?.group, userAgent: request.headers[.userAgent], channel: channel,
                language: context.language)
            return notice(channel == .voice ? .called : .resent)
        } catch SignInError.noPendingSignIn {
            return Redirect.toLoginExpired(secure: cookie.secure).response
        } catch let error as SignInError {
            let status = try await signIn.codeStatus(for: phone)
            if status.isStillOnItsWay(after: error, by: channel) { return notice(channel == .voice ? .called : .onItsWay) }
            // Refused a new code while the one already sent still works: say so, so the
            // person types that one instead of waiting.
            let usable = status.triesLeft.map { $0 > 0 } ?? false
            let words = pages.in(context.language).words
            let notice: String? =
                usable ? status.expiresIn.map { Self.stillWorks(seconds: $0, words) } : nil
            return try pages.in(context.language).verify(
                csrf: context.csrfToken, phone: phone, resendWait: max(status.resendWait, error.retryAfter ?? 0),
                codeLifetime: signIn.policy.codeLifetime, notice: notice,
                delivery: delivery(status, phone, context.language),
                error: error, signingInTo: try await landing.oidcClientName(in: request))
        }
    }

    /// What Verify says after a new code was asked for, carried to it in a short-lived cookie.
    enum Notice: String {
        /// A new code was sent.
        case resent
        /// We are calling with the code.
        case called
        /// The text already sent is on its way (a second tap sent nothing).
        case onItsWay

        /// The sentence, in the catalog `words`, for `phone`.
        func sentence(_ words: Catalog, phone: PhoneNumber) -> String {
            let key =
                switch self {
                case .resent: "verify.notice.resent"
                case .called: "verify.notice.called"
                case .onItsWay: "verify.notice.onItsWay"
                }
            return words(key, ["phone": phone.nationalFormat])
        }
    }

    /// Verify, with `notice`.
    func notice(_ notice: Notice) -> Response {
        var response = Response.redirect(to: "/verify")
        response.setCookie(
            Cookie(name: Self.noticeCookie, value: notice.rawValue, path: "/verify", maxAge: 60, secure: cookie.secure))
        return response
    }

    /// "Enter the code we already sent. It expires in 7 minutes." (rounded up, like the limits).
    static func stillWorks(seconds: Int, _ words: Catalog) -> String {
        words("verify.stillWorks", ["expiry": expiry(seconds: seconds, words)])
    }

    /// "It expires in 7 minutes." (rounded up, like the limits).
    static func expiry(seconds: Int, _ words: Catalog) -> String {
        words.plural("verify.itExpiresIn", count: max(1, (seconds + 59) / 60))
    }

    /// Reload or Back on the page a refused resend answered (the browser asks for its address
    /// with GET): Verify as it stands now, never a 405.
    @Sendable func reloadResend(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        .redirect(to: "/verify")
    }
}
