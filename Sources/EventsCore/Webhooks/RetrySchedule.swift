/// When a delivery that failed is tried again: Standard Webhooks' suggested schedule (at once, then
/// 5 seconds, 5 minutes, 30 minutes, 2, 5, 10 and 10 hours: a little over a day in all), after which
/// the endpoint is paused until an operator turns it back on.
public enum RetrySchedule {
    /// The waits before each retry, in seconds.
    public static let waits: [Double] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000]

    /// When the attempt after `failed` failed attempts goes, counting from `now` (the last
    /// failure); nil once the schedule is spent: pause the endpoint.
    public static func next(afterFailures failed: Int, now: Double) -> Double? {
        guard failed >= 1, failed <= waits.count else { return nil }
        return now + waits[failed - 1]
    }
}
