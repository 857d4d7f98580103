import AuthCore
import Foundation

/// Whether an operator's request may see the console, and act in it. Pure: decided from the
/// session the request came with, whether the operator has a passkey, and when the console last
/// answered this session (its idle cookie).
///
/// A text never opens the console: it takes a sign-in (or a "Confirm it's you") with one of the
/// operator's passkeys. Acting takes that proof within ``proofWithin`` (10 minutes); looking on
/// takes it within that, or a console page answered within ``idleWithin`` (15 minutes) of the
/// last, so a console left open on a desk closes itself.
public enum ConsoleAccess: Sendable, Equatable {
    /// Not an operator (or signed out): the console's addresses are unknown pages.
    case unknownPage
    /// An operator who has no passkey yet: the console says how to add one.
    case needsPasskey
    /// An operator whose passkey proof is missing or stale: the console asks for it again.
    case needsProof
    /// The console is open; `canAct`: the proof is fresh enough to change anything.
    case open(canAct: Bool)

    /// How long a passkey proof lets an operator act.
    public static let proofWithin: TimeInterval = 600
    /// How long the console stays open between two of its pages.
    public static let idleWithin: TimeInterval = 900

    /// - Parameters:
    ///   - session: the request's signed-in session; nil signed out.
    ///   - hasPasskey: whether the operator has a passkey that is not turned off.
    ///   - lastSeen: when the console last answered this session (its idle cookie), if it did.
    public static func decide(
        operators: Operators, session: SessionRecord?, hasPasskey: Bool, lastSeen: Double?, now: Date
    ) -> ConsoleAccess {
        guard let session, session.userID != nil, let phone = session.userPhone, operators.contains(phone) else {
            return .unknownPage
        }
        guard hasPasskey else { return .needsPasskey }
        guard session.method == .passkey else { return .needsProof }
        let now = now.timeIntervalSince1970
        let proved = SignInRules.hasHappened(session.createdAt, by: now) && now - session.createdAt <= proofWithin
        if proved { return .open(canAct: true) }
        if let lastSeen, SignInRules.hasHappened(lastSeen, by: now), now - lastSeen <= idleWithin {
            return .open(canAct: false)
        }
        return .needsProof
    }
}
