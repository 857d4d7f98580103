import AccountCore
import Foundation
import AuthCore
import HTTPLite
import WalletCore

extension Pages {
    /// "Your account" (`/account`): the number and since when, how the person signs in, and the
    /// three actions (change the number, download the data, delete the account).
    /// - Parameters:
    ///   - calls: whether codes can come by call (the methods say so).
    ///   - connectedApps: whether the OpenID Connect provider is on (the count is shown).
    func yourAccount(
        _ summary: AccountSummary, phone: PhoneNumber, calls: Bool, connectedApps: Bool, notice: String? = nil,
        error: (any AnsweringError)? = nil
    ) throws -> Response {
        let national = phone.nationalFormat
        return try page(
            "your-account",
            [
                "phone": national, "sinceISO": Self.iso(summary.phoneSince), "since": Self.when(summary.phoneSince, words),
                "createdISO": Self.iso(summary.createdAt), "created": Self.when(summary.createdAt, words),
                "calls": calls,
                "passkeys": summary.passkeys == 0 ? "" : words.plural("yourAccount.passkeyCount", count: summary.passkeys),
                "remembered": String(summary.rememberedPhones), "showsApps": connectedApps,
                "recoveryHint": summary.recoveryCodesLeft == 0
                    ? words("yourAccount.recoveryHint")
                    : words.plural("yourAccount.recovery.left", count: summary.recoveryCodesLeft),
                "hasNotice": notice != nil, "hasError": error != nil, "hasPasskeys": summary.passkeys > 0,
                "apps": String(summary.connectedApps), "notice": notice ?? "",
                "error": sentence(error, triesLeft: nil), "pageAddress": "/account",
            ], answering: error)
    }

    /// "Change your number": the new number's field (`newPhone` nil), then the code sent to it.
    func changeNumber(
        csrf: String, phone: PhoneNumber, newPhone: PhoneNumber? = nil, typed: String = "", notice: String? = nil,
        error: (any AnsweringError)? = nil, triesLeft: Int? = nil
    ) throws -> Response {
        try page(
            "account-phone",
            [
                "csrf": csrf, "phone": phone.nationalFormat, "newPhone": newPhone?.nationalFormat ?? "",
                "newPhoneE164": newPhone?.e164 ?? "", "entering": newPhone != nil, "typed": typed,
                "notice": notice ?? "", "hasError": error != nil, "error": sentence(error, triesLeft: triesLeft),
                "pageAddress": newPhone == nil ? "/account/phone" : "/account/phone/code",
            ], answering: error)
    }

    /// "Recovery codes": how many are left and a button that makes a new set; or, just made,
    /// the codes themselves (shown this once) with a text file of them to save.
    /// `replaces`: the set the form's new codes replace (``AccountController/setName(_:)``);
    /// `alreadyMade`: a form posted again after its set was replaced, so nothing was made.
    func recoveryCodes(
        csrf: String, phone: PhoneNumber, left: Int, codes: [String]? = nil, replaces: String = "none",
        alreadyMade: Bool = false, replaced: Bool = false
    ) throws -> Response {
        var values: [String: Any] = [
            "csrf": csrf, "pageAddress": "/account/recovery", "hasCodes": left > 0, "replaces": replaces,
            "alreadyMade": alreadyMade,
            "left": left == 0 ? words("yourAccount.recovery.none") : words.plural("yourAccount.recovery.left", count: left),
        ]
        if let codes {
            let header = words("yourAccount.recovery.fileHeader", ["phone": phone.nationalFormat])
            let file = ([header, ""] + codes).joined(separator: "\n") + "\n"
            values["showing"] = true
            // What a printout says it is: the service and the number, as the file does.
            values["printHeader"] = header
            values["replaced"] = replaced
            // No language link while they are shown: following it would lose them.
            values["pageAddress"] = nil
            values["codes"] = codes.map { ["code": $0] }
            values["download"] =
                "data:text/plain;charset=utf-8,"
                + (file.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            // Shown once: a reload of the page that made them must not show them from a cache.
        }
        return try page("account-recovery", values, answering: nil)
    }

    /// "Download your data": what the file holds, and the link that saves it.
    func downloadData() throws -> Response {
        try page("account-download", ["pageAddress": "/account/download"], answering: nil)
    }

    /// "Delete your account?": what goes, and the button; while money is held, why not and where
    /// to withdraw it instead (no button).
    func deleteAccount(csrf: String, phone: PhoneNumber, moneyHeld: Money?, refused: Bool = false) throws -> Response {
        try page(
            "account-delete",
            [
                "csrf": csrf, "phone": phone.nationalFormat, "pageAddress": "/account/delete", "holdsMoney": moneyHeld != nil,
                "moneyHeld": moneyHeld.map { words("yourAccount.delete.moneyHeld", ["amount": $0.description]) } ?? "",
            ], answering: refused ? DeletionRefused.moneyHeld : nil)
    }
}
