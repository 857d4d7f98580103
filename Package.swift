// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PhoneLogin",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "webapp", targets: ["WebApp"]),
        .library(name: "HTTPLite", targets: ["HTTPLite"]),
        .library(name: "HTMLRender", targets: ["HTMLRender"]),
        .library(name: "AuthCore", targets: ["AuthCore"]),
        .library(name: "DeliveryCore", targets: ["DeliveryCore"]),
        .library(name: "Wording", targets: ["Wording"]),
        .library(name: "Encodings", targets: ["Encodings"]),
        .library(name: "WebAuthnCore", targets: ["WebAuthnCore"]),
        .library(name: "SMSProviders", targets: ["SMSProviders"]),
        .library(name: "WalletCore", targets: ["WalletCore"]),
        .library(name: "AccountCore", targets: ["AccountCore"]),
        .library(name: "ConsoleCore", targets: ["ConsoleCore"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .library(name: "StorageSQL", targets: ["StorageSQL"]),
        .library(name: "GatewayCore", targets: ["GatewayCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // The currency HTTP types (HTTPRequest, HTTPResponse, HTTPFields) that Hummingbird 2 and
        // AsyncHTTPClient share, and NIO's conversion from its HTTP/1 codec's heads to them.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // Our HTTP layer, in folders with one direction of use: Server/ (NIO's HTTP/1 codec, the
        // only place NIOHTTP1 is imported: connections, limits, timers) hands Messages/ (Request,
        // Response on swift-http-types, cookies, forms) to Routing/ (router, middleware,
        // contexts, errors); Files/ and Compression/ are middleware and responders.
        .target(
            name: "HTTPLite",
            dependencies: [
                "Encodings",
                "Wording",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        .target(
            name: "HTMLRender",
            dependencies: [
                .product(name: "Mustache", package: "swift-mustache")
            ]
        ),
        // The byte encodings every module shares, written once: base64url, hex, the
        // constant-time comparison of secrets, and secure random bytes.
        .target(name: "Encodings"),
        // Every word people read or hear, per language: the catalogs in Locales/, the language an
        // Accept-Language header prefers, plurals, and the check that every language has every key.
        .target(name: "Wording"),
        // Passkeys: WebAuthn's data parsed into types (CBOR, COSE keys, authenticator data, the
        // browser's JSON) and the two ceremonies' checks, in the specification's order. No HTTP,
        // no storage.
        .target(
            name: "WebAuthnCore",
            dependencies: [
                "Encodings",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Texts and calls as providers see them: channels, delivery statuses that only move
        // forward, signed status callbacks (Twilio's and our webhook's), what a call says. No HTTP, no storage.
        .target(
            name: "DeliveryCore",
            dependencies: [
                "Encodings",
                .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        // What happened to an account or a number: the events recorded with each change, the
        // networks they keep, and how "Recent activity" reads them. Decides; no HTTP, no storage.
        .target(name: "EventsCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // The sign-in rules: decides, and imports no storage and no NIO.
        .target(
            name: "AuthCore",
            dependencies: [
                "EventsCore",
                "Encodings",
                "DeliveryCore",
                "WebAuthnCore",
                "Wording",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The account over the years: the numbers it held, the download of everything kept about
        // the person, and the deletion. Decides; no HTTP, no storage.
        .target(
            name: "AccountCore",
            dependencies: ["EventsCore", "Encodings", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The operators' console: who is an operator, when the console opens (a recent passkey),
        // the reasons and events of their actions. Decides; no HTTP, no storage.
        .target(
            name: "ConsoleCore",
            dependencies: ["AuthCore", "EventsCore", "Encodings", .product(name: "Crypto", package: "swift-crypto")]),
        // The wallet of the original app: accounts and money, no HTTP, no storage.
        .target(
            name: "WalletCore",
            dependencies: [
                "Wording", "AuthCore",
            ]
        ),
        // The SQL both stores run, written once: each store method as steps (a statement, then
        // what to do with its rows), the few differences between the dialects named in SQL.swift,
        // and the stores over a StepRunner. No GRDB, no PostgresNIO.
        .target(
            name: "StorageSQL",
            dependencies: [
                "AuthCore", "WalletCore", "OIDCCore", "AccountCore", "EventsCore", "ConsoleCore", "Encodings",
            ]
        ),
        // SQLite (GRDB): runs StorageSQL's steps, migrations, SQLite's refusals translated.
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "StorageSQL",
                "OIDCCore",
                "AuthCore",
                "WalletCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, as GRDB links it: the steps bind their values to a cached
                // statement directly (Database+Steps.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // PostgreSQL (postgres-nio), for several app instances sharing one database: runs
        // StorageSQL's steps within a timeout, advisory locks, migrations.
        .target(
            name: "PostgresStorage",
            dependencies: [
                "StorageSQL",
                "OIDCCore",
                "AuthCore",
                "WalletCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Gateway mode: who may pass to a protected app, where to send people back to, and the
        // signed assertion (ES256 JWT, jwt-kit) a reverse proxy hands to the app. No HTTP, no storage.
        .target(
            name: "GatewayCore",
            dependencies: [
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                "Encodings",
                "AuthCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // OpenID Connect provider: clients, authorization and token requests validated into
        // typed values, PKCE, grants, ID and access tokens (jwt-kit). No HTTP, no storage; Encodings'
        // constant-time comparison, base64url and secure random.
        .target(
            name: "OIDCCore",
            dependencies: [
                "Encodings",
                "AuthCore",
                "EventsCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Real delivery of texts and calls (Twilio, a signed webhook) behind AuthCore's CodeSender protocol.
        .target(
            name: "SMSProviders",
            dependencies: [
                "AuthCore",
                "DeliveryCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "WebApp",
            dependencies: [
                "Encodings",
                .product(name: "JWTKit", package: "jwt-kit"),
                "AccountCore",
                "ConsoleCore",
                "EventsCore",
                "OIDCCore",
                "HTTPLite",
                "HTMLRender",
                "AuthCore",
                "DeliveryCore",
                "Wording",
                "GatewayCore",
                "SMSProviders",
                "WalletCore",
                "SQLiteStorage",
                "PostgresStorage",
                // The webhook sender's client (the SMS providers' too).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "Encodings",
                "PostgresStorage",
                "Wording",
                "WebAuthnCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: [
                "PostgresStorage",
                "AuthCore",
                "DeliveryCore",
                "WalletCore",
                "TestSupport",
                "Wording",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AuthCoreTests",
            dependencies: [
                "AuthCore", "EventsCore", "DeliveryCore", "TestSupport", "Wording", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "ConsoleCoreTests", dependencies: ["ConsoleCore", "AuthCore", "EventsCore"]),
        // One store suite, every backend: the sign-in and wallet behaviour on SQLite and PostgreSQL.
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "AccountCore", "ConsoleCore", "EventsCore", "GatewayCore", "Encodings",
                "OIDCCore", .product(name: "JWTKit", package: "jwt-kit"),
                "AuthCore", "DeliveryCore", "WalletCore", "SQLiteStorage", "PostgresStorage", "TestSupport", "Wording",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "EventsCoreTests", dependencies: ["EventsCore"]),
        .testTarget(
            name: "HTMLRenderTests",
            dependencies: ["HTMLRender", "TestSupport", .product(name: "Mustache", package: "swift-mustache")]
        ),
        .testTarget(
            name: "HTTPLiteTests",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "HTTPLite",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "GatewayCoreTests",
            dependencies: ["GatewayCore", "AuthCore", "Encodings", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .testTarget(
            name: "OIDCCoreTests",
            dependencies: ["OIDCCore", "AuthCore", "Encodings", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "WalletCoreTests",
            dependencies: ["WalletCore", "AuthCore", "TestSupport"]
        ),
        .testTarget(
            name: "WebAuthnCoreTests",
            dependencies: [
                "WebAuthnCore", "Encodings", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "StorageSQLTests",
            // SQLite and GRDB: the query plans of the reads every send makes (QueryPlanTests).
            dependencies: ["AuthCore", "StorageSQL", "SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "EncodingsTests",
            dependencies: ["Encodings"]
        ),
        .testTarget(
            name: "WordingTests",
            dependencies: ["Wording", "TestSupport"]
        ),
        .testTarget(
            name: "DeliveryCoreTests",
            dependencies: ["DeliveryCore", "Encodings", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "SMSProvidersTests",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "SMSProviders",
                "DeliveryCore",
                "Encodings",
                "AuthCore",
                "HTTPLite",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "OIDCCore",
                "WebApp",
                "AuthCore",
                "DeliveryCore",
                "Encodings",
                "GatewayCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                "HTTPLite",
                "SMSProviders",
                "WalletCore",
                "SQLiteStorage",
                "PostgresStorage",
                "TestSupport",
                "WebAuthnCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ]
)
