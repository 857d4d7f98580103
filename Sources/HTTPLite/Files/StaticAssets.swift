import Crypto
import Encodings
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The files of a folder (our `Public/`), read once into memory with their content type, a
/// content-hash `ETag` and, for text worth it, a gzip copy made once per change of the file, so
/// serving one takes no file-system call and no compression. Style sheets and scripts are
/// served without their comments (``SourceComments``).
///
/// A request finding the snapshot older than ``refreshInterval`` starts a re-scan on NIO's
/// blocking-I/O pool (and goes on with the snapshot it has): a file edited, added or removed is
/// served as it now is within a couple of seconds, and unchanged files (same size and
/// modification time) are not read again. Only regular files inside the folder are taken:
/// names starting with a dot are skipped, and a symbolic link that leads out of the folder is
/// ignored.
public final class StaticAssets: Sendable {
    /// One file, ready to send.
    public struct Asset: Sendable {
        public let body: ByteBuffer
        public let contentType: String
        /// `"` + the first 16 hex digits of the content's SHA-256 + `"`: the same on every instance.
        public let etag: String
        /// The body gzip-compressed with its own `ETag` (``Gzip/etag(of:)``), for types worth
        /// it of at least ``Gzip/minimumSize`` bytes when that is smaller; `nil` otherwise.
        public let gzipped: Encoded?
        /// The content-hashed name (``StaticAssets/versioned(_:)``), made with the snapshot:
        /// every page links a handful of these.
        let versionedName: String
        let size: Int
        let modified: Date
    }

    /// A file's body in a content coding, with the `ETag` of that variant.
    public struct Encoded: Sendable {
        public let body: ByteBuffer
        public let etag: String
    }

    /// How old a snapshot may get before a request asks for a re-scan.
    public static let refreshInterval: TimeAmount = .seconds(2)

    private let root: String
    private let threadPool: NIOThreadPool
    private let state: NIOLockedValueBox<State>

    private struct State {
        var assets: [String: Asset]
        var scannedAt: NIODeadline
        var scanning = false
    }

    /// Reads the folder now (at start-up, before anything is served).
    public init(folder: String, threadPool: NIOThreadPool = .singleton) {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        self.root = root
        self.threadPool = threadPool
        self.state = NIOLockedValueBox(State(assets: Self.scan(root, previous: [:]), scannedAt: .now()))
    }

    /// The file at `relative` (`app.css`, `icons/x.svg`), if the folder has it.
    public func asset(_ relative: String) -> Asset? {
        state.withLockedValue { $0.assets[relative] }
    }

    /// The file a request names, by its plain name (`app.css`) or by its content-hashed one
    /// (`app.3f2a1c9e.css`, then `immutable`). A hash that is not the file's content now (a page
    /// cached from before a deploy) still gets the file as it is now, not to be kept for long.
    public func lookup(_ relative: String) -> (asset: Asset, immutable: Bool)? {
        if let asset = asset(relative) { return (asset, false) }
        var parts = relative.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2].utf8.count == Self.hashLength,
            parts[parts.count - 2].allSatisfy(\.isHexDigit)
        else { return nil }
        let hash = parts.remove(at: parts.count - 2)
        guard let asset = asset(parts.joined(separator: ".")) else { return nil }
        return (asset, asset.etag.dropFirst().hasPrefix(hash))
    }

    /// The content-hashed name of `relative` (`app.css` → `app.3f2a1c9e.css`), for pages to
    /// link, so browsers may keep the file for a year; `relative` itself when the folder has no
    /// such file.
    public func versioned(_ relative: String) -> String {
        asset(relative)?.versionedName ?? relative
    }

    /// `relative` with the first hex digits of `etag`'s hash before its extension.
    static func versionedName(_ relative: String, etag: String) -> String {
        let hash = etag.dropFirst().prefix(Self.hashLength)
        let ext = (relative as NSString).pathExtension
        guard !ext.isEmpty else { return relative + "." + hash }
        return (relative as NSString).deletingPathExtension + "." + hash + "." + ext
    }

    /// Hex digits of the content hash in a versioned name.
    static let hashLength = 8

    /// Starts a re-scan when the snapshot is older than ``refreshInterval`` (at most one at a
    /// time); returns at once.
    public func refreshIfStale() {
        let due = state.withLockedValue { state -> [String: Asset]? in
            guard !state.scanning, NIODeadline.now() - state.scannedAt > Self.refreshInterval else { return nil }
            state.scanning = true
            return state.assets
        }
        guard let previous = due else { return }
        let root = self.root
        threadPool.submit { [state] _ in
            let assets = Self.scan(root, previous: previous)
            state.withLockedValue {
                $0.assets = assets
                $0.scannedAt = .now()
                $0.scanning = false
            }
        }
    }

    /// Every regular file under `root`, keyed by its path relative to it; files whose size and
    /// modification time did not change are taken from `previous` without reading them.
    static func scan(_ root: String, previous: [String: Asset]) -> [String: Asset] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [:] }
        var assets: [String: Asset] = [:]
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            let path = URL(fileURLWithPath: root + "/" + relative).resolvingSymlinksInPath().path
            guard path.hasPrefix(root + "/"),
                let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            let modified = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            if let known = previous[relative], known.size == size, known.modified == modified {
                assets[relative] = known
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let contentType = StaticFiles<BasicRequestContext>.contentType(
                forExtension: (relative as NSString).pathExtension)
            let served = SourceComments.stripped(Array(data), contentType: contentType)
            let digest = SHA256.hash(data: served).prefix(8).hexString
            let body = ByteBuffer(bytes: served)
            let etag = "\"\(digest)\""
            let worthGzip = body.readableBytes >= Gzip.minimumSize && Gzip.isCompressible(contentType: contentType)
            assets[relative] = Asset(
                body: body, contentType: contentType, etag: etag,
                gzipped: worthGzip ? Gzip.compress(body).map { Encoded(body: $0, etag: Gzip.etag(of: etag)) } : nil,
                versionedName: versionedName(relative, etag: etag), size: size, modified: modified)
        }
        return assets
    }
}
