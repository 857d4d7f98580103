import DeliveryCore
import Foundation

/// What one decision reads, as a type: the reads a store runs (``AuthRead``s, in order), the
/// locks it holds, and how the answers become the decision's `Found` value.
///
/// A decision takes only its plan's `Found`, whose fields are built from the plan's own
/// ``Read`` handles in ``found(in:)``: a limit the decision judges but the plan forgot to read
/// does not compile, where an optional left unread would have read as "no limit".
public protocol ReadPlan: Sendable {
    associatedtype Found: Sendable
    var list: ReadList { get }
    /// The decision's input, from the store's answers to ``list``.
    func found(in answers: Answers) throws -> Found
}

/// The reads of a ``ReadPlan`` as they are added, each returning a typed ``Read`` handle.
public struct ReadList: Sendable, Equatable {
    public private(set) var reads: [AuthRead] = []
    /// What the transaction holds while it runs, so that two requests for the same phone
    /// number or from the same client run one after the other on every instance.
    public var locks: [AuthLock]

    public init(locks: [AuthLock] = []) {
        self.locks = locks
    }

    private mutating func add<Value>(_ read: AuthRead, _ pick: @escaping @Sendable (AuthAnswer) -> Value?)
        -> Read<Value>
    {
        reads.append(read)
        return Read(index: reads.count - 1, pick: pick)
    }

    /// The session with this key; no key reads nothing and finds none.
    public mutating func session(_ key: Data?) -> Read<SessionRecord?> {
        guard let key else { return .known(nil) }
        return add(.session(key: key)) { if case .session(let found) = $0 { found } else { nil } }
    }

    public mutating func code(_ phone: String) -> Read<StoredCode?> {
        add(.code(phone: phone)) { if case .code(let found) = $0 { found } else { nil } }
    }

    public mutating func heldCode(_ holder: Data) -> Read<HeldCode?> {
        add(.heldCode(holder: holder)) { if case .heldCode(let found) = $0 { found } else { nil } }
    }

    public mutating func device(_ key: Data) -> Read<DeviceRecord?> {
        add(.device(key: key)) { if case .device(let found) = $0 { found } else { nil } }
    }

    public mutating func signedInPlaces(_ read: PlacesRead) -> Read<SignedInPlaces> {
        add(.signedInPlaces(read)) { if case .signedInPlaces(let found) = $0 { found } else { nil } }
    }

    public mutating func send(_ reference: SendReference) -> Read<SendRecord?> {
        add(.send(reference)) { if case .send(let found) = $0 { found } else { nil } }
    }

    /// A sliding-window limit of `max` events of `kind` per `window` for `subject`: full while
    /// its max-th newest event is in the window.
    public mutating func limit(
        _ kind: EventKind, of subject: String, max: Int, per window: TimeInterval, now: Double
    ) -> Read<LimitWindow> {
        add(
            .events(
                RecentEvents(
                    kind: kind, subject: subject, since: now - window, position: max - 1,
                    until: now + SignInRules.clockSkew))
        ) {
            if case .events(let at) = $0 { LimitWindow(nthNewest: at, length: window) } else { nil }
        }
    }

    /// The phone's lock window: its wrong codes in ``SignInPolicy/failuresPerPhoneWindow``, full
    /// at ``SignInPolicy/maxFailuresPerPhone`` (sending, checking and the code's status all read
    /// it the same way).
    public mutating func phoneLock(of phone: String, _ policy: SignInPolicy, now: Double) -> Read<LimitWindow> {
        limit(.phoneFailures, of: phone, max: policy.maxFailuresPerPhone, per: policy.failuresPerPhoneWindow, now: now)
    }

    /// The spend budget's window of `length` from `now`, full once what the sends in it cost
    /// reaches `reaching`.
    public mutating func budget(_ length: TimeInterval, reaching: Int, now: Double) -> Read<BudgetWindow> {
        add(.cost(AllSends(since: now - length, reaching: reaching, until: now + SignInRules.clockSkew))) {
            if case .cost(let count) = $0 { BudgetWindow(count: count, length: length) } else { nil }
        }
    }

    public mutating func settledCodes(_ window: SettledCodes) -> Read<Conversion> {
        add(.settledCodes(window)) { if case .settledCodes(let found) = $0 { found } else { nil } }
    }

    public mutating func deliveries(since: Double, settledBy: Double) -> Read<Deliveries> {
        add(.deliveries(since: since, settledBy: settledBy)) { if case .deliveries(let found) = $0 { found } else { nil } }
    }

    /// The challenge stored under `key`; no key (an answer whose challenge does not parse)
    /// reads nothing and finds none.
    public mutating func passkeyChallenge(_ key: Data?) -> Read<PasskeyChallenge?> {
        guard let key else { return .known(nil) }
        return add(.passkeyChallenge(key: key)) { if case .passkeyChallenge(let found) = $0 { found } else { nil } }
    }

    public mutating func passkey(_ credentialID: Data) -> Read<PasskeyRecord?> {
        add(.passkey(credentialID: credentialID)) { if case .passkey(let found) = $0 { found } else { nil } }
    }

    public mutating func userPasskeys(_ user: Int64) -> Read<UserPasskeys> {
        add(.userPasskeys(user: user)) { if case .userPasskeys(let found) = $0 { found } else { nil } }
    }

    /// Optional so that a plan that does not read it can say `.known(nil)`.
    public mutating func numberOwners(user: Int64, phone: String) -> Read<NumberOwners?> {
        add(.numberOwners(user: user, phone: phone)) { if case .numberOwners(let found) = $0 { found } else { nil } }
    }

    public mutating func recoveryCode(phone: String, digest: Data, account: Int64? = nil) -> Read<RecoveryCodeMatch> {
        add(.recoveryCode(phone: phone, digest: digest, account: account)) {
            if case .recoveryCode(let found) = $0 { found } else { nil }
        }
    }

    public mutating func accountNumber(user: Int64) -> Read<AccountNumber?> {
        add(.accountNumber(user: user)) { if case .accountNumber(let found) = $0 { found } else { nil } }
    }

    public mutating func providerHealth(_ channel: DeliveryChannel) -> Read<ProviderHealth> {
        add(.providerHealth(channel)) { if case .providerHealth(let found) = $0 { found } else { nil } }
    }

    /// Optional so that a plan that does not read it can say `.known(nil)`.
    public mutating func dormancy(phone: String, device: Data?, now: Double) -> Read<Dormancy?> {
        add(.dormancy(phone: phone, device: device, now: now)) { if case .dormancy(let found) = $0 { found } else { nil } }
    }
}

/// A handle on one read of a ``ReadList``: its answer, typed. A read the request makes
/// pointless (no session cookie, a text rather than a call) is ``known(_:)``: its value is
/// decided by the plan, in plain sight, and the store is not asked.
public struct Read<Value: Sendable>: Sendable {
    fileprivate enum Source: Sendable {
        case answer(index: Int, pick: @Sendable (AuthAnswer) -> Value?)
        case known(Value)
    }

    fileprivate let source: Source

    fileprivate init(index: Int, pick: @escaping @Sendable (AuthAnswer) -> Value?) {
        source = .answer(index: index, pick: pick)
    }

    private init(known value: Value) {
        source = .known(value)
    }

    /// A value the plan knows without reading.
    public static func known(_ value: Value) -> Read { Read(known: value) }
}

/// A store's answers to a ``ReadList``, in order. A missing or mismatched answer (a store that
/// skipped a read) is a ``StoredDataCorrupt`` for that request: a decision never runs on less
/// than it asked for.
public struct Answers: Sendable {
    private let answers: [AuthAnswer]

    /// Checks that `answers` has one answer for each of `list`'s reads.
    public init(_ answers: [AuthAnswer], to list: ReadList) throws {
        guard answers.count == list.reads.count else {
            throw StoredDataCorrupt("the store answered \(answers.count) of \(list.reads.count) reads")
        }
        self.answers = answers
    }

    public subscript<Value>(_ read: Read<Value>) -> Value {
        get throws {
            switch read.source {
            case .known(let value): return value
            case .answer(let index, let pick):
                guard answers.indices.contains(index), let value = pick(answers[index]) else {
                    throw StoredDataCorrupt("the store's answer \(index) is not of the kind read")
                }
                return value
            }
        }
    }
}

/// A plan of a single read, whose answer is the decision's whole input.
public struct SingleRead<Value: Sendable>: ReadPlan {
    public let list: ReadList
    private let read: Read<Value>

    /// `add` adds the one read to an empty list (with `locks`).
    public init(locks: [AuthLock] = [], _ add: (inout ReadList) -> Read<Value>) {
        var list = ReadList(locks: locks)
        read = add(&list)
        self.list = list
    }

    public func found(in answers: Answers) throws -> Value { try answers[read] }
}
