import AuthCore
import HTTPLite
import HTTPTypes
import WalletCore
import Wording

// What each domain error answers over HTTP, said once: its status, the headers it must carry
// and the sentence for the person. Pages (``ErrorMiddleware/pages(_:)``, the forms shown again) and the JSON
// API (``APIError``) both start from here; only the body differs between them.

/// A sign-in refusal: the Login or Verify form comes back with it, or the API's JSON.
extension SignInError: AnsweringError {
    /// A text that could not be sent, or may not be sent now (the spend budget is used up), is
    /// our side's trouble (503); a limit says how long to wait (429); anything else is what
    /// was typed (422).
    public var status: HTTPResponse.Status {
        if case .textsUnavailable = self { return .serviceUnavailable }
        if case .callsUnavailable = self { return .serviceUnavailable }
        if case .deliveryPaused = self { return .serviceUnavailable }
        if self == .deliveryFailed || self == .callFailed { return .serviceUnavailable }
        return retryAfter == nil ? .unprocessableContent : .tooManyRequests
    }

    public var headers: HTTPFields {
        guard let retryAfter else { return [:] }
        return [.retryAfter: String(retryAfter)]
    }

    public var message: String { description }
    public var phrase: Phrase? { saying }
}

/// A wallet refusal: the Home or account form comes back with it, or the API's JSON.
extension WalletError: AnsweringError {
    /// Someone else's account is 404, the same as one that does not exist; every other refusal
    /// is the form coming back with its reason (422).
    public var status: HTTPResponse.Status {
        self == .accountNotFound ? .notFound : .unprocessableContent
    }

    public var message: String { description }
    public var phrase: Phrase? { saying }
}

/// A passkey refused: the page it came from says why, or the API's JSON.
extension PasskeyError: AnsweringError {
    /// A passkey that signs no one in is 401; one that is not the person's (or passkeys being
    /// off) 404; a limit or a name 422; anything the browser sent that does not check out 400.
    public var status: HTTPResponse.Status {
        switch self {
        case .unknownPasskey, .notYours, .turnedOff, .counterWentBack: .unauthorized
        case .unavailable, .noSuchPasskey: .notFound
        case .tooMany, .alreadyRegistered, .badName: .unprocessableContent
        case .challengeExpired, .malformed, .refused, .storedKeyUnreadable: .badRequest
        case .tooManyRequests: .tooManyRequests
        case .operatorProofNeeded: .forbidden
        }
    }

    public var headers: HTTPFields {
        guard case .tooManyRequests(let seconds) = self else { return [:] }
        return [.retryAfter: String(seconds)]
    }

    public var message: String { description }
    public var phrase: Phrase? { saying }
}

/// "Change your number" refused: the account's own number is what was typed (422); the new
/// number has its own account, or the account moved meanwhile (409).
extension NumberChangeError: AnsweringError {
    public var status: HTTPResponse.Status { self == .sameNumber ? .unprocessableContent : .conflict }
    public var message: String { description }
    public var phrase: Phrase? { saying }
}

/// "Lost your phone or number?" refused: a limit is 429 with how long to wait; a proof or a
/// question that went stale 409 (start again); anything else is what was typed (422).
extension RecoveryError: AnsweringError {
    public var status: HTTPResponse.Status {
        if retryAfter != nil { return .tooManyRequests }
        return self == .proofExpired || self == .claimEnded ? .conflict : .unprocessableContent
    }

    public var headers: HTTPFields {
        guard let retryAfter else { return [:] }
        return [.retryAfter: String(retryAfter)]
    }

    public var message: String { description }
    public var phrase: Phrase? { saying }
}

/// A sign-in to an account whose number may have changed hands: nobody was signed in (409). The
/// pages never show it (they ask "Is this your account?"); the API says which proofs get past it.
extension DormantAccount: AnsweringError {
    public var status: HTTPResponse.Status { .conflict }
    public var message: String {
        waysBack.passkey || waysBack.recoveryCode
            ? "This number's account has not been used for a long time and may be someone else's: prove it is yours with one of its recovery codes, or say the number is new to you for a fresh account."
            : "This number's account has not been used for a long time and may be someone else's; it has no recovery code or passkey, so the number can only start a fresh account."
    }
    public var phrase: Phrase? { nil }
}

/// A passkey of an account detached from its number (409): the pages go on to give it a new
/// number; the API gives the `recovery_id` that does.
extension DetachedAccount: AnsweringError {
    public var status: HTTPResponse.Status { .conflict }
    public var message: String {
        "This passkey's account has no number now (its old one went to someone new): give it a new number, as after a recovery code."
    }
    public var phrase: Phrase? { nil }
}

/// Why the account was not deleted: its money is the person's (409; the page says where to
/// withdraw it, the API how much is held).
enum DeletionRefused: AnsweringError {
    case moneyHeld

    var status: HTTPResponse.Status { .conflict }
    var message: String { "The wallet still holds money: withdraw it before deleting the account." }
    var phrase: Phrase? { nil }
}

/// A database that did not answer in time: the same 503 on pages and in the API.
extension StorageUnavailable: AnsweringError {
    /// Nothing was decided: 503, and try again in a few seconds.
    public var status: HTTPResponse.Status { .serviceUnavailable }

    public var headers: HTTPFields { [.retryAfter: Self.retryAfter] }

    public var message: String { Self.message }
    public var phrase: Phrase? { Phrase("http.unavailable") }
}

/// A value the database's CHECK constraints refused after the rules let it through: what was
/// typed cannot be kept, so 422 and a plain sentence (the constraint itself stays in the log).
extension SchemaCheckFailed: AnsweringError {
    public var status: HTTPResponse.Status { .unprocessableContent }

    public var message: String { "That cannot be saved. Please check what you entered and try again." }
    public var phrase: Phrase? { Phrase("http.cannotSave") }
}

/// Sends the browser elsewhere with 303: what a page answers when it does not apply to this
/// visitor (a signed-out person on Home goes to Login, a signed-in one on Login goes to Home).
///
/// Thrown by the contexts of route groups (``SignedInContext``), whose router returns
/// ``response`` as the route's answer, so it passes back out through the session middleware
/// like any handler's redirect.
struct Redirect: AnsweringError {
    let location: String
    /// Cookies the redirect sets (a notice for the page it leads to).
    var cookies: [Cookie] = []

    static let toLogin = Redirect(location: "/login")
    static let toHome = Redirect(location: "/home")

    /// To "Confirm it's you", which returns to `next` (a path on this site) afterwards.
    static func toConfirm(next: String) -> Redirect {
        Redirect(location: "/confirm?" + URLEncodedForm([("next", Confirmation.safeNext(next))]).encoded)
    }

    /// To Login, which then says once "Your sign-in expired. Please enter your phone number
    /// again." (``LoginNotice``); `secure` with `--https`.
    static func toLoginExpired(secure: Bool) -> Redirect {
        Redirect(location: "/login", cookies: [LoginNotice.expired.cookie(secure: secure)])
    }

    var status: HTTPResponse.Status { .seeOther }
    var headers: HTTPFields {
        var headers: HTTPFields = [.location: location]
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie.headerValue)) }
        return headers
    }
    var message: String { "See \(location)." }
    var phrase: Phrase? { Phrase("http.seeOther", ["location": .text(location)]) }
    var response: Response {
        var response = Response.redirect(to: location)
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }
}

/// What the pages and the API answer an error that does not know its answer: a 500 that
/// reveals nothing.
extension StatusError {
    static let unexplained = StatusError(
        .internalServerError, Phrase("http.internal"), message: "Something went wrong on our side. Please try again.")
}
