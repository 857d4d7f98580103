import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to 127.0.0.1, for sending bytes no HTTP client would send
/// (malformed requests, huge headers, trickled bytes). Reads and sends time out, so no test
/// hangs; a time-out is never taken for the peer's doing (``isClosedByPeer()``,
/// ``SendOutcome``), so a test asserts what the server did, not how long it took.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    /// - Parameter receiveBuffer: a small kernel receive buffer (bytes) for a client that reads
    ///   slowly or not at all, so the server feels it at once.
    init(port: Int, readTimeoutSeconds: Int = 10, receiveBuffer: Int32? = nil) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close(fd) here: a class whose stored properties are all set runs `deinit` even
        // when its init throws, and a second close could hit a descriptor NIO reused meanwhile.
        guard result == 0 else { throw TestFailure("connect() failed") }
    }

    /// The only place the socket is closed, exactly once.
    deinit { close(fd) }

    /// This end's port.
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether the server listening on `port` has read all that was sent on this connection:
    /// in the kernel's table of TCP sockets (Linux's `/proc/net/tcp`), this end has nothing
    /// unacknowledged in its send queue, and the server's end of it, established, has nothing
    /// left in its receive queue. What a test waits for before acting on a request the server
    /// must have seen.
    func isReadByServer(port: Int) -> Bool {
        // Read to the end with read(2): the file says its size is 0, and Foundation's readers
        // can stop at a first page of what may be many sockets'.
        let file = open("/proc/net/tcp", O_RDONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(file, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        let mine = localPort
        let loopback = "0100007F"
        var sent = false, read = false
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue …, addresses as hex "0100007F:1F90".
            let fields = line.split(separator: " ")
            guard fields.count > 4 else { continue }
            func end(_ address: Substring) -> (host: Substring, port: Int?) {
                let parts = address.split(separator: ":")
                return (parts.first ?? "", parts.last.flatMap { Int($0, radix: 16) })
            }
            let (local, remote) = (end(fields[1]), end(fields[2]))
            guard local.host == loopback, remote.host == loopback else { continue }
            let queues = fields[4].split(separator: ":").map { Int($0, radix: 16) }
            guard queues.count == 2, fields[3] == "01" else { continue }  // established
            if local.port == mine, remote.port == port { sent = queues[0] == 0 }
            if local.port == port, remote.port == mine { read = queues[1] == 0 }
        }
        return sent && read
    }

    /// How a send ended.
    enum SendOutcome: Equatable {
        case sent
        /// The peer closed or reset the connection before taking everything.
        case closedByPeer
        /// The peer took nothing more for this socket's own timeout.
        case timedOut
    }

    /// Sends all of `text`; returns false if it could not (see ``sendAll(_:)`` for why).
    @discardableResult
    func send(_ text: String) -> Bool {
        sendAll(Array(text.utf8)) == .sent
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        sendAll(bytes) == .sent
    }

    /// Sends all of `text`, saying whether the peer closed the connection or this socket's
    /// send timeout ran out first.
    func sendAll(_ text: String) -> SendOutcome {
        sendAll(Array(text.utf8))
    }

    func sendAll(_ bytes: [UInt8]) -> SendOutcome {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(fd, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return Self.timedOut(errno) ? .timedOut : .closedByPeer }
            offset += sent
        }
        return .sent
    }

    /// True for the errors a socket timeout gives (`SO_RCVTIMEO`, `SO_SNDTIMEO`).
    private static func timedOut(_ error: Int32) -> Bool {
        error == EAGAIN || error == EWOULDBLOCK
    }

    /// Reads until the peer closes the connection or the read times out.
    ///
    /// The blocking read runs on a Dispatch thread, never on Swift concurrency's small
    /// cooperative pool, which the server under test needs to answer.
    func readAll() async -> String {
        await offPool { self.blockingReadAll() }
    }

    /// Reads one response with a `Content-Length` body (for keep-alive checks).
    func readResponse() async -> String? {
        await offPool { self.blockingReadResponse() }
    }

    /// Whatever arrives next (one `recv`); `nil` at end of file, a reset or a read timeout.
    func readChunk() async -> [UInt8]? {
        await offPool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(self.fd, &buffer, buffer.count, 0)
            return count > 0 ? Array(buffer[0..<count]) : nil
        }
    }

    /// Reads (and drops) whatever the peer sends; true when the peer then closes the
    /// connection, false when this socket's read timeout runs out first.
    func isClosedByPeerAfterReading() async -> Bool {
        await offPool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(self.fd, &buffer, buffer.count, 0)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                return count == 0 || !Self.timedOut(errno)
            }
        }
    }

    /// True when the peer has closed the connection (a read returns end-of-file or a reset);
    /// false when data arrives or this socket's own read timeout runs out first.
    func isClosedByPeer() async -> Bool {
        await offPool {
            var byte: UInt8 = 0
            while true {
                let count = recv(self.fd, &byte, 1, 0)
                if count < 0 && errno == EINTR { continue }
                if count == 0 { return true }
                return count < 0 && !Self.timedOut(errno)
            }
        }
    }

    /// Everything the peer sends until it closes the connection, and whether it did close it
    /// (false: this socket's read timeout ran out first).
    func readUntilClosed() async -> (text: String, closedByPeer: Bool) {
        await offPool {
            var result = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(self.fd, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                if count > 0 {
                    result.append(contentsOf: buffer[0..<count])
                    continue
                }
                let closed = count == 0 || !Self.timedOut(errno)
                return (String(decoding: result, as: UTF8.self), closed)
            }
        }
    }

    /// Runs a blocking socket call on a thread of its own. Not on `DispatchQueue.global()`: on
    /// Linux that queue runs as many jobs at once as there are cores (two here), so while other
    /// suites' connections sat in blocking reads, a test's read waited seconds for its turn and
    /// timing tests failed (an idle close seen 4 s late in the fresh-clone CI run).
    private func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    private func blockingReadAll() -> String {
        var result = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func blockingReadResponse() -> String? {
        var result = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let text = String(decoding: result, as: UTF8.self)
            if let headerEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headerEnd.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                let bodyStart = text.utf8.distance(from: text.startIndex, to: headerEnd.upperBound)
                if result.count >= bodyStart + length { return text }
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return result.isEmpty ? nil : String(decoding: result, as: UTF8.self) }
            result.append(contentsOf: buffer[0..<count])
        }
    }
}
