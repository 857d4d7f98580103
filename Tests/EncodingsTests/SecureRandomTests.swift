import Testing

@testable import Encodings

@Suite("Secure random bytes")
struct SecureRandomTests {
    @Test("20,000 tokens of 16 bytes across many 4 KB refills are all different, and every length is served")
    func neverTheSameBytesTwice() {
        var seen = Set<[UInt8]>()
        for _ in 0..<20_000 {
            let bytes = secureRandomBytes(16)
            #expect(bytes.count == 16)
            seen.insert(bytes)
        }
        #expect(seen.count == 20_000)
        for count in [1, 31, 40, 255, 256, 257, 4096, 5000] {
            #expect(secureRandomBytes(count).count == count)
        }
    }

    @Test(
        "the bytes look uniform: each of 256 values about 1/256 of 1 MB (chi-squared under 380, which a fair source passes but about once in a million)"
    )
    func uniform() {
        var counts = [Int](repeating: 0, count: 256)
        for _ in 0..<(1 << 20) / 64 {
            for byte in secureRandomBytes(64) { counts[Int(byte)] += 1 }
        }
        let expected = Double(1 << 20) / 256
        let chiSquared = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquared < 380, "chi-squared \(chiSquared) with 255 degrees of freedom")
    }

    @Test("a pool hands each byte out once: a take is zeroed in the pool, the next take starts after it")
    func takenOnce() {
        var pool = RandomPool()
        let first = pool.take(32)
        let second = pool.take(32)
        #expect(first != second)
        #expect(pool.remainingZeroed(upTo: 64))
    }
}
