import EventsCore
import Foundation

extension OperatorAction {
    /// The event that records it: the person's account (none for a deletion, whose rows go), the
    /// operator who did it (their number, or `shell` for `webapp admin`), why, and what it
    /// touched (a passkey's name, an app's client id).
    public func event(
        user: Int64?, by actor: Actor, reason: ActionReason, at: Double, app: String? = nil, client: String? = nil,
        userAgent: String? = nil
    ) -> Event {
        var event = Event(
            .operatorAction, at: at, user: user, detail: rawValue, app: app, userAgent: userAgent, client: client)
        event.actor = actor.recorded
        event.reason = reason.text
        return event
    }
}

/// Who acted: an operator in the console, by their number, or someone at the server's shell.
public enum Actor: Sendable, Equatable {
    case console(phone: String)
    case shell

    /// What the event keeps.
    public var recorded: String {
        switch self {
        case .console(let phone): phone
        case .shell: "shell"
        }
    }
}
