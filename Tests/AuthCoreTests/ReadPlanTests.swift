import Foundation
import Testing

@testable import AuthCore

/// The pairing of a decision with its reads (issue 26, part 7): a store that answers less than
/// was read, or with the wrong kind of answer, fails that request; it never reads as "no limit".
@Suite("Read plans")
struct ReadPlanTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func check(client: String?) -> CodeCheck {
        CodeCheck(
            session: Data(repeating: 1, count: 32), phone: try! PhoneNumber(parsing: "(530) 555-0123"),
            candidateDigest: nil, signedInSession: Data(repeating: 2, count: 32), client: client, now: now)
    }

    @Test("a store that skips a read, or answers one too many, fails the request with StoredDataCorrupt")
    func missingAnswer() throws {
        let plan = rules.checkReads(check(client: "10.0.0.1"))
        let answers = plan.list.reads.map(Stored().answer)
        // The session, the code, the two failure windows and the number's account (the
        // recycled-number guard).
        #expect(answers.count == 5)
        for skipped in answers.indices {
            var short = answers
            short.remove(at: skipped)
            #expect(throws: StoredDataCorrupt.self) { try plan.found(in: try Answers(short, to: plan.list)) }
        }
        // One answer too many is a store answering some other list: refused too.
        #expect(throws: StoredDataCorrupt.self) {
            try plan.found(in: try Answers(answers + [.events(at: nil)], to: plan.list))
        }
        _ = try plan.found(in: try Answers(answers, to: plan.list))
    }

    @Test("an answer of another kind than its read (a window answered with a session) is refused, not read as room")
    func wrongKind() {
        let plan = rules.checkReads(check(client: "10.0.0.1"))
        for index in plan.list.reads.indices {
            var answers = plan.list.reads.map(Stored().answer)
            answers[index] = if case .session = answers[index] { .code(nil) } else { .session(nil) }
            #expect(throws: StoredDataCorrupt.self) { try plan.found(in: try Answers(answers, to: plan.list)) }
        }
    }

    @Test(
        "a limit the request makes moot is known, not read: an unknown client's window is open and costs no statement")
    func knownWithoutReading() throws {
        let plan = rules.checkReads(check(client: nil))
        #expect(plan.list.reads.count == 4)
        let found = try plan.found(in: try Answers(plan.list.reads.map(Stored().answer), to: plan.list))
        #expect(found.clientFailures == .notCounted)
        #expect(found.clientFailures.fullUntil == nil)
    }

    @Test("a full window says until when, from its own length: the n-th newest event plus the window")
    func windowLength() throws {
        var stored = Stored()
        stored.events[.phoneFailures] = 1_799_990_000
        let found = stored.found(rules.checkReads(check(client: nil)))
        #expect(found.phoneFailures.fullUntil == Date(timeIntervalSince1970: 1_799_990_000 + 86_400))
    }
}
