import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1
import TestSupport
import Testing

@testable import WebApp

/// The wallet over the JSON API, every response checked against the OpenAPI document.
@Suite("Wallet API")
struct WalletAPITests {
    @Test("accounts, deposit, withdraw, transfer, history, rename, delete, name")
    func operations() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            let empty = try await api.call(.GET, "/accounts", token: token)
            #expect(empty.json["name"] as? String == "(530) 555-0123")
            #expect((empty.json["accounts"] as? [Any])?.isEmpty == true)

            let checking = try await api.call(.POST, "/accounts", json: ["name": "Checking"], token: token)
            #expect(checking.status == 201)
            #expect(checking.json["balance"] as? String == "0.00")
            let savings = try await api.call(.POST, "/accounts", token: token)
            #expect(savings.json["name"] as? String == "Account 1")  // the first default name free

            let deposited = try await api.call(
                .POST, "/accounts/1/deposit", json: ["amount": "$1,000.50"], token: token)
            #expect(deposited.json["balance"] as? String == "1000.50")
            #expect(deposited.json["balance_cents"] as? Int == 100_050)
            #expect(
                try await api.call(.POST, "/accounts/1/withdraw", json: ["amount": "0.50"], token: token).status == 200)
            let moved = try await api.call(
                .POST, "/accounts/1/transfer", json: ["amount": "250", "to_account_id": 2], token: token)
            #expect(moved.json["balance"] as? String == "750.00")
            let wallet = try await api.call(.GET, "/accounts", token: token)
            #expect(wallet.json["total"] as? String == "1000.00")

            let history = try await api.call(.GET, "/accounts/1/history", token: token)
            let kinds = (history.json["operations"] as? [[String: Any]])?.map { $0["kind"] as? String }
            #expect(kinds == ["transfer_out", "withdrawal", "deposit"])

            let renamed = try await api.call(.POST, "/accounts/2/rename", json: ["name": "Savings"], token: token)
            #expect(renamed.json["name"] as? String == "Savings")
            #expect(
                try await api.call(.POST, "/name", json: ["name": "Alice"], token: token).json["name"] as? String
                    == "Alice")

            let notEmpty = try await api.call(.DELETE, "/accounts/2", token: token)
            #expect(notEmpty.status == 422)
            #expect(notEmpty.errorCode == "account_not_empty")
            _ = try await api.call(
                .POST, "/accounts/2/transfer", json: ["amount": "250", "to_account_id": 1], token: token)
            #expect(try await api.call(.DELETE, "/accounts/2", token: token).status == 204)
            #expect(try await api.call(.GET, "/accounts/2", token: token).status == 404)
        }
    }

    @Test("errors: amounts, funds, names, same account, bad bodies, no token")
    func errors() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            _ = try await api.call(.POST, "/accounts", json: ["name": "Checking"], token: token)
            for amount in ["0", "-1", "1.234", "ten", "2000000000"] {
                let reply = try await api.call(.POST, "/accounts/1/deposit", json: ["amount": amount], token: token)
                #expect(reply.status == 422, "\(amount)")
                #expect(reply.errorCode == "invalid_amount", "\(amount)")
            }
            let short = try await api.call(.POST, "/accounts/1/withdraw", json: ["amount": "1"], token: token)
            #expect(short.errorCode == "insufficient_funds")
            #expect(short.errorMessage == "That is more than the balance of $0.00.")
            #expect(
                try await api.call(
                    .POST, "/accounts/1/transfer", json: ["amount": "1", "to_account_id": 1], token: token
                ).errorCode == "same_account")
            #expect(
                try await api.call(.POST, "/accounts", json: ["name": "checking"], token: token).errorCode
                    == "name_taken")
            #expect(try await api.call(.POST, "/name", json: ["name": ""], token: token).errorCode == "invalid_name")
            #expect(
                try await api.call(.POST, "/accounts/1/deposit", json: ["amount": 5], token: token).errorCode
                    == "bad_request")
            #expect(
                try await api.call(.POST, "/accounts/1/deposit", json: [:], token: token).errorCode == "bad_request")
            #expect(
                try await api.call(
                    .POST, "/accounts/1/deposit", json: ["amount": "5"], token: token, idempotencyKey: "x"
                ).status == 400)
            #expect(try await api.call(.GET, "/accounts").status == 401)
            #expect(try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "5"]).status == 401)
        }
    }

    @Test("an Idempotency-Key applies a deposit once, however often it is sent")
    func idempotency() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            _ = try await api.call(.POST, "/accounts", token: token)
            let key = "deposit-0123456789abcdef"
            for _ in 0..<3 {
                let reply = try await api.call(
                    .POST, "/accounts/1/deposit", json: ["amount": "10"], token: token, idempotencyKey: key)
                #expect(reply.status == 200)
            }
            #expect(try await api.call(.GET, "/accounts/1", token: token).json["balance"] as? String == "10.00")
            let added = try await api.call(.POST, "/accounts", token: token, idempotencyKey: "add-account-0123456789")
            let again = try await api.call(.POST, "/accounts", token: token, idempotencyKey: "add-account-0123456789")
            #expect(added.status == 201)
            #expect(again.status == 200)
            #expect(again.json["id"] as? Int == added.json["id"] as? Int)
        }
    }

    @Test(
        "an Idempotency-Key sent again with another method, path or body is 422 idempotency_key_reused and changes nothing"
    )
    func idempotencyKeyReused() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server, openingAccounts: 2)
            let key = "deposit-0123456789abcdef"
            let first = try await api.call(
                .POST, "/accounts/1/deposit", json: ["amount": "10"], token: token, idempotencyKey: key)
            #expect(first.status == 200)
            for (method, path, json) in [
                (HTTPMethod.POST, "/accounts/1/withdraw", ["amount": "10"]),
                (.POST, "/accounts/1/deposit", ["amount": "11"]), (.POST, "/accounts/2/deposit", ["amount": "10"]),
                (.POST, "/accounts/1/transfer", ["amount": "10", "to_account_id": 2]),
                (.POST, "/name", ["name": "Ann"]),
            ] as [(HTTPMethod, String, [String: Any])] {
                let reused = try await api.call(method, path, json: json, token: token, idempotencyKey: key)
                #expect(reused.status == 422, "\(path) \(json)")
                #expect(reused.errorCode == "idempotency_key_reused", "\(path) \(json)")
            }
            let deleted = try await api.call(.DELETE, "/accounts/2", token: token, idempotencyKey: key)
            #expect(deleted.errorCode == "idempotency_key_reused")
            // The identical request, even laid out otherwise, is still a replay of the first.
            let replay = try await api.call(
                .POST, "/accounts/1/deposit", body: #"{ "amount" : "10" }"#, token: token, idempotencyKey: key)
            #expect(replay.status == 200)
            let wallet = try await api.call(.GET, "/accounts", token: token)
            #expect(wallet.json["total"] as? String == "10.00")
            #expect((wallet.json["accounts"] as? [Any])?.count == 2)
        }
    }

    @Test("a second person can neither read nor change the first one's accounts")
    func isolation() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let alice = try await api.signIn(server)
            _ = try await api.call(.POST, "/accounts", token: alice)
            _ = try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "5"], token: alice)
            let bob = try await api.signIn(server, "+14155550199")
            _ = try await api.call(.POST, "/accounts", token: bob)
            #expect(try await api.call(.GET, "/accounts/1", token: bob).status == 404)
            #expect(try await api.call(.GET, "/accounts/1/history", token: bob).status == 404)
            #expect(try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "1"], token: bob).status == 404)
            #expect(try await api.call(.POST, "/accounts/1/withdraw", json: ["amount": "1"], token: bob).status == 404)
            #expect(try await api.call(.POST, "/accounts/1/rename", json: ["name": "Mine"], token: bob).status == 404)
            #expect(try await api.call(.DELETE, "/accounts/1", token: bob).status == 404)
            #expect(
                try await api.call(
                    .POST, "/accounts/2/transfer", json: ["amount": "1", "to_account_id": 1], token: bob
                ).status == 404)
            let bobs = try await api.call(.GET, "/accounts", token: bob)
            #expect((bobs.json["accounts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2])
            #expect(try await api.call(.GET, "/accounts/1", token: alice).json["balance"] as? String == "5.00")
        }
    }

    @Test("200 concurrent random transfers over HTTP keep the total, and no balance goes negative")
    func concurrentTransfers() async throws {
        try await withServer { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            for _ in 1...4 {
                let account = try await api.call(.POST, "/accounts", token: token)
                let id = try #require(account.json["id"] as? Int)
                _ = try await api.call(.POST, "/accounts/\(id)/deposit", json: ["amount": "250"], token: token)
            }
            var generator = SeededGenerator(seed: 42)
            let transfers = (0..<200).map { _ in
                (
                    from: Int.random(in: 1...4, using: &generator), to: Int.random(in: 1...4, using: &generator),
                    cents: Int.random(in: 1...20_000, using: &generator)
                )
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for transfer in transfers {
                    group.addTask {
                        let amount = String(format: "%d.%02d", transfer.cents / 100, transfer.cents % 100)
                        let reply = try await api.call(
                            .POST, "/accounts/\(transfer.from)/transfer",
                            json: ["amount": amount, "to_account_id": transfer.to], token: token)
                        return Int(reply.status)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(Set(statuses).isSubset(of: [200, 422]))
            #expect(statuses.filter { $0 == 200 }.count > 50)
            let wallet = try await api.call(.GET, "/accounts", token: token)
            #expect(wallet.json["total"] as? String == "1000.00")
            let balances = (wallet.json["accounts"] as? [[String: Any]] ?? []).compactMap {
                $0["balance_cents"] as? Int
            }
            #expect(balances.count == 4)
            #expect(balances.allSatisfy { $0 >= 0 })
        }
    }

    @Test(
        "a change is answered from its own transaction: after its commit the request reads nothing",
        arguments: ["deposit", "withdraw", "transfer", "add", "rename", "name", "replay"])
    func answeredBeforeCommit(_ change: String) async throws {
        // A read after the commit could fail (PostgreSQL slow, a table locked): the person
        // would hear 503, "try again", about money that did move, and pay twice.
        let statements = NIOLockedValueBox([String]())
        try await withServer(
            database: .sqlite, { $0.onDatabaseStatement = { sql in statements.withLockedValue { $0.append(sql) } } }
        ) { server in
            let api = APIClient(server)
            let token = try await api.signIn(server)
            #expect(try await api.call(.POST, "/accounts", json: ["name": "Checking"], token: token).status == 201)
            #expect(try await api.call(.POST, "/accounts", json: ["name": "Savings"], token: token).status == 201)
            #expect(
                try await api.call(.POST, "/accounts/1/deposit", json: ["amount": "10"], token: token).status == 200)
            // A replay: the key's first use deposited 2.50; its answer now is the account as it is.
            let key = change == "replay" ? "replayed-deposit-key-0001" : nil
            if let key {
                #expect(
                    try await api.call(
                        .POST, "/accounts/1/deposit", json: ["amount": "2.50"], token: token, idempotencyKey: key
                    ).status == 200)
            }
            let (method, path, body): (HTTPMethod, String, [String: Any]) =
                switch change {
                case "deposit", "replay": (.POST, "/accounts/1/deposit", ["amount": "2.50"])
                case "withdraw": (.POST, "/accounts/1/withdraw", ["amount": "2.50"])
                case "transfer": (.POST, "/accounts/1/transfer", ["amount": "2.50", "to_account_id": 2])
                case "add": (.POST, "/accounts", ["name": "Travel"])
                case "name": (.POST, "/name", ["name": "Ada"])
                default: (.POST, "/accounts/1/rename", ["name": "Everyday"])
                }
            statements.withLockedValue { $0.removeAll() }
            let answer = try await api.call(method, path, json: body, token: token, idempotencyKey: key)
            #expect([200, 201].contains(answer.status))
            let expected: [String: String] =
                switch change {
                case "deposit", "replay": ["balance": "12.50"]
                case "withdraw", "transfer": ["balance": "7.50"]
                case "add": ["name": "Travel", "balance": "0.00"]
                case "name": ["name": "Ada"]
                default: ["name": "Everyday", "balance": "10.00"]
                }
            for (field, value) in expected { #expect(answer.json[field] as? String == value, "\(field)") }
            let seen = statements.withLockedValue { $0 }
            // The change's own statement (its write; for a replay, the key's lookup), then its
            // commit: the account is read between the two, and nothing reads it after.
            let own = try #require(
                seen.lastIndex { sql in
                    switch change {
                    case "replay": sql.contains("FROM wallet_operation_keys")
                    case "name": sql.hasPrefix("INSERT INTO wallet_profiles")
                    default:
                        ["UPDATE accounts", "INSERT INTO accounts", "INSERT INTO operations"].contains { sql.hasPrefix($0) }
                    }
                }, "\(seen)")
            let commit = try #require(seen[own...].firstIndex { $0.hasPrefix("COMMIT") }, "\(seen)")
            let table = change == "name" ? "FROM wallet_profiles" : "FROM accounts"
            #expect(seen[own..<commit].contains { $0.hasPrefix("SELECT") && $0.contains(table) }, "\(seen)")
            #expect(
                !seen[commit...].contains { $0.contains("accounts") || $0.contains("wallet_profiles") },
                "read after the commit: \(seen[commit...])")
        }
    }
}
