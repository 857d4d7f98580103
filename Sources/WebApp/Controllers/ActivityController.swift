import EventsCore
import Foundation
import HTTPLite
import Wording

/// "Recent activity" (`/account/activity`, linked from Your devices and Your account): what
/// happened on the person's account in the last 90 days, newest first, 30 to a page, older pages
/// by `?before=` the last id shown. Only the signed-in person's own events are ever read (the
/// store reads by their account, whatever the query says).
struct ActivityController: Sendable {
    let events: any EventStore
    let pages: Pages
    let clock: @Sendable () -> Date
    /// An OpenID Connect client's name by its id (nil: no such client configured now).
    var appName: @Sendable (String) async throws -> String? = { _ in nil }

    /// How far back the page and the API look; older events are kept for the operator's export
    /// until the retention ends.
    static let shown: TimeInterval = 90 * 86_400
    static let pageSize = 30

    func register(signedIn: RouteScope<SignedInContext>) {
        signedIn.get("/account/activity", use: show)
    }

    /// A page of `user`'s events before the id `before` (nil: the newest), and the id the next
    /// page starts before, when there is one. A `before` that is not a number is no page: 400.
    static func page(of user: Int64, before: String?, events: any EventStore, now: Date) async throws
        -> (events: [StoredEvent], before: Int64?, olderThan: Int64?)
    {
        var cursor: Int64?
        if let before {
            guard let id = Int64(before), id > 0 else {
                throw StatusError(
                    .badRequest, Phrase("http.badCursor"), message: "That page of activity does not exist.")
            }
            cursor = id
        }
        let found = try await events.activity(
            user: user, since: now.timeIntervalSince1970 - shown, before: cursor, limit: pageSize + 1)
        let page = Array(found.prefix(pageSize))
        return (page, cursor, found.count > pageSize ? page.last?.id : nil)
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let (shown, before, older) = try await Self.page(
            of: context.user.id, before: request.query["before"], events: events, now: clock())
        // Each app's name where it is still known (a file's client, or an app of the console's).
        var names: [String: String] = [:]
        for id in Set(shown.compactMap(\.event.app)) { names[id] = try await appName(id) }
        return try pages.in(context.language).activity(
            csrf: context.csrfToken, events: shown, before: before, olderThan: older,
            appName: { names[$0] })
    }
}
