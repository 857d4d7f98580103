import AuthCore
import ConsoleCore
import HTTPLite

// Who may see the console, said once: the ``OperatorGate`` let only listed operators this far;
// these contexts say what each may do there.

/// An operator, whatever their proof: the page that asks for the passkey (or says how to add one).
struct ConsoleVisitorContext: AppChildContext {
    var app: AppContext
    let user: User
    let access: ConsoleAccess

    init(context: AppContext) throws {
        (user, access) = try Self.operator(of: context)
        app = context
    }

    /// The operator the gate let in, and what it decided; the unknown page for anyone else (the
    /// gate already refused them: said again, so no route can be reached without it).
    static func `operator`(of context: AppContext) throws -> (User, ConsoleAccess) {
        guard let user = context.user, let access = context.console, access != .unknownPage else {
            throw OperatorGate.unknownPage
        }
        return (user, access)
    }
}

/// The console's pages: an operator with an open console (a passkey proof within 10 minutes, or
/// a console page within the last 15); anyone else is sent to prove it with their passkey.
struct OperatorContext: AppChildContext {
    var app: AppContext
    let user: User
    /// The proof is fresh enough to act: the pages offer their actions.
    let canAct: Bool

    init(context: AppContext) throws {
        let (user, access) = try ConsoleVisitorContext.operator(of: context)
        guard case .open(let canAct) = access else { throw Redirect.toConsoleProof(next: context.consoleNext) }
        (app, self.user, self.canAct) = (context, user, canAct)
    }

    /// Who the events name.
    var actor: Actor { .console(phone: user.phone.e164) }
}

/// A console action: an operator whose passkey proof is within 10 minutes. An older one is
/// asked for again first, and the action is not taken.
struct ActingOperatorContext: AppChildContext {
    var app: AppContext
    let user: User

    init(context: AppContext) throws {
        let (user, access) = try ConsoleVisitorContext.operator(of: context)
        guard access == .open(canAct: true) else { throw Redirect.toConsoleProof(next: context.consoleNext) }
        (app, self.user) = (context, user)
    }

    var actor: Actor { .console(phone: user.phone.e164) }
}

extension Redirect {
    /// The console's "Use your passkey" page, returning to `next` (a console path).
    static func toConsoleProof(next: String) -> Redirect {
        Redirect(location: "/admin/proof?" + URLEncodedForm([("next", next)]).encoded)
    }
}
