import AuthCore
import HTTPLite

/// The number that last signed in on this browser, so Login can fill it in next time (as the
/// original app did).
///
/// Its own long-lived cookie, apart from the session: it survives logout, is `HttpOnly` (page
/// scripts never see the number), and holds only E.164 digits. What comes back is parsed as a
/// ``PhoneNumber`` again, so a tampered value is ignored, never echoed. "Not you?" on Login
/// clears it.
struct RememberedPhoneCookie: Sendable {
    let name: String
    let secure: Bool
    /// One year: browsers cap cookie lifetimes at about 400 days anyway.
    static let maxAge = 365 * 24 * 60 * 60

    init(https: Bool) {
        self.name = https ? "__Host-last-phone" : "last-phone"
        self.secure = https
    }

    func phone(in request: Request) -> PhoneNumber? {
        request.cookie(name).flatMap { try? PhoneNumber(parsing: $0) }
    }

    func remember(_ phone: PhoneNumber) -> Cookie {
        Cookie(name: name, value: phone.e164, maxAge: Self.maxAge, secure: secure)
    }

    func forget() -> Cookie {
        Cookie.expired(name: name, secure: secure)
    }
}
