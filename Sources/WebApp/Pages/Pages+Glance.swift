import ConsoleCore
import EventsCore
import Foundation

/// The console's glance (``ConsoleCore/Glance``) as the first page shows it: three bar charts
/// drawn as SVG by the template from the geometry made here (no script, no chart library), each
/// with a table of the same numbers, and sign-ins by method and the breaker's exchanges as text.
extension Pages {
    /// The charts' drawing area, in SVG units (the SVG scales to the page's width).
    static let chartWidth = 480.0
    static let chartHeight = 120.0

    /// `value`, a whole number of tenths (the glance's geometry is rounded to them), with one
    /// decimal as `String(format: "%.1f")` prints it, at a tenth of its cost: a busy glance page
    /// prints about 900 of these.
    static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        return (tenths < 0 ? "-" : "") + String(magnitude / 10) + "." + String(magnitude % 10)
    }

    func glanceValues(_ glance: Glance) -> [String: Any] {
        // The closures below take the catalog, not the whole of `self` (a copy of Pages each).
        let words = self.words
        let barWidth = Self.chartWidth / Double(Glance.hours)
        let language = words.language
        // Each hour's name, made once and only for an hour with something to say: the three
        // charts' bars and the table say it.
        var labels = [String?](repeating: nil, count: glance.hours.count)
        func label(_ index: Int) -> String {
            if let made = labels[index] { return made }
            let made = UTCFormatters.shared.hourName(Int64(glance.hours[index].start), language)
            labels[index] = made
            return made
        }
        func height(_ value: Int, scale: Int) -> Double {
            (Double(value) / Double(max(scale, 1)) * Self.chartHeight * 10).rounded() / 10
        }
        func number(_ value: Double) -> String { Self.tenths(value) }
        // Each bar: its place, and its parts stacked from the bottom. An hour with nothing to
        // draw has no bar (its title would be on nothing anyone can point at; the table below
        // lists every hour that had any); the others keep their places.
        func bar(_ index: Int, _ parts: [(String, Int)], scale: Int, title: @autoclosure () -> String) -> [String: Any]? {
            guard parts.contains(where: { $0.1 > 0 }) else { return nil }
            var top = Self.chartHeight
            let rects: [[String: String]] = parts.compactMap { part in
                guard part.1 > 0 else { return nil }
                let h = height(part.1, scale: scale)
                top -= h
                return ["class": part.0, "y": number(top), "height": number(h)]
            }
            return [
                "x": number(Double(index) * barWidth + 1), "width": number(barWidth - 2), "parts": rects,
                "title": title(),
            ]
        }
        // A tick at 00:00 and 12:00 UTC: the hours start on whole UTC hours (Glance.since). Both
        // languages write a time of day as "HH:mm".
        let ticks: [[String: String]] = glance.hours.enumerated().compactMap { index, hour in
            let second = Int64(hour.start)
            guard second % 43_200 == 0 else { return nil }
            return ["x": number(Double(index) * barWidth), "label": second % 86_400 == 0 ? "00:00" : "12:00"]
        }
        let sendScale = max(glance.hours.map(\.sent).max() ?? 0, 1)
        let spendScale = max(glance.hours.map(\.spent).max() ?? 0, glance.hourlyBudget, 1)
        let sends = glance.hours.enumerated().compactMap { index, hour in
            bar(
                index, [("delivered", hour.delivered), ("awaiting", hour.awaiting), ("failed", hour.notDelivered)],
                scale: sendScale,
                title: words(
                    "console.glance.sendsTitle",
                    [
                        "hour": label(index), "texts": String(hour.texts), "calls": String(hour.calls),
                        "delivered": String(hour.delivered), "notDelivered": String(hour.notDelivered),
                        "awaiting": String(hour.awaiting),
                    ]))
        }
        let conversion = glance.hours.enumerated().compactMap { index, hour in
            bar(
                index, [("used", hour.used), ("unused", hour.sent - hour.used)], scale: sendScale,
                title: words(
                    "console.glance.conversionTitle",
                    ["hour": label(index), "sent": String(hour.sent), "used": String(hour.used)]))
        }
        let spend = glance.hours.enumerated().compactMap { index, hour in
            bar(
                index, [("spent", hour.spent)], scale: spendScale,
                title: words("console.glance.spendTitle", ["hour": label(index), "spent": String(hour.spent)]))
        }
        let busy = glance.hours.enumerated().filter { $0.element.sent > 0 }.reversed().map { index, hour -> [String: Any] in
            [
                "hour": label(index), "iso": Self.iso(hour.start), "texts": String(hour.texts), "calls": String(hour.calls),
                "delivered": String(hour.delivered), "notDelivered": String(hour.notDelivered),
                "awaiting": String(hour.awaiting), "sent": String(hour.sent), "used": String(hour.used),
                "spent": String(hour.spent),
            ]
        }
        let methods: [[String: String]] = glance.signInsByMethod.map { method in
            let key = "console.glance.method." + method.method
            return ["method": words.has(key) ? words(key) : method.method, "count": String(method.count)]
        }
        let exchanges: [[String: String]] = glance.pausedExchanges.map { exchange in
            let digits = exchange.exchange.dropFirst(2)
            return [
                "exchange": "(\(digits.prefix(3))) \(digits.dropFirst(3))-••••", "sent": String(exchange.sent),
                "used": String(exchange.used),
            ]
        }
        return [
            "chartWidth": number(Self.chartWidth), "chartHeight": number(Self.chartHeight),
            "viewHeight": number(Self.chartHeight + 16), "tickY": number(Self.chartHeight + 13),
            "ticks": ticks, "sendBars": sends, "conversionBars": conversion, "spendBars": spend,
            "sendScale": String(sendScale), "spendScale": String(spendScale),
            "budgetY": number(Self.chartHeight - height(glance.hourlyBudget, scale: spendScale)),
            "busyHours": busy, "hasBusyHours": !busy.isEmpty,
            "sentTotal": String(glance.sent), "usedTotal": String(glance.used),
            "conversionSummary": glance.conversion.map {
                words("console.glance.conversionSummary", [
                    "sent": String(glance.sent), "used": String(glance.used), "percent": String(Int(($0 * 100).rounded())),
                ])
            } ?? words("console.glance.nothingSent"),
            "spendSummary": words(
                "console.glance.spendSummary",
                [
                    "today": String(glance.spentToday), "daily": String(glance.dailyBudget),
                    "hourly": String(glance.hourlyBudget),
                ]),
            "methods": methods, "hasMethods": !methods.isEmpty,
            "exchanges": exchanges, "hasExchanges": !exchanges.isEmpty,
        ]
    }
}
