import AuthCore
import HTTPLite

extension Pages {
    /// Where a recovery stands ("Lost your phone or number?").
    enum RecoveryStep {
        /// The old number and a recovery code (`typed`: the number as typed, shown again).
        case prove(typed: String)
        /// Proved: the new number (`account`: the number the account is on now; nil when it was
        /// detached from its number).
        case newNumber(account: PhoneNumber?, typed: String)
        /// The code sent to the new number.
        case code(newPhone: PhoneNumber)
    }

    /// "Lost your phone or number?": each step on one page, its form and what went wrong.
    func recover(
        _ step: RecoveryStep, csrf: String, notice: String? = nil, error: (any AnsweringError)? = nil,
        triesLeft: Int? = nil
    ) throws -> Response {
        var values: [String: Any] = [
            "csrf": csrf, "notice": notice ?? "", "hasError": error != nil,
            "error": sentence(error, triesLeft: triesLeft), "passkeys": passkeys,
        ]
        switch step {
        case .prove(let typed):
            values["proving"] = true
            values["typed"] = typed
            values["pageAddress"] = "/recover"
        case .newNumber(let account, let typed):
            values["choosing"] = true
            values["onANumber"] = account != nil
            values["phone"] = account?.nationalFormat ?? ""
            values["typed"] = typed
            values["pageAddress"] = "/recover/phone"
        case .code(let newPhone):
            values["entering"] = true
            values["newPhone"] = newPhone.nationalFormat
            values["newPhoneE164"] = newPhone.e164
            values["pageAddress"] = "/recover/code"
        }
        return try page("recover", values, answering: error)
    }
}
