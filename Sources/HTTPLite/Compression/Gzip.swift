import CompressNIO
import NIOCore
import NIOPosix

/// gzip through zlib (compress-nio), with one compressor per thread.
///
/// Setting up a deflate stream allocates about 270 KB (the 32 KB window, its hash chains and
/// buffers); doing that per response would cost more than compressing a 5 KB page. Each thread
/// keeps one stream and resets it between bodies instead, which keeps the window and tables.
/// A body is compressed whole, in one call: every answer here is already in memory.
public enum Gzip {
    /// Bodies smaller than this are sent as they are: gzip's 18 bytes of header and trailer
    /// and the Huffman tables eat most of what it saves, and the body fits one packet anyway.
    public static let minimumSize = 1024

    /// `body` gzip-compressed at zlib's default level (6), or `nil` when that is not smaller.
    public static func compress(_ body: ByteBuffer, allocator: ByteBufferAllocator = ByteBufferAllocator())
        -> ByteBuffer?
    {
        guard let compressor = Self.compressor() else { return nil }
        var input = body
        var output = allocator.buffer(capacity: compressor.maxSize(from: input))
        do {
            try compressor.reset()
            try compressor.deflate(from: &input, to: &output, flush: .finish)
        } catch {
            return nil
        }
        return output.readableBytes < body.readableBytes ? output : nil
    }

    /// Whether an answer of this `Content-Type` is worth compressing: text, scripts, JSON, SVG.
    /// Images, fonts and archives are compressed already; gzip would only make them larger.
    public static func isCompressible(contentType: String) -> Bool {
        let type = contentType.prefix { $0 != ";" }.lowercased()
        if type.hasPrefix("text/") { return true }
        return type == "application/json" || type.hasSuffix("+json") || type == "application/javascript"
            || type == "image/svg+xml" || type == "application/xml" || type.hasSuffix("+xml")
    }

    private final class Box: @unchecked Sendable {
        let compressor: ZlibCompressor
        init(_ compressor: ZlibCompressor) { self.compressor = compressor }
    }

    private static let perThread = ThreadSpecificVariable<Box>()

    /// This thread's compressor, made on first use; `nil` only if zlib cannot get memory.
    private static func compressor() -> ZlibCompressor? {
        if let box = perThread.currentValue { return box.compressor }
        guard let compressor = try? ZlibCompressor(algorithm: .gzip) else { return nil }
        perThread.currentValue = Box(compressor)
        return compressor
    }
}

extension Gzip {
    /// The `ETag` of the gzip variant of an answer whose identity `ETag` is `etag`:
    /// `"3f2a…"` → `"3f2a…-gzip"` (weak stays weak). A cache holding one variant never matches
    /// the other.
    public static func etag(of etag: String) -> String {
        guard etag.hasSuffix("\"") else { return etag + "-gzip" }
        return etag.dropLast() + "-gzip\""
    }
}
