import AccountCore
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import HTTPLite
import HTTPTypes
import WalletCore

/// The operators' console's pages (``ConsoleController``). Everything a person or an app put in
/// (a browser's name, a passkey's, an app's) is shown escaped, like everywhere else.
extension Pages {
    /// "Use your passkey to open the console", or, for an operator without one, how to add one.
    func consoleProof(csrf: String, next: String, hasPasskey: Bool, phone: PhoneNumber, failed: Bool = false)
        throws -> Response
    {
        try page(
            "admin-proof",
            [
                "csrf": csrf, "next": next, "hasPasskey": hasPasskey, "phone": phone.e164, "failed": failed,
                "pageAddress": "/admin/proof?" + URLEncodedForm([("next", next)]).encoded,
            ], answering: nil)
    }

    /// The console's first page: find a person by their number. `typed` and `error`: a search
    /// that found nobody, or was no number.
    func consoleFirst(
        csrf: String, glance: Glance, appsOn: Bool = false, deleted: Bool = false, typed: String = "",
        error: ConsoleRefusal? = nil
    ) throws -> Response {
        var values = glanceValues(glance)
        values.merge([
            "hasApps": appsOn, "notice": deleted ? words("console.done.delete-account") : "",
            "csrf": csrf, "typed": String(typed.prefix(64)), "hasError": error != nil,
            "error": error.map { sentence($0) } ?? "", "pageAddress": "/admin",
        ]) { _, new in new }
        return try page("admin", values, answering: error)
    }

    /// A person's page: their account, how it stands, where they are signed in, their passkeys
    /// and apps, the codes sent to them, their wallet's balances and their recent activity; with
    /// `canAct`, the actions (each with a reason). `done`: the action just taken; `refused`: the
    /// action refused, and why (said beside its form).
    func consolePerson(
        _ person: ConsolePerson, csrf: String, canAct: Bool, done: OperatorAction? = nil,
        refused: (OperatorAction, ConsoleRefusal)? = nil, typedReason: String = ""
    ) throws -> Response {
        let account = person.account
        let phone = person.user.phone.nationalFormat
        let actionQuery = URLEncodedForm([("phone", phone)]).encoded
        // In the heading, the number breaks only at its space, never at its hyphen.
        let shownPhone = phone.replacingOccurrences(of: "-", with: "\u{2011}")
        let sessions: [[String: Any]] = account.sessions.sorted { $0.lastSeenAt > $1.lastSeenAt }.map { session in
            [
                "description": session.api ? words("devices.apiToken") : UserAgentDescription.describe(session.userAgent, words),
                "userAgent": session.userAgent ?? "", "hasUserAgent": session.userAgent != nil,
                "method": words("console.method." + (["sms", "tel", "passkey", "device"].contains(session.signedInWith) ? session.signedInWith : "sms")),
                "signedInISO": Self.iso(session.createdAt.timeIntervalSince1970),
                "signedInAt": Self.when(session.createdAt.timeIntervalSince1970, words),
                "lastSeenISO": Self.iso(session.lastSeenAt.timeIntervalSince1970),
                "lastSeenAt": Self.when(session.lastSeenAt.timeIntervalSince1970, words),
            ]
        }
        let remembered: [[String: Any]] = account.rememberedPhones.map { device in
            [
                "description": UserAgentDescription.describe(device.userAgent, words),
                "userAgent": device.userAgent ?? "", "hasUserAgent": device.userAgent != nil,
                "usedISO": Self.iso(device.lastUsedAt.timeIntervalSince1970),
                "usedAt": Self.when(device.lastUsedAt.timeIntervalSince1970, words),
            ]
        }
        let passkeys: [[String: Any]] = person.passkeys.map { passkey in
            [
                "id": String(passkey.id), "name": passkey.name, "flagged": passkey.flaggedAt != nil,
                "createdISO": Self.iso(passkey.createdAt), "createdAt": Self.when(passkey.createdAt, words),
                "removeLabel": words("console.labels.removePasskey", ["name": passkey.name]),
            ]
        }
        let apps: [[String: Any]] = person.apps.map { app in
            [
                "client": app.consent.clientID, "name": app.name ?? app.consent.clientID,
                "grantedISO": Self.iso(app.consent.grantedAt), "grantedAt": Self.when(app.consent.grantedAt, words),
                "disconnectLabel": words("console.labels.disconnect", ["app": app.name ?? app.consent.clientID]),
            ]
        }
        let codes: [[String: Any]] = account.codesSent.suffix(10).reversed().map { code in
            [
                "sentISO": Self.iso(code.sentAt.timeIntervalSince1970),
                "sentAt": Self.when(code.sentAt.timeIntervalSince1970, words),
                "channel": words(code.channel == "voice" ? "console.channel.call" : "console.channel.text"),
                "status": words.has("activity.delivery." + code.status) ? words("activity.delivery." + code.status) : code.status,
                "used": code.verifiedAt != nil,
            ]
        }
        let wallet: [[String: Any]] = account.wallet.map { wallet in
            ["name": wallet.name, "balance": Money(cents: wallet.balanceCents).description]
        }
        let status = words("console.status." + person.status.rawValue)
        func refusal(_ action: OperatorAction) -> String {
            guard let refused, refused.0 == action else { return "" }
            return sentence(refused.1)
        }
        var values: [String: Any] = [
            "dormant": person.status == .dormant, "holder": String(person.user.id),
            "detached": detachedValues(person.detached), "hasDetached": !person.detached.isEmpty,
        ]
        values.merge(
            [
                "csrf": csrf, "phone": shownPhone, "actionQuery": actionQuery, "canAct": canAct,
                "status": status, "locked": person.status == .locked,
                "lockedFor": person.lockedFor.map { words("console.person.lockLifts", ["wait": words.wait(seconds: $0)]) } ?? "",
                "createdISO": Self.iso(account.account.createdAt.timeIntervalSince1970),
                "createdAt": Self.when(account.account.createdAt.timeIntervalSince1970, words),
                "lastSignInISO": Self.iso(account.account.lastSignInAt.timeIntervalSince1970),
                "lastSignInAt": Self.when(account.account.lastSignInAt.timeIntervalSince1970, words),
                "sessions": sessions, "hasSessions": !sessions.isEmpty,
                "remembered": remembered, "hasRemembered": !remembered.isEmpty,
                "passkeys": passkeys, "hasPasskeys": !passkeys.isEmpty,
                "apps": apps, "hasApps": !apps.isEmpty,
                "codes": codes, "hasCodes": !codes.isEmpty,
                "wallet": wallet, "hasWallet": !wallet.isEmpty,
                "activity": activityLines(person.activity),
                "hasActivity": !person.activity.isEmpty,
                "notice": done.map { words("console.done." + ConsoleController.path(of: $0)) } ?? "",
                "hasError": refused != nil,
                "signOutError": refusal(.signOutEverywhere), "unlockError": refusal(.unlock),
                "passkeyError": refusal(.removePasskey), "appError": refusal(.disconnectApp),
                "deleteError": refusal(.deleteAccount),
                // Said first, where the focus goes, whichever form was refused; the typed reason kept.
                "errorSummary": refused.map { sentence($0.1) } ?? "",
                "signOutReason": refused?.0 == .signOutEverywhere ? typedReason : "",
                "unlockReason": refused?.0 == .unlock ? typedReason : "",
                "deleteReason": refused?.0 == .deleteAccount ? typedReason : "",
                "proofLink": "/admin/proof?" + URLEncodedForm([("next", "/admin/people?" + actionQuery)]).encoded,
                "pageAddress": "/admin/people?" + actionQuery,
            ] as [String: Any]
        ) { _, new in new }
        return try page("admin-person", values, answering: refused?.1)
    }

    /// A refusal's sentence.
    func sentence(_ refusal: ConsoleRefusal) -> String {
        switch refusal {
        case .noAccount(let phone): words(refusal.key, ["phone": phone.nationalFormat])
        case .moneyHeld(let cents): words(refusal.key, ["amount": Money(cents: cents).description])
        case .notLocked: words(refusal.key)
        default: words(refusal.key)
        }
    }
}

extension Pages {
    /// "Add the passkey that opens the console" (an enrollment link); `token` nil: the link is
    /// used, expired, or another operator's. `refusal`: the browser's passkey was refused (the
    /// link is used up: a new one is needed).
    func consoleEnroll(
        csrf: String, token: String?, status: HTTPResponse.Status = .ok, refusal: PasskeyError? = nil
    ) throws -> Response {
        let query = token.map { URLEncodedForm([("token", $0)]).encoded } ?? ""
        var response = try page(
            "admin-enroll",
            [
                "csrf": csrf, "live": token != nil, "query": query,
                "hasRefusal": refusal != nil, "refusal": refusal.map { words($0.saying) } ?? "",
                "pageAddress": "/admin/enroll" + (query.isEmpty ? "" : "?" + query),
            ], answering: refusal)
        if refusal == nil, token == nil { response.status = status }
        return response
    }
}

extension Pages {
    /// Accounts detached from a number, for the list that offers to move each to a new one.
    func detachedValues(_ detached: [DetachedAccountSummary]) -> [[String: String]] {
        detached.map { account in
            [
                "account": String(account.user),
                "createdISO": Self.iso(account.createdAt), "createdAt": Self.when(account.createdAt, words),
                "detachedISO": Self.iso(account.detachedAt), "detachedAt": Self.when(account.detachedAt, words),
            ]
        }
    }

    /// A number no account holds, with the accounts detached from it.
    func consoleDetached(phone: PhoneNumber, detached: [DetachedAccountSummary], csrf: String, canAct: Bool) throws
        -> Response
    {
        let query = URLEncodedForm([("phone", phone.nationalFormat)]).encoded
        return try page(
            "admin-detached",
            [
                "csrf": csrf, "canAct": canAct, "phone": phone.nationalFormat, "phoneQuery": query,
                "detached": detachedValues(detached),
                "proofLink": "/admin/proof?" + URLEncodedForm([("next", "/admin/people?" + query)]).encoded,
                "pageAddress": "/admin/people?" + query,
            ], answering: nil)
    }

    /// Moving an account to a number the person proves: the new number (`newPhone` nil), then
    /// the code they read out, with a reason.
    func consoleAttach(
        csrf: String, query: String, old: PhoneNumber, newPhone: PhoneNumber?, typed: String = "",
        error: (any AnsweringError)? = nil
    ) throws -> Response {
        let sentence: String =
            switch error {
            case let refusal as ConsoleRefusal: self.sentence(refusal)
            case let error?: self.sentence(error, triesLeft: nil)
            case nil: ""
            }
        return try page(
            "admin-attach",
            [
                "csrf": csrf, "query": query, "old": old.nationalFormat, "entering": newPhone != nil,
                "newPhone": newPhone?.nationalFormat ?? "", "typed": String(typed.prefix(64)),
                "hasError": error != nil, "error": sentence,
                "back": "/admin/people?" + URLEncodedForm([("phone", old.nationalFormat)]).encoded,
                "pageAddress": "/admin/people/attach/code?" + query,
            ], answering: error)
    }
}
