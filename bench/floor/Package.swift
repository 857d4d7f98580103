// swift-tools-version:6.0
// The floor of bench/run's static-file scenario on this machine: SwiftNIO's HTTP/1.1 codec and
// one handler that answers every request with the same prepared bytes (app.css and the headers
// ours sends), nothing else. No server that parses HTTP with NIO can do less per request, so its
// requests/s bound what any NIO server (ours, Hummingbird) can reach here. Not part of the product.
import PackageDescription

let package = Package(
    name: "Floor",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0")],
    targets: [
        .executableTarget(
            name: "Floor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ])
    ]
)
