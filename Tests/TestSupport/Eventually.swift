/// Waits until `condition` holds, looking again every 20 ms, for at most `limit`; returns whether
/// it held. Tests wait for what they expect, never a fixed time: on two busy cores a fixed
/// sleep is sometimes too short, and a bound is only there so a broken build fails instead of
/// hanging. The limit is generous on purpose; no test asserts how long the wait took.
public func eventually(
    within limit: Duration = .seconds(30), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
