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
    /// The glance's hour names already written, by language and the hour's first second: the
    /// 48 hours it shows move by one an hour, so nearly every name is written once.
    private var hourNames: [HourKey: String] = [:]
    /// Names kept at most (a week of hours in both languages), then the cache starts afresh.
    private static let hourNamesKept = 2 * 7 * 24

    private struct HourKey: Hashable {
        let start: Int64
        let language: Language
    }

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

    /// How the glance names an hour ("26 Nov, 14:00").
    static let hourPattern = "d MMM, HH:mm"

    /// The name (``hourPattern``) of the hour that begins at `start`, written by its formatter
    /// the first time and kept (a `DateFormatter` call costs microseconds; the glance names up to
    /// 48 hours at every view).
    func hourName(_ start: Int64, _ language: Language) -> String {
        let key = HourKey(start: start, language: language)
        if let name = lock.withLock({ hourNames[key] }) { return name }
        let name = formatter(Self.hourPattern, language).string(from: Date(timeIntervalSince1970: Double(start)))
        lock.withLock {
            if hourNames.count >= Self.hourNamesKept { hourNames.removeAll(keepingCapacity: true) }
            hourNames[key] = name
        }
        return name
    }
}
