import AccountCore
import AuthCore
import Foundation
import HTTPLite

/// "Is this your account?" (`/claim`): the recycled-number guard's question, after a right code
/// for a number whose account has not seen it sign in with a code for `--dormant-after` days,
/// from a browser that is not one of its remembered phones. Nothing of the account is shown and
/// nobody is signed in until it is answered (``ClaimingContext``: no other page of the account
/// opens, Back included):
/// - **It's mine**: one of the account's recovery codes (or, on Login, one of its passkeys);
/// - **This number is new to me**: a fresh, empty account for the number; the old one is
///   detached from it and kept, frozen, for its owner to reach through "Lost your phone or
///   number?".
struct ClaimController: Sendable {
    let signIn: SignInService
    let recoveryCodes: RecoveryCodes
    let pages: Pages
    let cookie: SessionCookie

    func register(claiming: RouteScope<ClaimingContext>) {
        claiming.get("/claim", use: show)
        claiming.post("/claim/code", use: prove)
        claiming.post("/claim/fresh", use: fresh)
        // Reload or Back on a form's answer asks its address with GET: the question as it stands.
        claiming.get("/claim/code") { _, _ in .redirect(to: "/claim") }
        claiming.get("/claim/fresh") { _, _ in .redirect(to: "/claim") }
    }

    @Sendable func show(_ request: Request, _ context: ClaimingContext) async throws -> Response {
        try await page(context)
    }

    private func page(_ context: ClaimingContext, error: (any AnsweringError)? = nil) async throws -> Response {
        let found = try await signIn.dormancy(of: context.phone)
        // Answered elsewhere meanwhile (proved, or detached): nothing is left to ask, and the
        // page must not describe whichever account holds the number now.
        guard let found, found.user == context.account else {
            return Redirect.toLoginExpired(secure: cookie.secure).response
        }
        return try pages.in(context.language).claim(
            csrf: context.csrfToken, phone: context.phone,
            lastUsed: Date(timeIntervalSince1970: found.numberProvedAt), waysBack: found.waysBack,
            error: error)
    }

    /// "It's mine", with a recovery code of the account: spent, and signed in.
    @Sendable func prove(_ request: Request, _ context: ClaimingContext) async throws -> Response {
        let form = try request.formData()
        let code = String((form["code"] ?? "").prefix(64))
        do {
            let signedIn = try await signIn.claim(
                context.session, phone: context.phone, account: context.account,
                codeDigest: recoveryCodes.digest(of: code), client: request.client?.group,
                userAgent: request.headers[.userAgent])
            var response = Response.redirect(to: "/home")
            response.setCookie(cookie.signedIn(signedIn.session))
            return response
        } catch SignInError.noPendingSignIn {
            return Redirect.toLoginExpired(secure: cookie.secure).response
        } catch RecoveryError.wrongNumberOrCode {
            // No number was typed here: the sentence is about the code alone.
            return try await page(context, error: RecoveryError.notThisAccountsCode)
        } catch let error as RecoveryError {
            return try await page(context, error: error)
        }
    }

    /// "This number is new to me": a fresh account, signed in.
    @Sendable func fresh(_ request: Request, _ context: ClaimingContext) async throws -> Response {
        do {
            let signedIn = try await signIn.startFresh(
                context.session, phone: context.phone, account: context.account, userAgent: request.headers[.userAgent],
                client: request.client?.group)
            var response = Response.redirect(to: "/home")
            response.setCookie(cookie.signedIn(signedIn.session))
            return response
        } catch SignInError.noPendingSignIn, is NumberChangeRace {
            return Redirect.toLoginExpired(secure: cookie.secure).response
        }
    }
}
