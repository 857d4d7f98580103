/// Compares two byte strings (digests, MACs, challenges) in time that does not depend on where
/// they first differ; only a difference in length returns at once. The one comparison of
/// secrets every module uses. Inlinable, so each caller gets it specialized for its own byte
/// collection (a CSRF check on every form) instead of a generic call per byte.
@inlinable
public func constantTimeEquals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
}
