import ConsoleCore
import Foundation

/// ``ConsoleCore/ConsoleStore`` on either database (``ConsoleQueries``).
public struct SQLConsoleStore<Runner: StepRunner>: ConsoleStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func glance(since: Double, breakerSince: Double, settledBy: Double, minCodes: Int) async throws
        -> GlanceCounts
    {
        try await runner.read {
            ConsoleQueries.glance(since: since, breakerSince: breakerSince, settledBy: settledBy, minCodes: minCodes)
        }
    }
}
