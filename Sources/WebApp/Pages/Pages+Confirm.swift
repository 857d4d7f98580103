import AuthCore
import HTTPLite

extension Pages {
    /// "Confirm it's you": first "Text me a code" to the person's own number; then (`entering`)
    /// the code's field, "Text me a new code" and, where calls are offered, a call.
    /// - Parameter next: the path on this site the page returns to once confirmed.
    func confirm(
        csrf: String, phone: PhoneNumber, next: String, entering: Bool, offersCall: Bool = false,
        notice: String? = nil, error: SignInError? = nil, triesLeft: Int? = nil, passkeys: Bool = false,
        refusal: (any AnsweringError)? = nil
    ) throws -> Response {
        let shown: (any AnsweringError)? = error ?? refusal
        return try page(
            "confirm",
            [
                "csrf": csrf, "phone": phone.nationalFormat, "next": next, "entering": entering,
                "offersCall": offersCall, "notice": notice ?? "", "hasError": shown != nil,
                "error": sentence(shown, triesLeft: triesLeft),
                // The language link keeps where the page returns to.
                "pageAddress": "/confirm?" + URLEncodedForm([("next", next)]).encoded,
                "passkeys": passkeys && !entering && self.passkeys,
            ], answering: shown)
    }
}
