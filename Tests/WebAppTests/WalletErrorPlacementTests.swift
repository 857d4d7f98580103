import Foundation
import Testing

@testable import WebApp

/// Where a refused wallet change is said: next to the form it came from, with its field marked
/// for assistive technology and focused (issue 18), not above the Deposit form whatever was sent.
extension WalletPageTests {
    /// The element whose `id` is `id`, up to the end of its start tag.
    func startTag(_ page: TestResponse, id: String) throws -> String? {
        page.body.firstMatch(of: try Regex(#"<[a-z]+ id="\#(id)"[^>]*>"#)).map { String($0.0) }
    }

    @Test(
        "each refused change is said next to its own form: the field is invalid, described by it, focused, its section open"
    )
    func errorsNextToTheirForm() async throws {
        try await withServer { server in
            let browser = try await signedIn(server)
            _ = try await submit(browser, try await browser.get("/home"), "/accounts", [("name", "Checking")])
            _ = try await submit(browser, try await browser.get("/home"), "/accounts", [("name", "Savings")])
            let page = try await browser.get("/accounts/1")
            _ = try await submit(browser, page, "/accounts/1/deposit", [("amount", "5")])
            // (form posted, field it is about or nil for a button, the error's id, the sentence)
            let cases: [(String, [(String, String)], String?, String, String)] = [
                (
                    "/accounts/1/deposit", [("amount", "ten")], "deposit-amount", "deposit-error",
                    "Enter an amount like 12.34."
                ),
                (
                    "/accounts/1/withdraw", [("amount", "9")], "withdraw-amount", "withdraw-error",
                    "That is more than the balance of $5.00."
                ),
                (
                    "/accounts/1/transfer", [("amount", "9"), ("to", "2")], "transfer-amount", "transfer-error",
                    "That is more than the balance of $5.00."
                ),
                (
                    "/accounts/1/transfer", [("amount", "1"), ("to", "1")], "transfer-to", "transfer-error",
                    "Choose another account to transfer to."
                ),
                (
                    "/accounts/1/rename", [("name", "savings")], "rename-input", "rename-error",
                    "You already have an account with that name."
                ),
                (
                    "/accounts/1/delete", [], nil, "delete-error",
                    "This account still holds $5.00. Move the money to another account first."
                ),
            ]
            for (action, fields, field, errorID, sentence) in cases {
                let refused = try await submit(browser, page, action, fields)
                #expect(refused.status == .unprocessableEntity, "\(action)")
                #expect(refused.body.contains(#"<title>Error: "#), "\(action)")
                #expect(
                    refused.body.contains(#"<p id="\#(errorID)" class="error" role="alert">\#(sentence)</p>"#),
                    "\(action)")
                // Said once, next to its form: no other form's error, nothing above Deposit.
                #expect(refused.body.ranges(of: #"class="error" role="alert""#).count == 1, "\(action)")
                if let field {
                    let tag = try startTag(refused, id: field) ?? ""
                    #expect(tag.contains(#"aria-invalid="true" aria-describedby="\#(errorID)" autofocus"#), "\(tag)")
                } else {
                    #expect(refused.body.contains(#"aria-describedby="delete-error" autofocus>Delete this account"#))
                }
                // Rename and Delete are folded away: their section comes back open.
                let opened = refused.body.contains(#"<details class="more" open>"#)
                #expect(opened == (action.hasSuffix("rename") || action.hasSuffix("delete")), "\(action)")
            }
            let home = try await browser.get("/home")
            let noName = try await submit(browser, home, "/home/name", [("name", " ")])
            #expect(noName.body.contains(#"<details class="more" open>"#))
            #expect(
                try startTag(noName, id: "display-name-input")?.contains(
                    #"aria-invalid="true" aria-describedby="set-name-error" autofocus"#) == true)
            #expect(
                noName.body.contains(
                    #"<p id="set-name-error" class="error" role="alert">Your name must be 1 to 40 characters.</p>"#))
            let longName = try await submit(browser, home, "/accounts", [("name", String(repeating: "x", count: 41))])
            #expect(
                try startTag(longName, id: "account-name")?.contains(
                    #"aria-invalid="true" aria-describedby="add-account-error" autofocus"#) == true)
            #expect(
                longName.body.contains(
                    #"<p id="add-account-error" class="error" role="alert">Account names are 1 to 40 characters.</p>"#))
            #expect(!longName.body.contains("<details class=\"more\" open>"))
            // A page with nothing refused marks nothing.
            #expect(!(try await browser.get("/accounts/1")).body.contains("aria-invalid"))
        }
    }
}
