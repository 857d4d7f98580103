import Foundation

/// The steps of a sign-in over HTTP that the page suites share: log in with a number, type a
/// code into the six boxes, make a code that is surely wrong.
protocol SignInSteps {}

extension SignInSteps {
    /// Logs in with `phone` and returns the POST /login response.
    @discardableResult
    func login(_ browser: Browser, _ phone: String = "(530) 555-0123") async throws -> TestResponse {
        try await browser.post("/login", form: [("phone", phone)])
    }

    /// Posts `code` as the six boxes send it (`d1`…`d6`, empty past its end).
    func submitCode(_ browser: Browser, _ code: String) async throws -> TestResponse {
        let digits = Array(code)
        return try await browser.post(
            "/verify", form: (1...6).map { ("d\($0)", digits.indices.contains($0 - 1) ? String(digits[$0 - 1]) : "") })
    }

    /// A six-digit code that is not `code`, a different one at each call (``anyWrongCode(for:)``).
    func wrongCode(for code: String) -> String {
        anyWrongCode(for: code)
    }
}

/// A code that is not `code`, a different one at each call (the same wrong code sent again is
/// no new guess, so tests that count tries need a new one each time).
func anyWrongCode(for code: String) -> String {
    String(format: "%06d", (Int(code)! + Int.random(in: 1..<1_000_000)) % 1_000_000)
}
