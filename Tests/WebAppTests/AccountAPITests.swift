import Foundation
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// "Your account" in the JSON API: the summary for any token; the data, the deletion and the
/// change of number only for a token from a recent verification. Every answer is checked against
/// the OpenAPI document.
@Suite("Your account in the API")
struct AccountAPITests {
    @Test("a token older than 10 minutes is 401 reauthentication_required for the sensitive calls; a fresh verification gives one that works")
    func reauthentication() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let old = try await api.signIn(server)
            #expect(try await api.call(.GET, "/account", token: old).json["phone_number"] as? String == "+15305550123")
            server.clock.advance(by: 11 * 60)
            for (method, path) in [(HTTPMethod.GET, "/account/data"), (.DELETE, "/account")] {
                let refused = try await api.call(method, path, token: old)
                #expect(refused.status == 401)
                #expect(refused.errorCode == "reauthentication_required")
            }
            let phone = try await api.call(.POST, "/account/phone", json: ["phone_number": "4155550100"], token: old)
            #expect(phone.errorCode == "reauthentication_required")
            // Nothing was deleted or sent; the summary still answers.
            #expect(try await api.call(.GET, "/account", token: old).status == 200)
            #expect(try server.outbox().count == 1)
            let fresh = try await api.signIn(server)
            let data = try await api.call(.GET, "/account/data", token: fresh)
            #expect(data.status == 200)
            #expect((data.json["account"] as? [String: Any])?["phone_number"] as? String == "+15305550123")
            #expect(!data.response.body.contains(fresh) && !data.response.body.contains(old))
            // No token at all: unauthorized, not reauthentication.
            #expect(try await api.call(.GET, "/account/data").errorCode == "unauthorized")
        }
    }

    @Test("changing the number by the API: a code to the new number, then the account moves; a number with its own account is 409 after its code")
    func changeNumber() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server, "+14155550100")
            let same = try await api.call(.POST, "/account/phone", json: ["phone_number": "(415) 555-0100"], token: token)
            #expect(same.status == 422)
            #expect(same.errorCode == "same_number")
            let sent = try await api.call(.POST, "/account/phone", json: ["phone_number": "5305550123"], token: token)
            #expect(sent.status == 200)
            let id = try #require(sent.json["verification_id"] as? String)
            let wrong = try await api.call(
                .POST, "/account/phone/verify",
                json: ["phone_number": "5305550123", "verification_id": id, "code": "000000"], token: token)
            #expect(wrong.errorCode == "incorrect_code")
            let moved = try await api.call(
                .POST, "/account/phone/verify",
                json: ["phone_number": "5305550123", "verification_id": id, "code": try server.lastCode(to: "+15305550123")],
                token: token)
            #expect(moved.status == 200)
            #expect(moved.json["phone_number"] as? String == "+15305550123")
            #expect(try await api.call(.GET, "/me", token: token).json["phone_number"] as? String == "+15305550123")
            #expect(try server.outbox().last?.to == "+14155550100")

            // Someone else's number: the same answers until the code is right, then 409.
            let other = APIClient(server)
            _ = try await other.signIn(server, "+15305550199")
            server.clock.advance(by: 31)
            let taken = try await api.call(.POST, "/account/phone", json: ["phone_number": "5305550199"], token: token)
            #expect(taken.status == 200)
            let refused = try await api.call(
                .POST, "/account/phone/verify",
                json: [
                    "phone_number": "5305550199", "verification_id": try #require(taken.json["verification_id"] as? String),
                    "code": try server.lastCode(to: "+15305550199"),
                ], token: token)
            #expect(refused.status == 409)
            #expect(refused.errorCode == "number_has_account")
        }
    }

    @Test("deleting by the API: 409 money_held while money is held; then 204, every token ends and the number is free")
    func delete() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server, openingAccounts: 1)
            let other = try await api.signIn(server)
            let deposit = try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "1.00"], token: token)
            #expect(deposit.status == 200)
            let refused = try await api.call(.DELETE, "/account", token: token)
            #expect(refused.status == 409)
            #expect(refused.errorCode == "money_held")
            _ = try await api.call(.POST, "/accounts/1/withdraw", json: ["amount": "1.00"], token: token)
            #expect(try await api.call(.DELETE, "/account", token: token).status == 204)
            #expect(try await api.call(.GET, "/me", token: token).status == 401)
            #expect(try await api.call(.GET, "/me", token: other).status == 401)
            server.clock.advance(by: 31)
            let again = try await api.signIn(server)
            #expect((try await api.call(.GET, "/accounts", token: again).json["accounts"] as? [Any])?.isEmpty == true)
        }
    }
}
