import AccountCore
import ArgumentParser
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import OIDCCore

/// `webapp admin`: the console's help for a person, from a shell (for scripts, and for an operator
/// locked out of the console). Works on the database the server uses; each action takes a
/// reason and records the same event as the console's, naming `shell` as the operator.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp admin",
        abstract: "Help a person with their account from the shell: find, sign-out-everywhere, unlock; apps.",
        subcommands: [Find.self, SignOutEverywhere.self, Unlock.self, Enroll.self, Apps.self])

    /// The person a command names, and the answer's form.
    struct Person: ParsableArguments {
        @Argument(help: "Their US phone number, as a person types it.")
        var phone: String

        @Flag(help: "Answer in JSON (one object).")
        var json = false

        func number() throws -> PhoneNumber {
            do {
                return try PhoneNumber(parsing: phone)
            } catch {
                throw ValidationError("Not a US phone number: \(phone.prefix(64)).")
            }
        }
    }

    /// Why, for an action's event.
    struct Why: ParsableArguments {
        @Option(help: "Why (3 to 500 characters): kept with the change, as in the console.")
        var reason: String

        func validate() throws {
            _ = try actionReason()
        }

        func actionReason() throws -> ActionReason {
            do {
                return try ActionReason(reason)
            } catch .missing {
                throw ValidationError("--reason: say why, in a few words.")
            } catch .tooLong {
                throw ValidationError("--reason: 500 characters at most.")
            }
        }
    }

    struct Find: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "find", abstract: "How the account a number holds stands.")
        @OptionGroup var person: Person
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let phone = try person.number()
            let json = person.json
            let policy = try database.serverConfiguration().policy
            try await database.withStorage(label: "webapp-admin") { storage in
                let now = Date().timeIntervalSince1970
                guard let id = try await storage.account.account(holding: phone.e164),
                    let account = try await storage.account.export(user: id, now: now)
                else { throw AdminCommand.failure("No account holds \(phone.nationalFormat).") }
                let (status, lockedFor) = try await OperatorActions(store: storage.auth, policy: policy)
                    .status(of: phone, dormantAfter: policy.dormantAfter, now: now)
                let found = Found(
                    phone_number: phone.e164, status: status.rawValue, locked_for_seconds: lockedFor,
                    created_at: account.account.createdAt.ISO8601Format(),
                    last_sign_in_at: account.account.lastSignInAt.ISO8601Format(),
                    sessions: account.sessions.count, remembered_phones: account.rememberedPhones.count,
                    passkeys: account.passkeys.count, connected_apps: account.connectedApps.count,
                    wallet_accounts: account.wallet.count)
                AdminCommand.print(found, json: json) {
                    """
                    \(phone.nationalFormat): \(status.rawValue)\(lockedFor.map { " (for \($0) s more)" } ?? "")
                    created \(found.created_at), last signed in \(found.last_sign_in_at)
                    \(found.sessions) signed in, \(found.remembered_phones) remembered phones, \(found.passkeys) passkeys, \
                    \(found.connected_apps) connected apps, \(found.wallet_accounts) wallet accounts
                    """
                }
            }
        }

        struct Found: Encodable {
            let phone_number: String
            let status: String
            let locked_for_seconds: Int?
            let created_at: String
            let last_sign_in_at: String
            let sessions: Int
            let remembered_phones: Int
            let passkeys: Int
            let connected_apps: Int
            let wallet_accounts: Int
        }
    }

    struct SignOutEverywhere: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-out-everywhere",
            abstract: "End every sign-in of the account the number holds, and forget its remembered phones.")
        @OptionGroup var person: Person
        @OptionGroup var why: Why
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let json = person.json
            try await AdminCommand.act(.signOutEverywhere, person, why, database) { actions, user, event in
                let ended = try await actions.signOutEverywhere(of: user, recording: event)
                AdminCommand.print(["ended": ended], json: json) {
                    "Signed \(user.phone.nationalFormat) out everywhere: \(ended) sign-ins and remembered phones ended."
                }
            }
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock", abstract: "Lift the lock after too many wrong codes, and forget the wrong codes.")
        @OptionGroup var person: Person
        @OptionGroup var why: Why
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let json = person.json
            try await AdminCommand.act(.unlock, person, why, database) { actions, user, event in
                // Nothing to lift: nothing done, nothing recorded.
                let wasLocked = try await actions.lockedFor(user.phone) != nil
                if wasLocked { try await actions.liftLock(on: user.phone, recording: event) }
                AdminCommand.print(["was_locked": wasLocked], json: json) {
                    wasLocked
                        ? "Lifted the lock on \(user.phone.nationalFormat)."
                        : "\(user.phone.nationalFormat) is not locked: nothing was done."
                }
            }
        }
    }

    /// One action from the shell: the number's account found (or a refusal), its event made
    /// naming `shell`, and `body` run with both on the server's database.
    static func act(
        _ action: OperatorAction, _ person: Person, _ why: Why, _ database: DatabaseOptions,
        _ body: @escaping @Sendable (OperatorActions, User, Event) async throws -> Void
    ) async throws {
        let (phone, reason) = (try person.number(), try why.actionReason())
        let policy = try database.serverConfiguration().policy
        try await database.withStorage(label: "webapp-admin") { storage in
            guard let id = try await storage.account.account(holding: phone.e164) else {
                throw AdminCommand.failure("No account holds \(phone.nationalFormat).")
            }
            let event = action.event(user: id, by: .shell, reason: reason, at: Date().timeIntervalSince1970)
            try await body(OperatorActions(store: storage.auth, policy: policy), User(id: id, phone: phone), event)
        }
    }

    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll",
            abstract: "An enrollment link: an operator adds the passkey that opens the console (once, 15 minutes).")
        @OptionGroup var person: Person
        @Option(
            name: .customLong("public-url"),
            help: "The site's address, for the link (also from WEBAPP_PUBLIC_URL); without it, the path alone.")
        var publicURL: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let phone = try person.number()
            let json = person.json
            let site = publicURL ?? (try? database.serverConfiguration().publicURL) ?? nil
            let (token, sha256) = Enrollment.newToken()
            try await database.withStorage(label: "webapp-admin") { storage in
                let expires = Date().addingTimeInterval(Enrollment.lifetime)
                try await storage.console.addEnrollment(
                    tokenSHA256: sha256, phone: phone.e164, expiresAt: expires.timeIntervalSince1970)
                let link = (site.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + "/admin/enroll?token=" + token
                AdminCommand.print(["link": link, "expires_at": expires.ISO8601Format()], json: json) {
                    """
                    For \(phone.nationalFormat), once, until \(expires.ISO8601Format()): sign in with that number, \
                    then open
                    \(link)
                    """
                }
            }
        }
    }

    /// Writes `value` as one JSON object, or `text`.
    static func print<Value: Encodable>(_ value: Value, json: Bool, text: () -> String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        } else {
            FileHandle.standardOutput.write(Data((text() + "\n").utf8))
        }
    }

    /// A refusal that is no usage error (the number holds no account): said, exit status 1.
    static func failure(_ message: String) -> any Error {
        FileHandle.standardError.write(Data(("Error: " + message + "\n").utf8))
        return ExitCode.failure
    }
}
