import HTTPLite
import WalletCore

/// The sentence shown once after a wallet change ("Deposited $12.34."), carried from the POST's
/// 303 to the next page in a short-lived cookie that the page clears, so a reload or Back never
/// shows it again (a `?done=` in the address did, every time).
///
/// The cookie says only what the person just did on this browser (`deposit.1234`); a forged one
/// can change nothing but the sentence on one's own page.
struct WalletNotice: Sendable {
    static let cookieName = "done"
    /// Long enough for the redirect to be followed on a slow network.
    static let maxAge = 60
    /// Sent only over HTTPS (`--https`).
    let secure: Bool

    /// The cookie for `receipt`; `amount` is the one typed, said for money changes.
    func cookie(after receipt: Receipt, amount: Money?) -> Cookie {
        let value = receipt.action.rawValue + (amount.map { ".\($0.cents)" } ?? "")
        return Cookie(name: Self.cookieName, value: value, path: "/", maxAge: Self.maxAge, secure: secure)
    }

    /// The cookie that drops the notice once a page has shown it.
    var cleared: Cookie { Cookie.expired(name: Self.cookieName, path: "/", secure: secure) }

    /// The sentence the request's cookie carries, if any (an unknown value says nothing).
    func sentence(in request: Request) -> String? {
        guard let value = request.cookie(Self.cookieName) else { return nil }
        let parts = value.split(separator: ".", maxSplits: 1).map(String.init)
        guard let action = parts.first.flatMap(Receipt.Action.init(rawValue:)) else { return nil }
        let amount = parts.count == 2 ? Int64(parts[1]).map { Money(cents: $0).description } : nil
        return Self.sentence(action, amount: amount)
    }

    /// "Deposited $12.34.", or without an amount "Deposit made.".
    static func sentence(_ action: Receipt.Action, amount: String?) -> String {
        switch action {
        case .addAccount: "Account added."
        case .setName: "Name saved."
        case .deposit: amount.map { "Deposited \($0)." } ?? "Deposit made."
        case .withdraw: amount.map { "Withdrew \($0)." } ?? "Withdrawal made."
        case .transfer: amount.map { "Transferred \($0)." } ?? "Transfer made."
        case .rename: "Account renamed."
        case .delete: "Account deleted."
        }
    }
}
