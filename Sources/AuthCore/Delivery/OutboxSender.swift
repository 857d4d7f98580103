import DeliveryCore
import Foundation
import Logging

/// Delivers codes to a local outbox: one JSON object per line (`to`, `channel` (`sms` or
/// `voice`), `body` (a text's body, or the words a call says), `reference`, `sent_at`) appended
/// to a file, plus a log line that says a message went there (without its words, which hold a
/// live code).
///
/// This is the default for a self-hosted demo: a person or a test reads the code from the file.
public final class OutboxSender: CodeSender, @unchecked Sendable {
    /// The outbox file.
    public let path: String
    private let logger: Logger
    // Appends are serialised on this queue, off the caller's thread: file I/O never runs on an
    // event loop, and lines from concurrent sign-ins never interleave.
    private let queue = DispatchQueue(label: "phone-login.sms-outbox")

    /// An outbox at `path`; its folder is created when missing.
    public init(path: String, logger: Logger) throws {
        self.path = path
        self.logger = logger
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    private struct Line: Encodable {
        let to: String
        let channel: String
        let body: String
        let reference: String
        let sent_at: String
    }

    public func send(_ message: CodeMessage) async throws -> DeliveryReport {
        let line = Line(
            to: message.to.e164, channel: message.channel.rawValue, body: message.words,
            reference: message.reference.hex, sent_at: Date().ISO8601Format())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var encoded = try encoder.encode(line)
        encoded.append(UInt8(ascii: "\n"))
        let data = encoded
        let path = self.path
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            queue.async {
                do {
                    try Self.append(data, to: path)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        logger.info(
            "Code written to outbox",
            metadata: ["to": "\(message.to.masked)", "channel": "\(message.channel)", "outbox": "\(path)"])
        return DeliveryReport(providerID: nil, status: .queued)
    }

    private static func append(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else {
            throw DeliveryError(reason: "cannot open outbox \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let end = lseek(fd, 0, SEEK_END)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else {
            let reason = String(cString: strerror(errno))
            // Part of the line may have gone in before the disk filled: taken out, so the file
            // stays whole lines and the next code starts on a line of its own.
            if written > 0, end >= 0 { _ = ftruncate(fd, end) }
            throw DeliveryError(reason: "cannot write outbox \(path): \(reason)")
        }
    }
}
