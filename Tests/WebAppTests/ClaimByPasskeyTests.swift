import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp
/// The recycled-number guard over HTTP with a passkey: the old owner's passkey proves the
/// account as a recovery code would, on the pages and in the API, and a passkey sign-in on a
/// quiet number counts as its use.
@Suite("Is this your account?, with a passkey")
struct ClaimByPasskeyTests: ClaimSteps {
    @Test("a passkey of a detached account proves it as a recovery code would: a new number for it, then signed in; the new holder's account is untouched")
    func passkeyOfDetached() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let (holder, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await holder.get("/claim").body.contains(#"id="claim-passkey-login""#))
            #expect(try await holder.post("/claim/fresh").location == "/home")
            // The owner, on a new phone with the passkey: straight to giving the account a number.
            let phone = Browser(baseURL: server.baseURL)
            _ = try await phone.get("/login")
            let proved = try await passkeyFlow.passkeySignIn(phone, &authenticator)
            #expect(proved.location == "/recover/phone")
            #expect(try await phone.get("/home").location == "/login")
            #expect(try await phone.get("/recover/phone").body.contains("Your account has no number now"))
            server.clock.advance(by: 31)
            _ = try await phone.post("/recover/phone", form: [("phone", "4155550100")])
            let moved = try await phone.post("/recover/code", form: [("code", try server.lastCode(to: "+14155550100"))])
            #expect(moved.location == "/account?changed=attached")
            #expect(try await phone.get("/account").body.contains(#"id="account-phone">(415) 555-0100</strong>"#))
            // Its passkey signs in as usual from now on.
            let later = Browser(baseURL: server.baseURL)
            _ = try await later.get("/login")
            #expect(try await passkeyFlow.passkeySignIn(later, &authenticator).location == "/home")
            #expect(try await holder.get("/account").body.contains(#"id="account-phone">(530) 555-0123</strong>"#))
        }
    }

    @Test("'It's mine' with a passkey signs in, and the code that asked counts as the number's use: the next code sign-in asks nothing")
    func itsMineByPasskey() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let (phone, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await passkeyFlow.passkeySignIn(phone, &authenticator).location == "/home")
            #expect(try await phone.get("/home").status == .ok)
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "5305550123").get("/home").status == .ok)
        }
    }

    /// A passkey sign-in through the API, answering `claim` when given.
    func apiPasskeySignIn(
        _ api: APIClient, _ authenticator: inout SoftwareAuthenticator, claim: String? = nil
    ) async throws -> APIClient.Reply {
        let start = try await api.call(.POST, "/passkeys/sign-in/options")
        let options = try #require(start.json["options"] as? [String: Any])
        let answer = try JSONSerialization.jsonObject(
            with: authenticator.signIn(challenge: try #require(options["challenge"] as? String)))
        var body: [String: Any] = [
            "passkey_request_id": try #require(start.json["passkey_request_id"] as? String), "credential": answer,
        ]
        if let claim { body["claim_id"] = claim }
        return try await api.call(.POST, "/passkeys/sign-in", json: body)
    }

    @Test("the API with a passkey: it answers account_dormant's claim_id (the number then counts as used); a detached account's passkey gets a recovery_id that gives it a number")
    func passkeyInTheAPI() async throws {
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            let api = APIClient(server)
            _ = try await api.send("+15305550123")
            let checked = try await api.check("+15305550123", try server.lastCode(to: "+15305550123"))
            #expect(checked.response.body.contains(#""accepted_proofs":["passkey"]"#))
            let claim = try #require((checked.json["error"] as? [String: Any])?["claim_id"] as? String)
            // Only a waiting question is ended: anything else is refused before the passkey is looked at.
            #expect(try await apiPasskeySignIn(api, &authenticator, claim: "nonsense").errorCode == "claim_expired")
            let signedIn = try await apiPasskeySignIn(api, &authenticator, claim: claim)
            #expect(signedIn.status == 200)
            let token = try #require(signedIn.json["auth_token"] as? String)
            #expect(try await apiPasskeySignIn(api, &authenticator, claim: token).errorCode == "claim_expired")
            #expect(try await api.call(.POST, "/claims/fresh", json: ["claim_id": claim]).errorCode == "claim_expired")
            server.clock.advance(by: 31)
            #expect(try await newHolder(server, phone: "5305550123").1.location == "/home")

            // 91 days on, the number's new holder starts afresh; the passkey then earns a recovery_id.
            server.clock.advance(by: Self.days91)
            let (holder, verified) = try await newHolder(server, phone: "5305550123")
            #expect(verified.location == "/claim")
            #expect(try await holder.post("/claim/fresh").location == "/home")
            let detached = try await apiPasskeySignIn(api, &authenticator)
            #expect(detached.status == 409 && detached.errorCode == "account_detached")
            let id = try #require((detached.json["error"] as? [String: Any])?["recovery_id"] as? String)
            let sent = try await api.call(.POST, "/recoveries/phone", json: ["recovery_id": id, "phone_number": "4155550100"])
            let verification = try #require(sent.json["verification_id"] as? String)
            let moved = try await api.call(
                .POST, "/recoveries/verify",
                json: [
                    "recovery_id": id, "phone_number": "4155550100", "verification_id": verification,
                    "code": try server.lastCode(to: "+14155550100"),
                ])
            #expect(moved.status == 200)
            let back = try #require(moved.json["auth_token"] as? String)
            #expect(try await api.call(.GET, "/me", token: back).json["phone_number"] as? String == "+14155550100")
        }
    }

    @Test("Confirm it's you by text, signed in by passkey on a number quiet for 91 days: confirmed, no question, and the number counts as used")
    func confirmOnQuietNumber() async throws {
        let passkeyFlow = PasskeyFlowTests()
        try await withServer(PasskeyFlowTests.on) { server in
            var authenticator = try await accountWithPasskey(server)
            // Signed in by passkey all along: the number itself has not been used for 91 days.
            let phone = Browser(baseURL: server.baseURL)
            _ = try await phone.get("/login")
            #expect(try await passkeyFlow.passkeySignIn(phone, &authenticator).location == "/home")
            server.clock.advance(by: 11 * 60)
            #expect(try await phone.post("/devices/sign-out-others").location == "/confirm?next=%2Fdevices")
            _ = try await phone.post("/confirm/send", form: [("next", "/devices")])
            let right = try await phone.post(
                "/confirm/code", form: [("next", "/devices"), ("code", try server.lastCode(to: "+15305550123"))])
            #expect(right.location == "/devices")
            #expect(try await phone.post("/devices/sign-out-others").location == "/devices")
            server.clock.advance(by: 31)
            #expect(try await confirm.signIn(server, phone: "5305550123").get("/home").status == .ok)
        }
    }
}
