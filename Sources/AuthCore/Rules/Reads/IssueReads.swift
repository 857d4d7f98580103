import DeliveryCore
import Foundation

/// What ``SignInRules/issue(_:given:)`` reads: the asking session, the phone's code, its
/// failures in the lock window (as ``CheckReads`` reads them), every sending window (the
/// number, its calls, the client, the exchange, the budget, the exchange's settled codes) and
/// the provider's health on the channel.
/// Every send is locked, since the budget is one count for all, and so is the phone.
public struct IssueReads: ReadPlan {
    public let list: ReadList
    private let session: Read<SessionRecord?>
    private let code: Read<StoredCode?>
    private let phoneFailures: Read<LimitWindow>
    private let clientSignIns: Read<LimitWindow>
    private let budgetHour: Read<BudgetWindow>
    private let budgetDay: Read<BudgetWindow>
    private let phoneSends: Read<LimitWindow>
    private let phoneCalls: Read<LimitWindow>
    private let clientSends: Read<LimitWindow>
    private let exchangeSends: Read<LimitWindow>
    private let exchangeConversion: Read<Conversion>
    private let provider: Read<ProviderHealth>

    init(_ request: CodeIssue, rules: SignInRules) {
        let policy = rules.policy
        let now = request.now.timeIntervalSince1970
        let phone = request.phone.e164
        let exchange = SignInRules.exchange(of: request.phone)
        let cost = rules.cost(request)
        var list = ReadList(locks: [.allSends, .phone(phone)])
        session = list.session(request.existingSession)
        code = list.code(phone)
        phoneFailures = list.phoneLock(of: phone, policy, now: now)
        // Only a new pending session counts as a sign-in started, and only a known client has a
        // count.
        if let client = request.client, request.newSession != nil {
            clientSignIns = list.limit(
                .clientSignIns, of: client, max: policy.maxSignInsPerClient, per: policy.signInsPerClientWindow,
                now: now)
        } else {
            clientSignIns = .known(.notCounted)
        }
        phoneSends = list.limit(
            .phoneSends, of: phone, max: policy.maxCodesPerPhone, per: policy.codesPerPhoneWindow, now: now)
        phoneCalls =
            request.channel == .voice
            ? list.limit(
                .phoneCalls, of: phone, max: policy.maxCallsPerPhone, per: policy.callsPerPhoneWindow, now: now)
            : .known(.notCounted)
        clientSends =
            request.client.map {
                list.limit(
                    .clientSends, of: $0, max: policy.maxCodesPerClient, per: policy.codesPerClientWindow, now: now)
            } ?? .known(.notCounted)
        exchangeSends = list.limit(
            .exchangeSends, of: exchange, max: policy.maxTextsPerExchange, per: policy.textsPerExchangeWindow, now: now)
        // The budget's windows are full once the new send would take them past the budget. Read
        // after the limit windows, so that those are one run (a store reads a run in one statement).
        budgetHour = list.budget(3600, reaching: max(1, policy.maxTextsPerHour - cost + 1), now: now)
        budgetDay = list.budget(86_400, reaching: max(1, policy.maxTextsPerDay - cost + 1), now: now)
        exchangeConversion = list.settledCodes(rules.settledCodes(exchange, now: now))
        provider = list.providerHealth(request.channel)
        self.list = list
    }

    public func found(in answers: Answers) throws -> IssueFound {
        IssueFound(
            session: try answers[session], code: try answers[code], phoneFailures: try answers[phoneFailures],
            clientSignIns: try answers[clientSignIns], budgetHour: try answers[budgetHour],
            budgetDay: try answers[budgetDay], phoneSends: try answers[phoneSends], phoneCalls: try answers[phoneCalls],
            clientSends: try answers[clientSends], exchangeSends: try answers[exchangeSends],
            exchangeConversion: try answers[exchangeConversion], provider: try answers[provider])
    }
}

/// What ``IssueReads`` found: everything ``SignInRules/issue(_:given:)`` decides on. Built only
/// from a plan's reads (or, in the rules' tests, by hand).
public struct IssueFound: Sendable, Equatable {
    var session: SessionRecord?
    var code: StoredCode?
    var phoneFailures: LimitWindow
    var clientSignIns: LimitWindow
    var budgetHour: BudgetWindow
    var budgetDay: BudgetWindow
    var phoneSends: LimitWindow
    var phoneCalls: LimitWindow
    var clientSends: LimitWindow
    var exchangeSends: LimitWindow
    var exchangeConversion: Conversion
    var provider: ProviderHealth = ProviderHealth()
}
