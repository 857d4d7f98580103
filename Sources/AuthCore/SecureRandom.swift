/// Bytes from the system's secure random source (`getrandom` on Linux), eight at a time: asking
/// for one byte at a time costs a system call per byte, which the profile showed on every page
/// that issues a token.
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 7)
    while bytes.count < count {
        withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
    }
    return Array(bytes.prefix(count))
}
