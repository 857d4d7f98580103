import Foundation
import Logging

/// `--log-format json`: each log line as one JSON object on standard error (JSON Lines), for a
/// log shipper or `jq`: `ts` (ISO 8601, UTC, milliseconds), `level`, `label`, `message`, and the
/// line's metadata as strings (the request id among it). Written whole with one `write`, so
/// lines from concurrent requests never interleave.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit { merged.merge(explicit) { $1 } }
        FileHandle.standardError.write(Data((Self.line(level: level, label: label, message: "\(message)", metadata: merged) + "\n").utf8))
    }

    /// A line's time to the millisecond (`2026-11-28T12:00:00.123Z`). A value, made once:
    /// `ISO8601DateFormatter` made per line cost about 190 µs (its ICU formatter built anew).
    private static let instant = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The JSON object of one line (keys sorted, so lines compare in tests and diffs).
    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, at date: Date = Date())
        -> String
    {
        var object: [String: String] = [:]
        for (key, value) in metadata { object[key] = "\(value)" }
        object["ts"] = date.formatted(Self.instant)
        object["level"] = level.rawValue
        object["label"] = label
        object["message"] = message
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"message":"unencodable"}"#
    }
}
