/// What a store method does, written once as data: run a statement, then go on with what it
/// returned, until a result. Each store only runs steps (`SQLiteStorage`'s `Database.run`,
/// `PostgresStorage`'s `PostgresConnection.run`): the statements, the order, and what is made
/// of the rows live here, once for both databases.
///
/// A step that depends on an earlier answer (a code taken only if unused) is a closure over
/// that answer, so a store needs no logic of its own between statements.
public enum Step<Result> {
    case done(Result)
    /// Runs the statement and goes on with the rows it returned (none without `RETURNING`).
    case rows(Statement, ([any SQLRow]) throws -> Step<Result>)
    /// Runs the statement and goes on with how many rows it inserted, changed or deleted.
    case changes(Statement, (Int) throws -> Step<Result>)
    /// Goes on with the step this makes (a decision on what was read, run by the runner so
    /// that what it throws ends the transaction like a failed statement).
    case next(() throws -> Step<Result>)

    /// This step, then `next` with its result.
    public func then<Next>(_ next: @escaping (Result) throws -> Step<Next>) -> Step<Next> {
        switch self {
        case .done(let result): .next { try next(result) }
        case .rows(let statement, let more): .rows(statement) { try more($0).then(next) }
        case .changes(let statement, let more): .changes(statement) { try more($0).then(next) }
        case .next(let make): .next { try make().then(next) }
        }
    }

    /// This step's result, changed by `transform`.
    public func map<Next>(_ transform: @escaping (Result) throws -> Next) -> Step<Next> {
        then { .done(try transform($0)) }
    }
}

extension Step {
    /// Runs `statement`; its result is the rows.
    public static func query(_ statement: Statement) -> Step<[any SQLRow]> where Result == [any SQLRow] {
        .rows(statement) { .done($0) }
    }

    /// Runs each statement in order for its effect; the result is how many rows they changed.
    /// The count is carried forward, statement by statement, so each statement's answer passes
    /// through one closure (a chain of `map`s passed the i-th through i of them).
    public static func execute(_ statements: [Statement]) -> Step<Int> where Result == Int {
        func from(_ index: Int, changed: Int) -> Step<Int> {
            guard index < statements.count else { return .done(changed) }
            return .changes(statements[index]) { from(index + 1, changed: changed + $0) }
        }
        return from(0, changed: 0)
    }

    /// Each of `steps` in order; the result is their results.
    /// The results are collected as the steps run, in a collection made when this step runs (so
    /// a step run again starts empty): each step is wrapped once, not once per step before it,
    /// and no result is copied again (`reduce` over `then` did both, quadratic in the steps).
    public static func all<Each>(_ steps: [Step<Each>]) -> Step<[Each]> where Result == [Each] {
        .next {
            let results = Collected<Each>(capacity: steps.count)
            func from(_ index: Int) -> Step<[Each]> {
                guard index < steps.count else { return .done(results.items) }
                return steps[index].then { each in
                    results.items.append(each)
                    return from(index + 1)
                }
            }
            return from(0)
        }
    }
}

/// The results ``Step/all(_:)`` has so far, for one run of it.
private final class Collected<Each> {
    var items: [Each] = []

    init(capacity: Int) { items.reserveCapacity(capacity) }
}

/// Runs `statements` for their effect, then `step`.
public func after<Result>(_ statements: [Statement], _ step: Step<Result>) -> Step<Result> {
    Step<Int>.execute(statements).then { _ in step }
}
