import Foundation

/// What the Verify page's status of a number reads (``SignInService/codeStatus(for:)``): the
/// phone's code, and its failures in the lock window (a locked number is offered no new code,
/// by text or call, on a reload as on the answer that locked it).
public struct CodeStatusReads: ReadPlan {
    public let list: ReadList
    private let code: Read<StoredCode?>
    private let phoneFailures: Read<LimitWindow>

    init(_ phone: PhoneNumber, now: Double, policy: SignInPolicy) {
        var list = ReadList()
        code = list.code(phone.e164)
        phoneFailures = list.phoneLock(of: phone.e164, policy, now: now)
        self.list = list
    }

    public func found(in answers: Answers) throws -> CodeStatusFound {
        CodeStatusFound(code: try answers[code], phoneFailures: try answers[phoneFailures])
    }
}

/// What ``CodeStatusReads`` found.
public struct CodeStatusFound: Sendable, Equatable {
    var code: StoredCode?
    var phoneFailures: LimitWindow
}
