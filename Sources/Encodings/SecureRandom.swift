import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes from the system's cryptographically secure source (`getrandom`), read 4 KB at a time
/// and handed out once each.
///
/// On Linux swift-crypto's `SymmetricKey(size:)` makes a `getrandom` system call per 8 bytes
/// (`initializeWithRandomBytes` fills through `SystemRandomNumberGenerator`): 6% of `GET /login`'s
/// CPU (`perf`) for the CSRF nonce and the pad that masks it. The pool asks the kernel once per
/// 4 KB: every byte still comes from the kernel's generator, none is handed
/// out twice, and each is zeroed in the pool as it is taken, so what a later leak of the
/// process's memory could show is only bytes not yet used. (No `fork` happens in this process;
/// a forked child would share the parent's unused bytes.)
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    precondition(count > 0, "asked for no random bytes")
    guard count <= RandomPool.maxTake else { return RandomPool.fresh(count) }
    return RandomPool.shared.withLock { $0.take(count) }
}

/// The bytes read ahead, behind a lock (two event loops share it; a take is a copy).
struct RandomPool {
    static let shared = Mutex(RandomPool())
    /// Bytes read from the kernel at once.
    static let size = 4096
    /// Larger requests are read on their own.
    static let maxTake = 256

    private var bytes: [UInt8] = []
    private var next = 0

    mutating func take(_ count: Int) -> [UInt8] {
        if bytes.count - next < count {
            bytes = Self.fresh(Self.size)
            next = 0
        }
        let range = next..<(next + count)
        let taken = Array(bytes[range])
        bytes.replaceSubrange(range, with: repeatElement(0, count: count))
        next += count
        return taken
    }

    /// Whether the first `count` bytes of the current read are zero (taken), for the tests.
    func remainingZeroed(upTo count: Int) -> Bool {
        bytes.prefix(count).allSatisfy { $0 == 0 }
    }

    /// `count` bytes from the kernel's generator in one call: `arc4random_buf`, which glibc
    /// (2.36 and later) and Darwin fill from `getrandom` / the kernel directly.
    static func fresh(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, count) }
        return bytes
    }
}
