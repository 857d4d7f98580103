import AuthCore
import Foundation
import HTMLRender
import HTTPLite
import HTTPTypes
import WalletCore
import Wording

/// The app's pages: one method per template, taking typed values, returning a response with
/// `Cache-Control: no-store` (every page depends on the session, so the back button must not
/// show a stale one).
///
/// A form shown again after a refusal takes the error itself: its sentence goes on the page, its
/// status and headers (`Retry-After`) on the response, as the error says (``AnsweringError``).
struct Pages: Sendable {
    static let templateNames = [
        "layout", "login", "verify", "verify-help", "home", "account", "devices", "error", "not-allowed", "logout",
        "consent", "passkey-remove", "confirm", "your-account", "account-phone", "account-delete",
        "account-download", "account-recovery", "recover", "claim", "activity", "admin", "admin-proof", "admin-person", "admin-apps", "admin-enroll", "admin-attach", "admin-detached",
    ]
    /// The static files pages link, by the name templates use (`{{asset.css}}`).
    static let assetNames = [
        "css": "app.css", "icon": "favicon.svg", "loginJS": "login.js", "verifyJS": "verify.js",
        "countdownJS": "countdown.js", "deliveryJS": "delivery.js",
        "passkeysJS": "passkeys.js", "localTimeJS": "local-time.js", "printJS": "print.js",
        "consoleCSS": "console.css",
    ]
    let renderer: PageRenderer
    /// Every word of every page, in every language (`Locales/`).
    let wording: Wording
    /// The language of the pages this value renders (``in(_:)``).
    private(set) var words: Catalog
    /// Each language's catalog as the templates read it (`{{t.login.title}}`), made once.
    private let templateWords: TemplateWords
    /// SMS test mode: every page says at the top that every code is 123456, so nobody takes a
    /// test server for the real one (or leaves one running unnoticed).
    var testMode = false
    /// The app's clock: when a limit ends, said on the page.
    var clock: @Sendable () -> Date = { Date() }
    /// The static files, for their content-hashed addresses (`/public/app.3f2a1c9e.css`).
    var assets: StaticAssets? = nil
    /// Passkeys are on: Login offers signing in with one, Home and "Your devices" creating one.
    var passkeys = false

    /// Longest typed phone text echoed back into the form.
    static let maxEchoedInput = 64

    init(
        renderer: PageRenderer, wording: Wording, testMode: Bool = false,
        clock: @escaping @Sendable () -> Date = { Date() },
        assets: StaticAssets? = nil, passkeys: Bool = false
    ) {
        self.passkeys = passkeys
        self.renderer = renderer
        self.wording = wording
        self.words = wording[.english]
        self.templateWords = TemplateWords(wording)
        self.testMode = testMode
        self.clock = clock
        self.assets = assets
    }

    /// These pages in `language`.
    func `in`(_ language: Language) -> Pages {
        var pages = self
        pages.words = wording[language]
        return pages
    }

    /// - Parameter remembered: `phone` is the number that last signed in on this browser
    ///   (the page offers "Not you?").
    /// - Parameter notice: a sentence that is no error of the form (why the person is here).
    /// - Parameter sentCodeExpiry: after a refused text, when the code already sent still works,
    ///   how long it lasts ("It expires in 7 minutes."): the page offers to enter it.
    /// - Parameter continuingTo: gateway mode: the protected app's host signing in returns to.
    /// - Parameter continueAs: the number this phone is remembered for (a device cookie): the
    ///   page offers "Continue as (•••) •••-0123", the one way in without a code, and "Forget
    ///   this phone" ("Also forget this phone" right after Log out, `afterSignOut`).
    func login(
        csrf: String, phone: String = "", remembered: Bool = false, notice: String? = nil,
        sentCodeExpiry: String? = nil, offersCall: Bool = false, continuingTo: String? = nil,
        error: (any AnsweringError)? = nil, signingInTo app: String? = nil, passkeyRefusal: (any AnsweringError)? = nil,
        continueAs: PhoneNumber? = nil, afterSignOut: Bool = false
    ) throws -> Response {
        var response = try page(
            "login",
            [
                "csrf": csrf, "phone": String(phone.prefix(Self.maxEchoedInput)), "remembered": remembered,
                "continuesAs": continueAs != nil, "forgets": remembered || continueAs != nil,
                "continueAs": continueAs.map { words("login.continueAs", ["phone": $0.hiddenNationalFormat]) } ?? "",
                "continueAsLabel": continueAs.map { words("login.continueAsLabel", ["last4": $0.lastFour]) } ?? "",
                "rememberedFor": continueAs.map { words("login.rememberedFor", ["last4": $0.lastFour]) } ?? "",
                "forgetPhone": words(afterSignOut ? "login.alsoForgetPhone" : "login.forgetPhone"),
                "error": error.map(sentence(for:)) ?? "", "hasError": error != nil, "notice": notice ?? "",
                "retryAt": retryAt(error).map(String.init) ?? "", "countsDown": retryAt(error) != nil,
                "offersSentCode": sentCodeExpiry != nil, "sentCodeExpiry": sentCodeExpiry ?? "", "offersCall": offersCall,
                "continuingTo": continuingTo ?? "", "continues": continuingTo != nil, "pageAddress": "/login",
                "passkeys": passkeys, "forApp": app != nil, "passkeyFailed": passkeyRefusal != nil,
                "passkeyError": passkeyRefusal.map(sentence(for:)) ?? "",
                "appTitle": app.map { words("login.titleFor", ["app": $0]) } ?? "",
                "appLead": app.map { words("login.forApp", ["app": $0]) } ?? "",
                "notForApp": app.map { words("login.notForApp", ["app": $0]) } ?? "",
            ], answering: error ?? passkeyRefusal)
        // Login reflects what the address says (a return address, `rd=`): next to a phone number
        // (remembered, or the one being signed in), its compressed size could give the number away
        // to someone guessing it through that parameter (BREACH), so such a Login goes as it is.
        if !phone.isEmpty { response.keepUncompressed() }
        return response
    }

    /// - Parameters:
    ///   - codeLifetime: how long a code lasts, said on the page ("expires in 10 minutes").
    ///   - triesLeft: after a wrong code, the tries the code has left, said after the error.
    ///   - delivery: what the provider reported of the last text or call: a text that did not
    ///     arrive is said at the top, with "Call me with the code instead" when calls are offered.
    func verify(
        csrf: String, phone: PhoneNumber, resendWait: Int, codeLifetime: Double = 600, triesLeft: Int? = nil,
        notice: String? = nil, delivery: DeliveryView? = nil, error: (any AnsweringError)? = nil,
        signingInTo app: String? = nil
    ) throws -> Response {
        let digits: [[String: Any]] = (1...6).map { ["index": $0, "first": $0 == 1] }
        var values: [String: Any] = [
            "csrf": csrf, "phone": phone.nationalFormat, "digits": digits, "resendWait": resendWait,
            "notice": notice ?? "", "error": sentence(error, triesLeft: triesLeft), "hasError": error != nil,
            "retryAt": retryAt(error).map(String.init) ?? "", "countsDown": retryAt(error) != nil,
            "minutes": Int(codeLifetime / 60), "codeError": Self.isAboutTheCode(error), "pageAddress": "/verify",
            "expiresIn": words.plural("verify.expiresIn", count: Int(codeLifetime / 60)),
            "dead": Self.leavesNothingToType(error), "locked": Self.isLock(error),
            "forApp": app != nil, "appLead": app.map { words("login.forApp", ["app": $0]) } ?? "",
        ]
        // Only a code that will not come is news worth the top of Verify (the template shows the
        // sentence only then); the rest is on the help page.
        values.merge(Self.deliveryValues(delivery)) { $1 }
        return try page("verify", values, answering: error)
    }

    /// The error's sentence, with the tries left when there are any ("Incorrect verification
    /// code. You have 3 tries left.").
    func sentence(_ error: (any AnsweringError)?, triesLeft: Int?) -> String {
        guard let error else { return "" }
        guard let triesLeft, triesLeft > 0 else { return sentence(for: error) }
        return words.plural("verify.triesLeft", count: triesLeft, ["error": sentence(for: error)])
    }

    /// A code that was typed wrong (or not six digits): the boxes are marked invalid.
    private static func isAboutTheCode(_ error: (any AnsweringError)?) -> Bool {
        guard let error = error as? SignInError else { return false }
        return error == .malformedCode || error == .incorrectCode
    }

    /// After these no typed code can work: the page offers only what can be done next (a new
    /// code, another number), not empty boxes and a Verify button.
    private static func leavesNothingToType(_ error: (any AnsweringError)?) -> Bool {
        guard let error = error as? SignInError else { return false }
        switch error {
        case .tooManyAttempts, .codeExpired, .phoneLocked: return true
        default: return false
        }
    }

    /// A locked number gets no texts: no Resend either, only another number.
    private static func isLock(_ error: (any AnsweringError)?) -> Bool {
        if case .phoneLocked = error as? SignInError { return true }
        return false
    }

    /// How the history dates an operation: "23 Nov 2026, 07:41 UTC". The server does not know
    /// the person's time zone, so it says which one it uses; the `<time>` element carries the
    /// exact instant.
    static func historyDate(_ language: Language) -> DateFormatter {
        utcFormatter("d MMM yyyy, HH:mm 'UTC'", language)
    }

    /// The page for an error no form shows: its status's name and its sentence.
    func error(_ error: any AnsweringError) throws -> Response {
        let status = "status.\(error.status.code)"
        return try page(
            "error",
            [
                "reason": words.has(status) ? words(status) : error.status.reasonPhrase,
                "message": error.wording.map { words($0) } ?? error.message,
            ], answering: error)
    }

    /// A formatter of UTC dates in `pattern`, with `language`'s month names: every date a page
    /// shows is day first, in 24 hours, in both languages. Made once per pattern and language
    /// (``UTCFormatters``), never per page or per date.
    static func utcFormatter(_ pattern: String, _ language: Language) -> DateFormatter {
        UTCFormatters.shared.formatter(pattern, language)
    }

    /// Renders `name`; with `error`, the response has the error's status and headers.
    /// - Parameter assetOrigin: put before the static files' addresses: a page served on another
    ///   host (the gateway's 403, shown by the proxy on the protected app's host) links them here.
    func page(
        _ name: String, _ values: [String: Any], answering error: (any AnsweringError)?, assetOrigin: String = ""
    ) throws -> Response {
        var values = values
        values["testMode"] = testMode
        values["t"] = templateWords[words.language]
        if values["countsDown"] as? Bool == true {
            // countdown.js's words for the wait it counts down, and the part of the sentence
            // that says it now.
            let (seconds, minutes, hours) = (
                words.forms("time.seconds"), words.forms("time.minutes"), words.forms("time.hours")
            )
            values["waitWords"] = [
                "in": words("time.in", ["duration": "{duration}"]), "now": words("time.now"),
                "secondOne": seconds.one, "secondOther": seconds.other, "minuteOne": minutes.one,
                "minuteOther": minutes.other, "hourOne": hours.one, "hourOther": hours.other,
            ]
            if values["waitPhrase"] == nil, let seconds = (error as? SignInError)?.retryAfter {
                values["waitPhrase"] = words.wait(seconds: seconds)
            }
        }
        values["lang"] = words.language.code
        // The link to the other language: back to this page's own address, which the language
        // middleware remembers and returns to.
        let other: Language = words.language == .english ? .spanish : .english
        values["otherLang"] = other.code
        // A page with no address of its own here (the gateway's 403 on another host) has none.
        if let address = values["pageAddress"] as? String ?? (name == "error" ? "" : nil) {
            values["switchHref"] = address + (address.contains("?") ? "&" : "?") + "lang=" + other.code
        }
        values["asset"] = Self.assetNames.reduce(into: [String: String]()) { names, file in
            names[file.key] = assetOrigin + "/public/" + (assets?.versioned(file.value) ?? file.value)
        }
        var response = Response.html(try renderer.render(name, values), status: error?.status ?? .ok)
        if let error { response.headers.append(contentsOf: error.headers) }
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
