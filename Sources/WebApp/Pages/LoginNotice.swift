import AuthCore
import HTTPLite
import Wording

/// Why the person is on Login, said there once: "Your sign-in expired. Please enter your phone
/// number again." Carried from the redirect that sends them there in a short-lived cookie that
/// Login clears, so a reload does not say it again (`?expired=1` in the address did, every
/// time, and stayed in bookmarks and shared links).
enum LoginNotice: String, Sendable {
    /// The sign-in in progress ended (its code's time ran out, or it ended elsewhere).
    case expired
    /// The person pressed Log out ("You've signed out."); a remembered phone is then offered
    /// to be forgotten too.
    case signedOut
    /// The person deleted their account ("Your account was deleted.").
    case deleted

    static let cookieName = "login-notice"
    /// Long enough for the redirect to be followed on a slow network.
    static let maxAge = 60

    /// What Login says.
    var saying: Phrase {
        switch self {
        case .expired: SignInError.noPendingSignIn.saying
        case .signedOut: Phrase("login.notice.signedOut")
        case .deleted: Phrase("login.notice.deleted")
        }
    }

    /// The cookie that carries this notice to Login; `secure` with `--https`.
    func cookie(secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: rawValue, path: "/login", maxAge: Self.maxAge, secure: secure)
    }

    /// The notice the request's cookie carries, if any (an unknown value says nothing).
    init?(in request: Request) {
        guard let value = request.cookie(Self.cookieName) else { return nil }
        self.init(rawValue: value)
    }

    /// The cookie that drops the notice once Login has shown it.
    static func cleared(secure: Bool) -> Cookie {
        Cookie.expired(name: cookieName, path: "/login", secure: secure)
    }
}
