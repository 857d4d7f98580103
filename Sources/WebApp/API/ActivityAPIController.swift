import EventsCore
import Foundation
import HTTPLite

/// "Recent activity" in the API: `GET /api/v1/account/activity` (`?before=` the last id of the
/// page before), the same events as the page (``ActivityController``), newest first.
struct ActivityAPIController: Sendable {
    let events: any EventStore
    let clock: @Sendable () -> Date

    func register(signedIn: RouteScope<APIUserContext>) {
        signedIn.get("/account/activity", use: list)
    }

    /// An event as JSON, for the API and for `webapp events` alike.
    struct EventReply: Encodable {
        let id: Int64
        /// The stored type (`session.created`, `code.sent`, …).
        let type: String
        /// ISO 8601, UTC.
        let at: String
        /// Only for the operator (`webapp events`): the person's own API knows whose it is.
        let user_id: Int64?
        /// How a sign-in was proved, why a session ended, a code's channel, a passkey's name.
        let detail: String?
        let phone_number: String?
        /// A code's delivery status, as its provider last said.
        let delivery_status: String?
        let app: String?
        let user_agent: String?
        /// An IPv4 /24 or an IPv6 /48, never more exact.
        let network: String?
        /// Only for the operator (`webapp events`): an operator's action's operator (their number,
        /// or `shell`) and reason.
        let actor: String?
        let reason: String?

        init(_ stored: StoredEvent, withUser: Bool, formatter: ISO8601DateFormatter) {
            let event = stored.event
            id = stored.id
            type = event.type.rawValue
            at = formatter.string(from: Date(timeIntervalSince1970: event.at))
            user_id = withUser ? event.user : nil
            detail = event.detail
            phone_number = event.phone
            delivery_status = stored.status
            app = event.app
            user_agent = event.userAgent
            network = event.network
            actor = withUser ? event.actor : nil
            reason = withUser ? event.reason : nil
        }
    }

    struct ListReply: Encodable {
        let events: [EventReply]
        /// Pass as `before` for the next (older) page; absent on the last.
        let next_before: Int64?
    }

    @Sendable func list(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let (found, _, older) = try await ActivityController.page(
            of: context.user.id, before: request.query["before"], events: events, now: clock())
        let formatter = ISO8601DateFormatter()
        return try APIController.reply(
            ListReply(
                events: found.map { EventReply($0, withUser: false, formatter: formatter) }, next_before: older))
    }
}
