import Foundation
import Wording

/// The pages' date formatters, one per pattern and language, made on first use and kept.
///
/// Making a `DateFormatter` opens an ICU date format: about 290 µs on this machine, against
/// about 3 µs to format a date with one already made. Pages made one per page, and "Recent
/// activity" one per line, which was most of their CPU (docs/BENCHMARKS.md, issue 42). A
/// formatter is safe to share between threads (Foundation locks its state); the few patterns
/// the pages use are all this holds.
final class UTCFormatters: @unchecked Sendable {
    static let shared = UTCFormatters()

    private let lock = NSLock()
    private var made: [Key: DateFormatter] = [:]

    private struct Key: Hashable {
        let pattern: String
        let language: Language
    }

    /// The formatter of UTC dates in `pattern` with `language`'s month names.
    func formatter(_ pattern: String, _ language: Language) -> DateFormatter {
        lock.withLock {
            let key = Key(pattern: pattern, language: language)
            if let formatter = made[key] { return formatter }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: language == .spanish ? "es_US" : "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            made[key] = formatter
            return formatter
        }
    }
}
