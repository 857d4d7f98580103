import AuthCore
import HTTPLite

/// The cookies of passkeys on the pages.
///
/// - The challenge cookie binds a sign-in challenge to the browser that asked for it: Login's
///   script asks for options, the answer is checked against the challenge stored under this
///   cookie's token (its SHA-256), and nothing else. It lives as long as the challenge, on
///   `/login/passkey` only.
/// - The offer cookie says Home should offer to create a passkey: set at a sign-in by text when
///   the person has none and never said "Not now"; cleared by "Not now" and by creating one.
///   It only decides what Home shows: the person's answer is kept in the database.
struct PasskeyCookies: Sendable {
    let secure: Bool

    static let challengePath = "/login/passkey"
    /// With `--https` the names carry `__Secure-`: a sibling subdomain cannot plant them.
    var challengeName: String { (secure ? "__Secure-" : "") + "passkey-challenge" }
    var offerName: String { (secure ? "__Secure-" : "") + "passkey-offer" }
    var noticeName: String { (secure ? "__Secure-" : "") + "passkey-notice" }

    /// - Parameter path: where the answer goes (`/confirm/passkey` for "Confirm it's you").
    func challenge(_ token: SessionToken, path: String = Self.challengePath) -> Cookie {
        Cookie(
            name: challengeName, value: token.value, path: path,
            maxAge: Int(SignInRules.passkeyChallengeLifetime), secure: secure)
    }

    func challengeToken(in request: Request) -> SessionToken? {
        request.cookie(challengeName).flatMap(SessionToken.init)
    }

    var challengeCleared: Cookie { challengeCleared(path: Self.challengePath) }

    func challengeCleared(path: String) -> Cookie { Cookie.expired(name: challengeName, path: path, secure: secure) }

    /// For a day: the Home the sign-in lands on, and a reload of it.
    var offer: Cookie { Cookie(name: offerName, value: "1", path: "/home", maxAge: 86_400, secure: secure) }

    func offers(in request: Request) -> Bool { request.cookie(offerName) == "1" }

    var offerCleared: Cookie { Cookie.expired(name: offerName, path: "/home", secure: secure) }

    /// "Passkey added." (and its kin) on the devices page the change lands on, once.
    func notice(_ notice: PasskeyNotice) -> Cookie {
        Cookie(name: noticeName, value: notice.rawValue, path: "/devices", maxAge: 60, secure: secure)
    }

    func notice(in request: Request) -> PasskeyNotice? {
        request.cookie(noticeName).flatMap(PasskeyNotice.init)
    }

    var noticeCleared: Cookie { Cookie.expired(name: noticeName, path: "/devices", secure: secure) }

    /// Which of the person's passkeys this browser made (its row id): "Your devices" then says
    /// so instead of offering "Add a passkey", which the browser would refuse ("This device
    /// already keeps a passkey for you"). A year; it only decides what the page offers, and a
    /// removed passkey's id matches nothing, so the offer comes back.
    var hereName: String { (secure ? "__Secure-" : "") + "passkey-here" }

    func here(_ id: Int64) -> Cookie {
        Cookie(name: hereName, value: String(id), path: "/devices", maxAge: 365 * 86_400, secure: secure)
    }

    func hereID(in request: Request) -> Int64? { request.cookie(hereName).flatMap { Int64($0) } }
}

/// What the devices page says after a passkey changed.
enum PasskeyNotice: String, Sendable {
    case added, renamed, removed

    var key: String { "passkeys.notice.\(rawValue)" }
}
