import Foundation
import Testing

@testable import WebApp

/// Making recovery codes over HTTP: Home offers them to someone with no other way back, and
/// the page that shows new codes makes no second set when posted again.
@Suite("Recovery codes made")
struct RecoveryCodesPageTests: RecoverySteps {
    @Test("Home offers recovery codes, and says why, to someone with neither a passkey nor codes; made, the offer goes; the page can print them")
    func homeOffer() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server)
            let home = try await browser.get("/home")
            #expect(home.body.contains(#"<section class="recovery-offer" id="recovery-offer""#))
            #expect(home.body.contains("so you can get back in if you lose this number or this phone."))
            #expect(home.body.contains(#"<a href="/account/recovery" id="recovery-offer-make">Make recovery codes</a>"#))
            let made = try await browser.post("/account/recovery")
            #expect(made.body.contains(#"<button type="button" class="link" id="recovery-print" hidden>Print them</button>"#))
            #expect(made.body.contains("/public/print."))
            #expect(!(try await browser.get("/home").body.contains("recovery-offer")))
            // Every code used: offered again.
            let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            let stranger = Browser(baseURL: server.baseURL)
            _ = try await stranger.get("/recover")
            for code in codes {
                server.clock.advance(by: 1)
                _ = try await stranger.post("/recover", form: [("phone", "5305550123"), ("code", code)])
            }
            #expect(try await browser.get("/home").body.contains("recovery-offer"))
        }
    }

    @Test("Reload of the page that showed new codes (its form posted again) makes no other set: the codes just saved still work")
    func reloadMakesNothing() async throws {
        try await withServer { server in
            let browser = try await confirm.signIn(server, phone: "4155550100")
            let page = try await browser.get("/account/recovery")
            let replaces = try #require(page.body.firstMatch(of: /name="replaces" value="([^"]+)"/)?.1)
            #expect(replaces == "none")
            let made = try await browser.post("/account/recovery", form: [("replaces", String(replaces))])
            let codes = made.body.matches(of: /<code>([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2})<\/code>/).map { String($0.1) }
            #expect(codes.count == 10)
            let again = try await browser.post("/account/recovery", form: [("replaces", String(replaces))])
            #expect(again.status == .ok)
            #expect(again.body.contains("Those codes were already made: no new ones were made."))
            #expect(!again.body.contains("<code>"))
            #expect(again.body.contains("You have 10 recovery codes left."))
            // The saved codes are the ones that work.
            let stranger = Browser(baseURL: server.baseURL)
            _ = try await stranger.get("/recover")
            #expect(try await stranger.post("/recover", form: [("phone", "4155550100"), ("code", codes[0])]).location
                == "/recover/phone?left=9")
            // The page's form now names the current set, and makes a new one.
            let current = try await browser.get("/account/recovery")
            let name = try #require(current.body.firstMatch(of: /name="replaces" value="([^"]+)"/)?.1)
            #expect(name != "none")
            #expect(try await browser.post("/account/recovery", form: [("replaces", String(name))]).body.contains("<code>"))
        }
    }
}
