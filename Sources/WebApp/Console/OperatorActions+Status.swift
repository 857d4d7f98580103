import AuthCore
import ConsoleCore

extension OperatorActions {
    /// How the account on `phone` stands at `now` (ConsoleCore's ``PersonStatus``), and the
    /// seconds its lock has left: the console's person page and `webapp admin find` alike.
    func status(of phone: PhoneNumber, dormantAfter: Double, now: Double) async throws
        -> (status: PersonStatus, lockedFor: Int?)
    {
        let lockedFor = try await lockedFor(phone)
        let status = PersonStatus.of(
            lockedFor: lockedFor, numberProvedAt: try await numberProvedAt(phone), now: now, dormantAfter: dormantAfter)
        return (status, lockedFor)
    }
}
