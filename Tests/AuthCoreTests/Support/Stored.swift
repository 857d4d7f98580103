import DeliveryCore
import Foundation

@testable import AuthCore

/// What a store holds, as the rules' tests state it, answering any ``AuthRead`` the way a store
/// would: a decision's input is built through its own plan (``ReadPlan/found(in:)``), so the
/// tests run the pairing of each read with its answer as the app does.
struct Stored {
    var session: SessionRecord?
    var code: StoredCode?
    var heldCode: HeldCode?
    var device: DeviceRecord?
    var places = SignedInPlaces(sessions: [], devices: [])
    var send: SendRecord?
    /// The time of the event at each limit's position (the max-th newest), where there is one.
    var events: [EventKind: Double?] = [:]
    var textsInHour: SendCount?
    var textsInDay: SendCount?
    /// What the settled codes of any prefix (an exchange, or every number) come to.
    var conversion: Conversion?
    var deliveries = Deliveries(delivered: 0, notDelivered: 0)
    var passkeyChallenge: PasskeyChallenge?
    var passkey: PasskeyRecord?
    var userPasskeys = UserPasskeys(handle: nil, offerDismissed: false, passkeys: [])
    var numberOwners = NumberOwners(accountPhone: nil, phoneHolder: nil)
    var recoveryCode = RecoveryCodeMatch(user: nil, matches: false, unused: 0)
    var dormancy: Dormancy?
    /// The provider's health on whichever channel is read.
    var provider = ProviderHealth()
    /// The time the reads are made at: tells the budget's hour from its day.
    var now: Double = 1_800_000_000

    func answer(_ read: AuthRead) -> AuthAnswer {
        switch read {
        case .session: .session(session)
        case .code: .code(code)
        case .heldCode: .heldCode(heldCode)
        case .device: .device(device)
        case .signedInPlaces: .signedInPlaces(places)
        case .send: .send(send)
        case .events(let window): .events(at: events[window.kind] ?? nil)
        case .cost(let sends):
            .cost((now - sends.since <= 3600 ? textsInHour : textsInDay) ?? SendCount(count: 0, reachedAt: nil))
        case .settledCodes: .settledCodes(conversion ?? Conversion(sent: 0, verified: 0))
        case .deliveries: .deliveries(deliveries)
        case .passkeyChallenge: .passkeyChallenge(passkeyChallenge)
        case .passkey: .passkey(passkey)
        case .userPasskeys: .userPasskeys(userPasskeys)
        case .numberOwners: .numberOwners(numberOwners)
        case .recoveryCode: .recoveryCode(recoveryCode)
        case .dormancy: .dormancy(dormancy)
        case .accountNumber: .accountNumber(nil)
        case .providerHealth: .providerHealth(provider)
        }
    }

    /// What `plan` finds here. Every kind of read is answered, so this cannot fail unless a plan
    /// pairs a read with the wrong kind of answer: a bug worth stopping the tests for.
    func found<Plan: ReadPlan>(_ plan: Plan) -> Plan.Found {
        try! plan.found(in: Answers(plan.list.reads.map(answer), to: plan.list))
    }
}

extension SignInRules {
    func issue(_ request: CodeIssue, given stored: Stored) -> AuthDecision<IssueOutcome> {
        issue(request, given: stored.found(issueReads(request)))
    }

    func proveRecovery(_ request: RecoveryProof, given stored: Stored) -> AuthDecision<RecoveryOutcome> {
        proveRecovery(request, given: stored.found(recoveryReads(request)))
    }

    func check(_ request: CodeCheck, given stored: Stored) -> AuthDecision<CheckOutcome> {
        check(request, given: stored.found(checkReads(request)))
    }

    func withdraw(
        phone: PhoneNumber, codeDigest: Data, pendingSession: Data?, keepCount: Bool = false, given stored: Stored
    ) -> AuthDecision<Void> {
        withdraw(
            phone: phone, codeDigest: codeDigest, pendingSession: pendingSession, keepCount: keepCount,
            given: stored.found(withdrawReads(phone: phone, pendingSession: pendingSession)))
    }

    func recordDelivery(
        _ report: DeliveryReport, for reference: SendReference, at now: Date, given stored: Stored
    ) -> AuthDecision<DeliveryRecorded> {
        recordDelivery(report, for: reference, at: now, given: stored.found(deliveryReads(reference)))
    }

    func rememberedSignIn(_ request: RememberedSignIn, given stored: Stored) -> AuthDecision<Bool> {
        rememberedSignIn(request, given: stored.found(rememberedSignInReads(request)))
    }

    func health(at now: Date, given stored: Stored) -> SignInHealth {
        health(given: stored.found(healthReads(now: now)))
    }
}

extension ReadList {
    /// The sliding window of `kind` this list reads, if it reads one.
    func window(_ kind: EventKind) -> RecentEvents? {
        for read in reads { if case .events(let events) = read, events.kind == kind { return events } }
        return nil
    }

    /// The budget windows it reads, in order.
    var budgets: [AllSends] {
        reads.compactMap { if case .cost(let sends) = $0 { sends } else { nil } }
    }

    /// The settled-codes windows it reads, in order.
    var settled: [SettledCodes] {
        reads.compactMap { if case .settledCodes(let window) = $0 { window } else { nil } }
    }
}
