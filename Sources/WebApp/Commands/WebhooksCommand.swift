import ArgumentParser
import EventsCore
import Foundation

/// `webapp webhooks`: where each `--webhooks` endpoint's deliveries stand (and each app's
/// back-channel logout address, `oidc:` and its client id), and `resume` for one paused after a
/// day of failures. Reads the database the server uses, as `webapp events` does;
/// a running server picks a resumed endpoint up at its next look (about a second).
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp webhooks",
        abstract: "Where webhook deliveries stand; resume a paused endpoint.",
        subcommands: [Status.self, Resume.self],
        defaultSubcommand: Status.self)

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print each endpoint as a JSON line.",
            discussion: """
                Each line: url (an app's back-channel logout: oidc:CLIENT_ID), kind (webhook or \
                backchannel_logout), cursor (the last event passed), behind (events still to go), \
                failures (in a row), next_attempt_at, paused_at (absent unless paused), last_error.
                """)

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let endpoints = try await database.withStorage(label: "webapp-webhooks") { try await $0.webhooks.endpoints() }
            for endpoint in endpoints {
                FileHandle.standardOutput.write(Data((try Self.line(endpoint) + "\n").utf8))
            }
        }

        static func line(_ endpoint: EndpointStatus) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .iso8601
            struct Line: Encodable {
                var url: String
                var kind: String
                var cursor: Int64
                var behind: Int
                var failures: Int
                var nextAttemptAt: Date
                var pausedAt: Date?
                var lastError: String?
            }
            return String(
                decoding: try encoder.encode(
                    Line(
                        url: endpoint.url, kind: endpoint.kind.rawValue, cursor: endpoint.cursor, behind: endpoint.behind, failures: endpoint.failures,
                        nextAttemptAt: Date(timeIntervalSince1970: endpoint.nextAttemptAt),
                        pausedAt: endpoint.pausedAt.map { Date(timeIntervalSince1970: $0) },
                        lastError: endpoint.lastError)), as: UTF8.self)
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn a paused endpoint back on: it sends what it missed, in order, from where it stopped.")

        @Argument(help: "The endpoint's url, as in the --webhooks file (oidc:CLIENT_ID for an app's logout address).")
        var url: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let url = url
            let said = try await database.withStorage(label: "webapp-webhooks") { storage -> String? in
                guard let endpoint = try await storage.webhooks.endpoints().first(where: { $0.url == url }) else {
                    return nil
                }
                guard endpoint.pausedAt != nil else { return "\(url) is not paused: nothing to resume." }
                _ = try await storage.webhooks.resume(url, now: Date().timeIntervalSince1970)
                return "Resumed \(url)."
            }
            guard let said else { throw ValidationError("No webhook endpoint \(url): `webapp webhooks` lists them.") }
            print(said)
        }
    }
}
