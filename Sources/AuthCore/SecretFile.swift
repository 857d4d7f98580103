import Foundation

/// A file that holds a secret (the server secret, the gateway's signing key): created with mode
/// 0600 from its first byte, and only if it does not exist yet (`O_EXCL`), so two instances
/// starting at once never both write one.
public enum SecretFile {
    /// Writes `contents` to a new file at `path` (0600) and syncs it; `false` when a file is
    /// already there (the caller then reads that one).
    public static func create(at path: String, contents: String) throws -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd < 0 {
            if errno == EEXIST { return false }
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        let written = contents.utf8CString.withUnsafeBufferPointer { buffer in
            write(fd, buffer.baseAddress, buffer.count - 1)
        }
        guard written == contents.utf8.count, fsync(fd) == 0 else {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        return true
    }

    /// A secret file that could not be written.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "Could not write \(path): \(reason)" }
    }
}
