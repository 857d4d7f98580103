import Logging

/// The id of the request being handled, for every log line written while handling it.
///
/// The server sets it for the whole handling task (a task-local value), so loggers that know
/// nothing of HTTP (the domain's, a library's) still tag their lines when the logging system
/// is bootstrapped with ``metadataProvider``. A valid `X-Request-Id` from the client or proxy
/// (1 to 64 characters of `A-Z a-z 0-9 . _ -`) is kept, so one id follows a request through
/// the proxy's logs and ours; the response echoes it.
public enum RequestID {
    @TaskLocal public static var current: String?

    /// Adds `request=<id>` to every log line written inside a request.
    public static let metadataProvider = Logger.MetadataProvider {
        current.map { ["request": .string($0)] } ?? [:]
    }

    /// The id to use: the client's if valid, else `fallback`.
    static func choose(fromHeader header: String?, fallback: String) -> String {
        guard let header, (1...64).contains(header.utf8.count),
            header.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            })
        else { return fallback }
        return header
    }
}
