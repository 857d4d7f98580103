import AuthCore
import HTTPLite

/// The code sent to a new number, kept beside whatever else the browser holds by a
/// ``PendingCodeCookie``: shared by "Change your number" (`/account/phone`) and "Lost your phone
/// or number?" (`/recover`), which differ in who the person is, not in how the code is held.
struct NewNumberCode: Sendable {
    let signIn: SignInService
    let pending: PendingCodeCookie

    /// The pending session and the number this person's code went to, while it can be typed.
    func sent(_ request: Request, for user: User) async throws -> (SessionToken, PhoneNumber)? {
        try await sent(request, forAccount: user.id)
    }

    func sent(_ request: Request, forAccount account: Int64) async throws -> (SessionToken, PhoneNumber)? {
        guard let token = pending.token(in: request, forAccount: account),
            case .pending(let phone) = try await signIn.state(of: token)
        else { return nil }
        return (token, phone)
    }

    /// What the code page says of the send its address names (`?sent=1`: a code went now;
    /// `?sent=0`: the one sent less than the cooldown ago is still the one to type).
    static func notice(_ request: Request, to phone: PhoneNumber, in words: Pages) -> String? {
        switch request.query["sent"] {
        case "1": words.words("yourAccount.phone.sent", ["phone": phone.nationalFormat])
        case "0": words.words("verify.notice.onItsWay", ["phone": phone.nationalFormat])
        default: nil
        }
    }
}
