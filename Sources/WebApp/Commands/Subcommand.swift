import Foundation

/// The commands `webapp WORD …` runs against the server's database instead of serving: the one
/// list `Entry` dispatches from and `webapp --help` names (so a command cannot be added to one
/// and missed by the other, nor by the docs check, which starts from `--help`).
enum Subcommand: String, CaseIterable {
    case events, backup, webhooks, admin

    /// What it does, in `webapp --help` (under 66 characters, so the line is never wrapped).
    var summary: String {
        switch self {
        case .events: "print the stored events as JSON Lines"
        case .backup: "copy the live SQLite database, consistently"
        case .webhooks: "where webhook deliveries stand; resume a paused endpoint"
        case .admin: "an operator's work: find, sign out, unlock, enroll, apps"
        }
    }

    /// Runs it with the arguments after its word.
    func run(_ arguments: [String]) async {
        switch self {
        case .events: await EventsCommand.main(arguments)
        case .backup: BackupCommand.main(arguments)
        case .webhooks: await WebhooksCommand.main(arguments)
        case .admin: await AdminCommand.main(arguments)
        }
    }

    /// The paragraph of `webapp --help` that names them.
    static var helpParagraph: String {
        let lines = allCases.map { "  " + $0.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.summary }
        return (["Commands: webapp COMMAND runs against the server's database instead of",
                 "serving (each has its own --help):"] + lines).joined(separator: "\n")
    }
}
