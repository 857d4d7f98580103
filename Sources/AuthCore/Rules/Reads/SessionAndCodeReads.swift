import Foundation

/// A session and a phone's code, read together (taking a code back after a failed send).
public struct SessionAndCodeReads: ReadPlan {
    public let list: ReadList
    private let session: Read<SessionRecord?>
    private let code: Read<StoredCode?>

    init(session key: Data?, phone: PhoneNumber, locks: [AuthLock]) {
        var list = ReadList(locks: locks)
        session = list.session(key)
        code = list.code(phone.e164)
        self.list = list
    }

    public func found(in answers: Answers) throws -> SessionAndCode {
        SessionAndCode(session: try answers[session], code: try answers[code])
    }
}

/// What ``SessionAndCodeReads`` found.
public struct SessionAndCode: Sendable, Equatable {
    var session: SessionRecord?
    var code: StoredCode?
}
