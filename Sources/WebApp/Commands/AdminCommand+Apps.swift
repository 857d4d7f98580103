import ArgumentParser
import ConsoleCore
import EventsCore
import Foundation
import OIDCCore

/// `webapp admin apps`: the console's apps from a shell, recorded like the console's actions
/// (naming `shell`).
extension AdminCommand {
    struct Apps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apps", abstract: "The apps (OpenID Connect clients) kept in the database.",
            subcommands: [List.self, Add.self, Rotate.self, Remove.self])

        struct Listed: Encodable {
            let client_id: String
            let name: String
            let redirect_uris: [String]
            let turned_off: Bool
            let previous_secret_until: String?
            let from_file: Bool
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Every app, the file's too.")
            @Flag(help: "Answer in JSON (one object).") var json = false
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let file = try database.serverConfiguration().oidcClients?.clients.values.sorted { $0.id < $1.id } ?? []
                let json = self.json
                try await database.withStorage(label: "webapp-admin") { storage in
                    let now = Date().timeIntervalSince1970
                    let listed =
                        file.map {
                            Listed(
                                client_id: $0.id, name: $0.name, redirect_uris: $0.redirectURIs, turned_off: false,
                                previous_secret_until: nil, from_file: true)
                        }
                        + (try await storage.apps.apps()).map { app in
                            Listed(
                                client_id: app.id, name: app.name, redirect_uris: app.redirectURIs,
                                turned_off: app.disabledAt != nil,
                                previous_secret_until: app.isRetiring(at: now)
                                    ? app.retiringUntil.map { Date(timeIntervalSince1970: $0).ISO8601Format() } : nil,
                                from_file: false)
                        }
                    AdminCommand.print(["apps": listed], json: json) {
                        listed.isEmpty
                            ? "No apps."
                            : listed.map {
                                "\($0.client_id)\t\($0.name)\t\($0.redirect_uris.joined(separator: " "))"
                                    + ($0.from_file ? "\t(clients file)" : "") + ($0.turned_off ? "\t(turned off)" : "")
                            }.joined(separator: "\n")
                    }
                }
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add an app; its secret is printed once.")
            @Argument(help: "Its client id (1 to 64 of A-Z a-z 0-9 . _ -).") var id: String
            @Option(help: "The name people see.") var name: String
            @Option(name: .customLong("redirect-uri"), help: "A redirect address (repeat for more).")
            var redirectURIs: [String] = []
            @OptionGroup var why: Why
            @Flag(help: "Answer in JSON (one object).") var json = false
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let fields: (id: String?, name: String, redirectURIs: [String])
                do {
                    fields = try StoredApp.checked(id: id, name: name, redirects: redirectURIs.joined(separator: "\n"))
                } catch {
                    throw ValidationError(AdminCommand.sentence(error))
                }
                let reason = try why.actionReason()
                if try database.serverConfiguration().oidcClients?[id] != nil {
                    throw ValidationError("\(id) is a client of the clients file.")
                }
                let (secret, sha256) = StoredApp.newSecret()
                let json = self.json
                try await database.withStorage(label: "webapp-admin") { storage in
                    let now = Date().timeIntervalSince1970
                    var event = OperatorAction.addApp.event(user: nil, by: .shell, reason: reason, at: now)
                    event.app = fields.id
                    do {
                        try await storage.apps.add(
                            StoredApp(
                                id: fields.id ?? "", name: fields.name, redirectURIs: fields.redirectURIs,
                                secretSHA256: sha256, createdAt: now), recording: event)
                    } catch StoredApp.Refusal.idTaken {
                        throw AdminCommand.failure("Another app already has the client id \(fields.id ?? "").")
                    }
                    AdminCommand.print(["client_id": fields.id ?? "", "client_secret": secret], json: json) {
                        "Added \(fields.id ?? ""). Its secret, shown this once:\n\(secret)"
                    }
                }
            }
        }

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rotate",
                abstract: "A new secret, printed once; the old one keeps working for 24 hours.")
            @Argument(help: "The app's client id.") var id: String
            @OptionGroup var why: Why
            @Flag(help: "Answer in JSON (one object).") var json = false
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let (secret, sha256) = StoredApp.newSecret()
                let (id, json) = (self.id, self.json)
                try await Apps.act(.rotateAppSecret, on: id, why, database) { apps, event, now in
                    guard
                        try await apps.rotateSecret(
                            id: id, to: sha256, retiringUntil: now + StoredApp.retiringFor, recording: event)
                    else { throw AdminCommand.failure("No app \(id) in the database.") }
                    AdminCommand.print(["client_id": id, "client_secret": secret], json: json) {
                        "A new secret for \(id), shown this once (the old one works for 24 hours):\n\(secret)"
                    }
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Delete an app: its sign-ins end, its consents are forgotten.")
            @Argument(help: "The app's client id.") var id: String
            @OptionGroup var why: Why
            @Flag(help: "Answer in JSON (one object).") var json = false
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let (id, json) = (self.id, self.json)
                try await Apps.act(.deleteApp, on: id, why, database) { apps, event, now in
                    guard try await apps.delete(id: id, at: now, recording: event) else {
                        throw AdminCommand.failure("No app \(id) in the database.")
                    }
                    AdminCommand.print(["removed": id], json: json) { "Removed \(id)." }
                }
            }
        }

        /// One app's action from the shell: the reason checked, the event made naming `shell`
        /// and the app, and `body` run with the store on the server's database.
        static func act(
            _ action: OperatorAction, on id: String, _ why: Why, _ database: DatabaseOptions,
            _ body: @escaping @Sendable (any AppStore, Event, Double) async throws -> Void
        ) async throws {
            let reason = try why.actionReason()
            if try database.serverConfiguration().oidcClients?[id] != nil {
                throw ValidationError("\(id) is a client of the clients file: change it there.")
            }
            try await database.withStorage(label: "webapp-admin") { storage in
                let now = Date().timeIntervalSince1970
                var event = action.event(user: nil, by: .shell, reason: reason, at: now)
                event.app = id
                try await body(storage.apps, event, now)
            }
        }
    }

    /// What a refused app field means, for the shell.
    static func sentence(_ refusal: StoredApp.Refusal) -> String {
        switch refusal {
        case .id: "The client id must be 1 to 64 characters: letters, digits, dots, dashes or underscores."
        case .name: "--name must be 1 to 64 characters people can read."
        case .redirects:
            "Give 1 to 10 --redirect-uri, each https (http only on this machine), without a fragment."
        case .idTaken: "Another app already has this client id."
        }
    }
}
