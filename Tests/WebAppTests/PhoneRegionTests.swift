import AuthCore
import Foundation
import Testing

@testable import WebApp

/// `--phone-regions` and what the app answers a valid number it does not text.
@Suite("Phone regions over HTTP and on the command line")
struct PhoneRegionTests {
    @Test("the API answers a number we do not text with invalid_phone_number saying why; listed regions are texted")
    func api() async throws {
        try await withServer { server in
            let api = APIClient(server)
            for input in ["(876) 210-1234", "(416) 234-5678", "(900) 234-5678", "(800) 234-5678"] {
                let reply = try await api.send(input)
                #expect(reply.status == 422)
                #expect(reply.errorCode == "invalid_phone_number")
                #expect(reply.errorMessage == "We can only send codes to US phone numbers.")
                #expect(try await api.check(input, "123456").errorCode == "invalid_phone_number")
            }
            #expect(try server.outbox().isEmpty)
        }
        try await withServer({ $0.policy.phoneRegions = try! PhoneRegions(parsing: "US,CA") }) { server in
            let api = APIClient(server)
            #expect(try await api.send("(416) 234-5678").status == 200)
            let jamaica = try await api.send("(876) 210-1234")
            #expect(jamaica.errorCode == "invalid_phone_number")
            #expect(jamaica.errorMessage == "We can't send codes to this phone number.")
        }
    }

    @Test("--phone-regions (or WEBAPP_PHONE_REGIONS) sets the regions; US alone by default")
    func option() throws {
        let byDefault = try WebAppCommand.parse([]).appConfiguration(environment: [:])
        #expect(byDefault.policy.phoneRegions == .unitedStates)
        let given = try WebAppCommand.parse(["--phone-regions", "US,PR,VI,GU,AS,MP,CA"])
        #expect(try given.appConfiguration(environment: [:]).policy.phoneRegions.description == "US,AS,CA,GU,MP,PR,VI")
        let fromEnvironment = WebAppCommand.arguments([], environment: ["WEBAPP_PHONE_REGIONS": "US,CA"])
        #expect(fromEnvironment == ["--phone-regions", "US,CA"])
    }

    @Test("a region outside country code 1 stops start-up with the reason")
    func unknownRegion() {
        #expect {
            _ = try WebAppCommand.parse(["--phone-regions", "US,GB"])
        } throws: { error in
            WebAppCommand.message(for: error).contains("--phone-regions: GB is not a region of country code 1")
        }
    }
}
