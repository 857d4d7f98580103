import Crypto
import Foundation
import Hummingbird

/// `Public/` read once at start and served from memory: each file under its plain name
/// (`app.css`, `max-age=300`) and its content-hashed name (`app.3f2a1c9e.css`, kept a year),
/// with a content-hash `ETag`, as Phone Login serves them.
struct PublicAssets: Sendable {
    struct File: Sendable {
        let plainResponse: Response
        let immutableResponse: Response
        let hashedName: String

        /// The answer for the plain or the hashed name.
        func response(immutable: Bool) -> Response { immutable ? immutableResponse : plainResponse }
    }

    private let files: [String: File]
    private let hashed: [String: String]

    init(directory: String) throws {
        var files: [String: File] = [:]
        var hashed: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            let ext = (name as NSString).pathExtension
            let hashedName = (name as NSString).deletingPathExtension + "." + digest.prefix(8) + "." + ext
            func response(_ cacheControl: String) -> Response {
                Response(
                    status: .ok,
                    headers: [
                        .contentType: Self.contentType(ext), .cacheControl: cacheControl, .eTag: "\"\(digest)\"",
                    ],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
            files[name] = File(
                plainResponse: response("public, max-age=300"),
                immutableResponse: response("public, max-age=31536000, immutable"), hashedName: hashedName)
            hashed[hashedName] = name
        }
        self.files = files
        self.hashed = hashed
    }

    /// The answer for `/public/NAME`, plain or hashed; `nil` for no such file.
    func file(named name: String) -> Response? {
        if let file = files[name] { return file.response(immutable: false) }
        guard let plain = hashed[name], let file = files[plain] else { return nil }
        return file.response(immutable: true)
    }

    /// `/public/app.3f2a1c9e.css` for `app.css`: what pages link.
    func address(of name: String) -> String {
        "/public/" + (files[name]?.hashedName ?? name)
    }

    private static func contentType(_ ext: String) -> String {
        switch ext {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}
