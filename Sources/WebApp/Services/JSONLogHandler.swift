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

    /// The JSON object of one line (keys sorted, so lines compare in tests and diffs).
    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, at date: Date = Date())
        -> String
    {
        var object: [String: String] = [:]
        for (key, value) in metadata { object[key] = "\(value)" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        object["ts"] = formatter.string(from: date)
        object["level"] = level.rawValue
        object["label"] = label
        object["message"] = message
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"message":"unencodable"}"#
    }
}
