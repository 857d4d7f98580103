import AuthCore
import HTTPLite

/// The remembered-device cookie ("Remember this phone for 30 days" on Verify): `device`, or
/// `__Host-device` with `Secure` over HTTPS. It holds a random 256-bit token the server stores
/// only as a SHA-256, `HttpOnly` and `SameSite=Lax`, and is replaced at each use.
struct DeviceCookie: Sendable {
    let name: String
    let secure: Bool
    let maxAge: Int

    init(https: Bool, lifetime: Int) {
        self.name = https ? "__Host-device" : "device"
        self.secure = https
        self.maxAge = lifetime
    }

    /// The token this browser holds; a value of any other shape is ignored.
    func token(in request: Request) -> SessionToken? {
        request.cookie(name).flatMap(SessionToken.init)
    }

    func remember(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, maxAge: maxAge, secure: secure)
    }

    func forget() -> Cookie {
        Cookie.expired(name: name, secure: secure)
    }
}
