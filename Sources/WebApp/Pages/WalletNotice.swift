import HTTPLite
import WalletCore
import Wording

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
    func saying(in request: Request) -> Phrase? {
        guard let value = request.cookie(Self.cookieName) else { return nil }
        let parts = value.split(separator: ".", maxSplits: 1).map(String.init)
        guard let action = parts.first.flatMap(Receipt.Action.init(rawValue:)) else { return nil }
        let amount = parts.count == 2 ? Int64(parts[1]).map { Money(cents: $0).description } : nil
        return Self.saying(action, amount: amount)
    }

    /// "Deposited $12.34.", or without an amount "Deposit made.".
    static func saying(_ action: Receipt.Action, amount: String?) -> Phrase {
        func with(_ key: String, or plain: String) -> Phrase {
            amount.map { Phrase(key, ["amount": .text($0)]) } ?? Phrase(plain)
        }
        return switch action {
        case .addAccount: Phrase("wallet.notice.addAccount")
        case .setName: Phrase("wallet.notice.setName")
        case .deposit: with("wallet.notice.deposited", or: "wallet.notice.deposit")
        case .withdraw: with("wallet.notice.withdrew", or: "wallet.notice.withdraw")
        case .transfer: with("wallet.notice.transferred", or: "wallet.notice.transfer")
        case .rename: Phrase("wallet.notice.rename")
        case .delete: Phrase("wallet.notice.delete")
        }
    }
}
