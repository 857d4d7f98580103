import Foundation
import TestSupport
import Testing

@testable import Wording

/// The catalogs (issue 29): every language has every key, with the same placeholders; plurals
/// and durations read right; `Accept-Language` picks ours; templates name only existing keys.
@Suite("Words in every language")
struct WordingTests {
    let wording = Wording.forTests

    @Test("Locales/ loads: Spanish has every English key and no other, with the same placeholders")
    func catalogsMatch() throws {
        let english = wording[.english]
        let spanish = wording[.spanish]
        #expect(Set(english.entries.keys) == Set(spanish.entries.keys))
        #expect(english.entries.count > 200)
        // Nothing left untranslated by accident: a Spanish entry equal to the English one is a
        // proper name, a code, or punctuation.
        let same = english.entries.keys.filter { english.entries[$0] == spanish.entries[$0] }.sorted()
        #expect(
            same == [
                "delivery.ago", "home.total", "layout.app", "layout.errorPrefix", "time.utc",
            ], "\(same)")
    }

    @Test("a language missing a key, with other placeholders, or a plural turned sentence is refused, naming the key")
    func problems() throws {
        let english = Catalog(
            language: .english,
            entries: ["a": .text("Hello {name}"), "b": .plural(one: "1 try", other: "{n} tries"), "c": .text("x")])
        let spanish = Catalog(
            language: .spanish, entries: ["a": .text("Hola {nombre}"), "b": .text("intentos"), "d": .text("y")])
        let problems = Wording.problems(in: [.english: english, .spanish: spanish])
        #expect(problems.contains("es: a has placeholders [\"nombre\"], English [\"name\"]"))
        #expect(problems.contains("es: b must be a plural, as in English"))
        #expect(problems.contains("es: c is missing"))
        #expect(problems.contains("es: d is not in English"))
        #expect(throws: Wording.Problems.self) { try Wording(catalogs: [english, spanish]) }
        let prefix = Catalog(language: .english, entries: ["a": .text("x"), "a.b": .text("y")])
        #expect(
            Wording.problems(in: [.english: prefix, .spanish: prefix]).contains(
                "a is both a sentence and the start of a.b"))
    }

    @Test("plurals and durations: 1 intento, 2 intentos, 1 minuto, 9 minutos; English as before")
    func plurals() {
        let (en, es) = (wording[.english], wording[.spanish])
        #expect(
            es.plural("verify.triesLeft", count: 1, ["error": "Código incorrecto"])
                == "Código incorrecto. Le queda 1 intento.")
        #expect(
            es.plural("verify.triesLeft", count: 2, ["error": "Código incorrecto"])
                == "Código incorrecto. Le quedan 2 intentos.")
        #expect(
            en.plural("verify.triesLeft", count: 1, ["error": "Incorrect verification code"])
                == "Incorrect verification code. You have 1 try left.")
        #expect(
            en.plural("verify.triesLeft", count: 3, ["error": "Incorrect verification code"])
                == "Incorrect verification code. You have 3 tries left.")
        #expect(es.duration(seconds: 60) == "1 minuto")
        #expect(es.duration(seconds: 61) == "2 minutos")
        #expect(en.duration(seconds: 1) == "1 second")
        #expect(en.duration(seconds: 0) == "1 second")
        #expect(en.duration(seconds: 3601) == "2 hours")
        #expect(es.wait(seconds: 45) == "en 45 segundos")
        #expect(es.wait(seconds: 0) == "ahora")
        #expect(
            en(Phrase("signIn.tooManyCodesForPhone", ["wait": .wait(seconds: 480)]))
                == "Too many codes were sent to this number. Please try again in 8 minutes.")
        #expect(
            es(Phrase("signIn.resendTooSoon", ["duration": .duration(seconds: 1)]))
                == "Espere 1 segundo antes de solicitar un código nuevo.")
    }

    @Test("a sentence split around one placeholder, the others filled; none without it")
    func split() {
        let es = wording[.spanish]
        let parts = es.split("delivery.textUndelivered", around: "phone")
        #expect(parts?.before == "No pudimos entregar el mensaje de texto al ")
        #expect(parts?.after == ".")
        #expect(
            wording[.english].split("help.texted", around: "phone", ["ago": "1 minute ago"])?.after == " 1 minute ago.")
        #expect(es.split("delivery.callUnanswered", around: "phone") == nil)
    }

    @Test("placeholders fill only what is given; braces in values are left alone")
    func fill() {
        #expect(Catalog.fill("Hi {name}, {other}", ["name": "{other}"]) == "Hi {other}, {other}")
        #expect(Catalog.fill("{a}{a}", ["a": "x"]) == "xx")
        #expect(Catalog.fill("no {", ["a": "x"]) == "no {")
    }

    @Test(
        "Accept-Language: the highest q among ours, the first on a tie, q=0 never; English otherwise",
        arguments: [
            ("es", Language.spanish), ("es-MX,en;q=0.5", .spanish), ("en-US,en;q=0.9,es;q=0.8", .english),
            ("fr-FR,fr;q=0.9,es;q=0.7,en;q=0.6", .spanish), ("es;q=0, en", .english), ("ES-us", .spanish),
            ("de", .english), ("", .english), ("*", .english), ("es;q=abc", .english), ("x;q=1;;,,es", .spanish),
            ("en;q=0.5,es;q=0.5", .english), (String(repeating: "a,", count: 2000) + "es", .english),
        ])
    func acceptLanguage(_ header: String, _ language: Language) {
        #expect(Language.preferred(by: header) == language)
    }

    @Test("every {{t.…}} key the templates use exists; the check finds one that does not")
    func templateKeys() throws {
        let folder = URL(fileURLWithPath: Repository.templates)
        var templates: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".mustache") {
            templates[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(templates.count >= 10)
        #expect(wording.missingKeys(inTemplates: templates) == [])
        #expect(
            wording.missingKeys(inTemplates: ["x": "{{t.login.title}} {{t.nope.gone}} {{t.home.signedInAs.before}}"])
                == ["x: t.nope.gone"])
    }

    @Test("a sentence with placeholders reaches the templates split around them")
    func templateValues() throws {
        let values = wording[.spanish].templateValues
        let home = try #require(values["home"] as? [String: Any])
        let signedIn = try #require(home["signedInAs"] as? [String: String])
        #expect(signedIn["before"] == "Inició sesión como ")
        #expect(signedIn["after"] == ".")
        let notAllowed = try #require(values["notAllowed"] as? [String: Any])
        let lead = try #require(notAllowed["lead"] as? [String: String])
        #expect(lead["between"] == " y este número no tiene permiso en ")
    }
}
