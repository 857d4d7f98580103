import EventsCore
import Foundation

/// Which recorded events end an app's sessions (OpenID Connect Back-Channel Logout 1.0), decided
/// from the event alone: the store is then asked only what the decision names.
public enum BackChannelLogout {
    /// Whose sessions at the app an event ends.
    public enum Ending: Sendable, Equatable {
        /// One browser session ended (Log out, signed out from another device, its time ran out,
        /// the account moved): the app's sessions begun from it, if it signed in to the app.
        case session(sid: String)
        /// Every session of the person: the account was deleted, or the app disconnected.
        case person(user: Int64)
    }

    /// What `event` ends at `client`; nil when it ends nothing there.
    public static func ending(_ event: Event, at client: OIDCClient) -> Ending? {
        switch event.type {
        case .signedOut:
            return event.reference.map { .session(sid: $0) }
        case .accountDeleted:
            // Only the apps the person used, named in the event (client ids hold no space).
            let told = (event.detail ?? "").split(separator: " ").contains { $0.utf8.elementsEqual(client.id.utf8) }
            return told ? event.user.map { .person(user: $0) } : nil
        case .appDisconnected:
            guard let app = event.app, app.utf8.elementsEqual(client.id.utf8) else { return nil }
            return event.user.map { .person(user: $0) }
        default:
            return nil
        }
    }
}
