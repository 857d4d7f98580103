import Testing

@testable import DeliveryCore

@Suite("Delivery statuses")
struct DeliveryStatusTests {
    @Test("a status only moves forward: every pair of statuses, in both orders")
    func onlyForward() {
        for from in DeliveryStatus.allCases {
            for to in DeliveryStatus.allCases {
                let advanced = from.advanced(to: to)
                if to.stage > from.stage {
                    #expect(advanced == to, "\(from) → \(to)")
                } else {
                    #expect(advanced == nil, "\(from) → \(to) must change nothing")
                }
            }
        }
    }

    @Test("the first final status is kept: delivered is never undone by a late failed, nor the reverse")
    func finalsAreFinal() {
        for final in DeliveryStatus.allCases where final.isFinal {
            for later in DeliveryStatus.allCases { #expect(final.advanced(to: later) == nil) }
        }
    }

    @Test("any order of reports ends at the furthest stage reached, and a replay changes nothing")
    func anyOrder() {
        var generator = SeededGenerator(seed: 26)
        for _ in 0..<500 {
            let reports = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                DeliveryStatus.allCases.randomElement(using: &generator)!
            }
            var status = DeliveryStatus.sending
            for report in reports + reports { status = status.advanced(to: report) ?? status }
            let furthest = reports.map(\.stage).max()!
            #expect(status.stage == max(furthest, 0))
            if furthest == 3 { #expect(status == reports.first { $0.isFinal }) }
        }
    }

    @Test("undelivered and failed mean the code will not arrive; nothing else does")
    func didNotArrive() {
        #expect(DeliveryStatus.allCases.filter(\.didNotArrive) == [.undelivered, .failed])
    }
}

/// A small deterministic generator (SplitMix64), so a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
