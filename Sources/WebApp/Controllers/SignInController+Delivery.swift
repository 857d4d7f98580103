import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

/// "Didn't get a code?": what the pages say of the last code's delivery, and `delivery.js`'s
/// JSON of it.
extension SignInController {
    /// "Didn't get a code?": what we know of the last text or call, and what to do next.
    @Sendable func showHelp(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        let status = try await signIn.codeStatus(for: context.phone)
        return try pages.in(context.language).verifyHelp(
            csrf: context.csrfToken, phone: context.phone, status: status,
            delivery: delivery(status, context.phone, context.language))
    }

    /// The last code's delivery as `delivery.js` asks for it: JSON, never cached.
    @Sendable func deliveryStatus(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        let status = try await signIn.codeStatus(for: context.phone)
        var response = try Response.json(delivery(status, context.phone, context.language).reply)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// What the pages say and do about the last code's delivery; a locked number is offered no
    /// call (it would be refused).
    func delivery(_ status: SignInService.CodeStatus, _ phone: PhoneNumber, _ language: Language)
        -> Pages.DeliveryView
    {
        Pages.DeliveryView(
            status.delivery, phone: phone, offersCall: signIn.offersCalls(to: phone) && status.lockedFor == nil,
            reported: deliveriesReported, words: pages.in(language).words)
    }
}
