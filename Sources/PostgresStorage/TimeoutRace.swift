import NIOConcurrencyHelpers

/// The first of an operation and its timer to finish answers the caller, once; the other is
/// cancelled.
final class TimeoutRace<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, any Error>?
        /// Set when finished before `start` (cancelled early, or a very fast operation).
        var early: Swift.Result<Result, any Error>?
        var done = false
    }

    private let state = NIOLockedValueBox(State())

    func start(
        _ continuation: CheckedContinuation<Result, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>
    ) {
        let early = state.withLockedValue { state -> Swift.Result<Result, any Error>? in
            state.work = work
            state.timer = timer
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early {
            work.cancel()
            timer.cancel()
            continuation.resume(with: early)
        }
    }

    func finish(_ result: Swift.Result<Result, any Error>) {
        let (continuation, work, timer) = state.withLockedValue {
            state -> (CheckedContinuation<Result, any Error>?, Task<Void, Never>?, Task<Void, any Error>?) in
            guard !state.done else { return (nil, nil, nil) }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = result
                return (nil, nil, nil)
            }
            state.continuation = nil
            return (continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        work?.cancel()
        timer?.cancel()
        continuation.resume(with: result)
    }
}
