import ArgumentParser
import AuthCore
import EventsCore
import Foundation

/// `webapp events`: the stored events as JSON Lines on standard output, oldest first, for a
/// SIEM or `jq` (the operator's trail). Reads the database the server uses (`--db`,
/// `DATABASE_URL`, or `<data-dir>/webapp.sqlite`); changes nothing.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp events",
        abstract: "Print the stored events as JSON Lines (one object a line), oldest first.",
        discussion: """
            Each line: id, at (ISO 8601, UTC), type, user_id, phone_number, detail, \
            delivery_status, app, user_agent, network (an IPv4 /24 or an IPv6 /48). Events \
            are kept --event-retention-days (400 by default).

            Types: \(EventType.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Only events at or after this time (2026-11-01 or 2026-11-01T08:00:00Z).")
    var since: String?

    @Option(help: "Only events before this time (a day alone: to the end of that day).")
    var until: String?

    @Option(help: "Only events about this US number, as a person types it.")
    var phone: String?

    @Option(help: "Only events of this type (see below).")
    var type: String?

    /// The filter the options say; a value that does not parse is a usage error, before
    /// anything is opened.
    func filter() throws -> EventFilter {
        var filter = EventFilter()
        filter.since = try since.map { try Self.time($0, "--since") }
        filter.until = try until.map { try Self.time($0, "--until", dayEnds: true) }
        if let since = filter.since, let until = filter.until, until <= since {
            throw ValidationError("--until comes before --since: nothing could match.")
        }
        if let phone {
            do {
                filter.phone = try PhoneNumber(parsing: phone).e164
            } catch {
                throw ValidationError("--phone: not a US phone number.")
            }
        }
        if let type {
            guard let known = EventType(rawValue: type) else {
                throw ValidationError("--type: one of \(EventType.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            filter.type = known
        }
        return filter
    }

    /// A day (midnight UTC, or the next midnight with `dayEnds`) or an instant, as seconds
    /// since 1970.
    static func time(_ text: String, _ option: String, dayEnds: Bool = false) throws -> Double {
        let instant = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let date = instant.date(from: text) { return date.timeIntervalSince1970 }
        guard let date = day.date(from: text) else {
            throw ValidationError("\(option): a date (2026-11-01) or a time (2026-11-01T08:00:00Z).")
        }
        return date.timeIntervalSince1970 + (dayEnds ? 86_400 : 0)
    }

    func run() async throws {
        let filter = try filter()
        try await database.withStorage(label: "webapp-events") { storage in
            try await Self.export(filter, from: storage.events) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
    }

    /// Every event `filter` matches, a line each, read 1,000 at a time.
    static func export(_ filter: EventFilter, from store: any EventStore, write: (String) -> Void) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let formatter = ISO8601DateFormatter()
        var after: Int64 = 0
        while true {
            let page = try await store.export(filter, after: after, limit: 1000)
            for stored in page {
                let line = ActivityAPIController.EventReply(stored, withUser: true, formatter: formatter)
                write(String(decoding: try encoder.encode(line), as: UTF8.self))
            }
            guard page.count == 1000, let last = page.last else { return }
            after = last.id
        }
    }
}
