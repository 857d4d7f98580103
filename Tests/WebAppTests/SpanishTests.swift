import Foundation
import HTTPLite
import NIOHTTP1
import Testing

@testable import WebApp

/// Issue 29 over HTTP: the language comes from `Accept-Language` or the switch link (kept in a
/// cookie), every page of the flow is in it, the text goes out in it with its origin-bound last
/// line unchanged, and the API's `message` follows `Accept-Language` while `code` does not move.
@Suite("En español")
struct SpanishTests: SignInSteps {
    static let english = [
        "Sign in", "Enter your", "Verify", "Resend", "Didn", "Incorrect", "Your devices", "Log out", "Home",
    ]

    @Test("Accept-Language es: Login, Verify after a wrong code, Home and devices in Spanish, with no English word")
    func wholeFlow() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let spanish: HTTPHeaders = ["Accept-Language": "es-MX,es;q=0.9,en;q=0.5"]
            let login = try await browser.get("/login", headers: spanish)
            #expect(login.body.contains(#"<html lang="es""#))
            #expect(login.header("Content-Language") == "es")
            #expect(login.body.contains("<h1>Iniciar sesión</h1>"))
            #expect(
                login.body.contains(#"href="/login?lang=en" hreflang="en" lang="en" id="language-switch">English</a>"#))
            for word in Self.english { #expect(!login.body.contains(">\(word)"), "\(word)") }

            let empty = try await browser.post("/login", form: [("phone", "")], headers: spanish)
            #expect(empty.body.contains("Ingrese su número de teléfono."))
            #expect(empty.body.contains("<title>Error: Iniciar sesión · Phone Login</title>"))

            _ = try await browser.post("/login", form: [("phone", "(530) 555-0123")], headers: spanish)
            let code = try server.lastCode()
            // The text is in Spanish; its last line is the origin-bound one, exactly.
            #expect(try server.outbox().last?.body == "\(code) es su código de verificación.\n\n@example.com #\(code)")

            let verify = try await browser.get("/verify", headers: spanish)
            #expect(
                verify.body.contains(
                    "Ingrese el código de 6 dígitos que enviamos al<span class=\"nowrap\"> (530) 555-0123</span>"))
            #expect(verify.body.contains("El código vence en 10 minutos."))
            #expect(verify.body.contains(#"aria-label="Dígito 1 de 6""#))
            let wrong = try await browser.post(
                "/verify", form: (1...6).map { ("d\($0)", String(Array(anyWrongCode(for: code))[$0 - 1])) },
                headers: spanish)
            #expect(wrong.body.contains("Código de verificación incorrecto. Le quedan 4 intentos."))
            for word in Self.english { #expect(!wrong.body.contains(">\(word)"), "\(word)") }

            let help = try await browser.get("/verify/help", headers: spanish)
            #expect(
                help.body.contains(
                    "Enviamos un código por mensaje de texto al <span class=\"nowrap\">(530) 555-0123</span> hace menos de un minuto."
                ))

            let home = try await submitCode(browser, code)
            #expect(home.location == "/home")
            let homePage = try await browser.get("/home", headers: spanish)
            #expect(homePage.body.contains("Hola, <span id=\"signed-in-phone\""))
            #expect(homePage.body.contains(">Cerrar sesión</button>"))
            for word in Self.english { #expect(!homePage.body.contains(">\(word)"), "\(word)") }
            // An account added without a name is named in Spanish.
            let key = try #require(homePage.body.firstMatch(of: /name="key" value="([A-Za-z0-9_-]+)"/)?.1)
            _ = try await browser.post("/accounts", form: [("name", ""), ("key", String(key))], headers: spanish)
            #expect(try await browser.get("/home", headers: spanish).body.contains(">Cuenta 1</a>"))
            let devices = try await browser.get("/devices", headers: spanish)
            #expect(devices.body.contains("<h1>Sus dispositivos</h1>"))
            #expect(devices.body.contains("Este dispositivo"))
            // Dates day first, in 24 hours, with Spanish month names.
            #expect(
                devices.body.contains(
                    /Inició sesión el <time datetime="[0-9T:Z-]{20}">\d{1,2} [a-z]{3}\.? \d{4}, \d\d:\d\d UTC<\/time>/))
            for word in Self.english { #expect(!devices.body.contains(">\(word)"), "\(word)") }
        }
    }

    @Test(
        "the switch link keeps the page and the step: a cookie for a year, back to the same address, the sign-in still pending"
    )
    func switchLink() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            _ = try await login(browser)
            let switched = try await browser.get("/verify?lang=es")
            #expect(switched.status == .seeOther)
            #expect(switched.location == "/verify")
            let cookie = try #require(switched.setCookie("lang"))
            #expect(cookie.hasPrefix("lang=es"))
            #expect(cookie.contains("Max-Age=31536000"))
            // The cookie wins over the browser's English.
            let verify = try await browser.get("/verify", headers: ["Accept-Language": "en-US"])
            #expect(verify.status == .ok)
            #expect(verify.body.contains("<h1>Ingrese su código</h1>"))
            #expect(verify.body.contains(#"href="/verify?lang=en""#))
            // A resend asked in Spanish goes out in Spanish.
            server.clock.advance(by: 31)
            _ = try await browser.post("/verify/resend")
            #expect(try server.outbox().last?.body.contains("es su código de verificación") == true)
            // Back to English; other query parameters are kept, lang is not, and nothing but a
            // path of ours is ever a redirect's target.
            let back = try await browser.get("/login?rd=https%3A%2F%2Fapp.example.test%2F&lang=en")
            #expect(back.location == "/login?rd=https%3A%2F%2Fapp.example.test%2F")
            #expect(browser.cookie("lang") == "en")
            #expect(try await browser.get("/verify?lang=fr").status == .ok)
            #expect(browser.cookie("lang") == "en")
            #expect(try await browser.get("//evil.example?lang=es").location == "/")
            for path in ["/\\evil.example", "//evil.example", "/a\r\nSet-Cookie: x=1", "evil", "/a\u{7F}"] {
                #expect(LanguageChoice.address(path, keeping: URLEncodedForm()) == "/", "\(path)")
            }
            #expect(LanguageChoice.address("/accounts/2", keeping: URLEncodedForm()) == "/accounts/2")
            // The other parameters come back percent-encoded, ASCII only (a header's bytes).
            #expect(
                LanguageChoice.address("/login", keeping: try URLEncodedForm(parsing: "rd=caf%C3%A9+%26&lang=es"))
                    == "/login?rd=caf%C3%A9%20%26")
        }
    }

    @Test("the API's message follows Accept-Language; its code never changes")
    func apiMessages() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            for (language, message) in [
                ("es", "Su número de teléfono no es válido"), ("en", "Your phone number is invalid"),
                ("fr", "Your phone number is invalid"),
            ] {
                let reply = try await browser.send(
                    .POST, "/api/v1/verifications",
                    headers: ["Content-Type": "application/json", "Accept-Language": language],
                    body: Data(#"{"phone_number": "12"}"#.utf8))
                #expect(reply.status == .unprocessableEntity)
                #expect(reply.body.contains(#""code":"invalid_phone_number""#))
                #expect(reply.body.contains(message), "\(language): \(reply.body)")
                #expect(reply.header("Content-Language") == (language == "es" ? "es" : "en"))
            }
            let missing = try await browser.send(
                .POST, "/api/v1/verifications", headers: ["Content-Type": "application/json", "Accept-Language": "es"],
                body: Data("{}".utf8))
            #expect(missing.body.contains("Falta el campo phone_number."))
            // A code asked for in Spanish is texted in Spanish.
            let sent = try await browser.send(
                .POST, "/api/v1/verifications",
                headers: ["Content-Type": "application/json", "Accept-Language": "es-US"],
                body: Data(#"{"phone_number": "(530) 555-0123"}"#.utf8))
            #expect(sent.status == .ok)
            #expect(try server.outbox().last?.body.contains("es su código de verificación") == true)
            let unauthorized = try await browser.send(.GET, "/api/v1/me", headers: ["Accept-Language": "es"])
            #expect(unauthorized.status == .unauthorized)
            #expect(unauthorized.body.contains("Envíe un token válido"))
            #expect(unauthorized.header("Cache-Control") == "no-store")
            // A lang cookie is no API's business: the header decides.
            browser.setCookie("lang", "es")
            let english = try await browser.send(
                .POST, "/api/v1/verifications", headers: ["Content-Type": "application/json"],
                body: Data("{}".utf8))
            #expect(english.body.contains("The field phone_number is missing."))
        }
    }

    @Test("the error pages are in the person's language too")
    func errorPage() async throws {
        try await withServer { server in
            let browser = Browser(baseURL: server.baseURL)
            let missing = try await browser.get("/nowhere", headers: ["Accept-Language": "es"])
            #expect(missing.status == .notFound)
            #expect(missing.body.contains("<h1>No encontrado</h1>"))
            #expect(missing.body.contains("No hay ninguna página en esta dirección."))
            // A form from elsewhere, or without its token: the 403 says so in Spanish too.
            _ = try await browser.get("/login", headers: ["Accept-Language": "es"])
            for headers: HTTPHeaders in [
                ["Accept-Language": "es"], ["Accept-Language": "es", "Origin": "http://evil.example"],
            ] {
                let forged = try await browser.post(
                    "/login", form: [("phone", "5305550123")], headers: headers, csrf: false)
                #expect(forged.status == .forbidden)
                #expect(forged.body.contains("Este formulario venció o no vino de este sitio."), "\(headers)")
            }
        }
    }
}
