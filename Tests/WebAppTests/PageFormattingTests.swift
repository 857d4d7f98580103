import Foundation
import Testing

@testable import WebApp

/// The pages' number and date printers that replaced Foundation's slower ones (issue 42) print
/// what Foundation's print.
@Suite("Page formatting")
struct PageFormattingTests {
    @Test("tenths prints what String(format: \"%.1f\") prints, for the glance's geometry")
    func tenths() {
        var generator = SystemRandomNumberGenerator()
        let values = [0, 0.1, 0.3, 1, 119.9, 120, 480, 7.7] + (0..<2_000).map { _ in
            (Double.random(in: 0...2_000, using: &generator) * 10).rounded() / 10
        }
        for value in values {
            #expect(Pages.tenths(value) == String(format: "%.1f", value), "\(value)")
        }
    }

    @Test("a formatter is made once per pattern and language, and each says its own language's months")
    func formatters() {
        let english = Pages.utcFormatter("d MMM yyyy, HH:mm", .english)
        #expect(Pages.utcFormatter("d MMM yyyy, HH:mm", .english) === english)
        let spanish = Pages.utcFormatter("d MMM yyyy, HH:mm", .spanish)
        #expect(spanish !== english)
        let date = Date(timeIntervalSince1970: 1_795_814_456)  // 27 Nov 2026, 21:20:56 UTC
        #expect(english.string(from: date) == "27 Nov 2026, 21:20")
        #expect(spanish.string(from: date) == "27 nov 2026, 21:20")
    }

    @Test("many threads formatting with the shared formatters get every date right")
    func concurrent() async {
        let dates = (0..<400).map { Date(timeIntervalSince1970: 1_795_814_456 + Double($0) * 3_600) }
        let expected = dates.map { date -> String in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "d MMM, HH:mm"
            return formatter.string(from: date)
        }
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    dates.map { Pages.utcFormatter("d MMM, HH:mm", .english).string(from: $0) } == expected
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
