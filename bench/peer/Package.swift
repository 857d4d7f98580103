// swift-tools-version:6.0
import PackageDescription

/// The Hummingbird peer `bench/run` measures Phone Login against (issue 16): the same Login and
/// Home pages written the way a Swift developer would write them with Hummingbird 2,
/// swift-mustache and GRDB. Not part of the product; built only by `bench/run`.
let package = Package(
    name: "PhoneLoginPeer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        // The words of the pages (Locales/ through Phone Login's Wording module): the peer
        // renders the same templates, so it must fill in the same words.
        .package(name: "PhoneLogin", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Peer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Wording", package: "PhoneLogin"),
            ]
        )
    ]
)
