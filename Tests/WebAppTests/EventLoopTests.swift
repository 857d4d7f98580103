import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import Testing

@testable import WebApp

/// SQLite work never runs on NIO's event loops: every statement of a busy mix of page and API
/// sign-ins is traced and its thread checked.
@Suite("Event loops stay free")
struct EventLoopTests {
    @Test("no SQL statement runs on an event-loop thread")
    func sqliteOffTheLoops() async throws {
        let seen = NIOLockedValueBox((statements: 0, onEventLoop: 0))
        try await withServer(
            database: .sqlite,
            {
                $0.sms = .test
                $0.policy.maxCodesPerClient = 10_000
                $0.onDatabaseStatement = { _ in
                    let onLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
                    seen.withLockedValue {
                        $0.statements += 1
                        if onLoop { $0.onEventLoop += 1 }
                    }
                }
            }
        ) { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        // Forty exchanges: one exchange gets at most 30 texts an hour.
                        let phone = String(format: "530%03d%04d", 250 + index, index)
                        if index.isMultiple(of: 2) {
                            let browser = Browser(baseURL: server.baseURL)
                            _ = try await browser.post("/login", form: [("phone", phone)])
                            #expect(try await browser.post("/verify", form: [("code", "123456")]).location == "/home")
                            #expect(try await browser.get("/home").status == .ok)
                        } else {
                            let api = APIClient(server)
                            let token = try await api.signIn(server, "+1" + phone)
                            #expect(try await api.call(.GET, "/me", token: token).status == 200)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let result = seen.withLockedValue { $0 }
        #expect(result.statements > 200)
        #expect(result.onEventLoop == 0)
    }
}
