import Crypto

/// Bytes from a cryptographically secure generator: swift-crypto's (BoringSSL's `RAND_bytes` on
/// Linux, seeded from the kernel and safe across `fork`), which fills any length without a
/// system call per call. Reading the kernel's source eight bytes at a time cost a system call
/// each, which the profile showed on every page that issues a token (Home issues two form keys).
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    precondition(count > 0, "asked for no random bytes")
    return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
}
