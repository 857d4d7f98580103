import Foundation
import NIOSSL
import PostgresNIO

extension PostgresBackend {
    /// Where the database is and how to reach it, usually from a `postgres://` URL.
    public struct Configuration: Sendable {
        public enum TLSMode: String, Sendable {
            /// Plain TCP (a database on the same host or a private network).
            case disable
            /// TLS when the server offers it, plain otherwise (libpq's default).
            case prefer
            /// TLS or no connection; the server's certificate and name are verified.
            case require
        }

        public var host = "127.0.0.1"
        public var port = 5432
        /// A Unix-domain socket path; used instead of `host` and `port` when set.
        public var socketPath: String?
        public var username = "postgres"
        public var password: String?
        public var database: String?
        public var tls = TLSMode.prefer
        /// The schema the app's tables live in (`search_path`); the user's default when `nil`.
        public var schema: String?
        /// Most connections this instance opens.
        public var maxConnections = 20
        /// How long a query or transaction (including the wait for a connection) may take before
        /// the request gets "briefly unavailable" instead of hanging.
        public var timeout: Duration = .seconds(10)
        /// How long start-up waits for the server to answer and the migrations to run before
        /// giving up with an error (`?connect_timeout=SECONDS`).
        public var startupTimeout: Duration = .seconds(30)

        public init() {}

        /// Reads `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`
        /// (also `postgresql://`; `?host=/path` for a Unix socket; `?schema=NAME` for the
        /// schema of the app's tables; `?connect_timeout=SECONDS` for ``startupTimeout``). User
        /// and password may be percent-encoded.
        public init(url text: String) throws {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "postgres" || scheme == "postgresql"
            else {
                throw ConfigurationError("Not a PostgreSQL URL (expected postgres://user@host/database).")
            }
            if let host = url.host, !host.isEmpty { self.host = host }
            if let port = url.port {
                guard (1...65535).contains(port) else { throw ConfigurationError("The port \(port) is out of range.") }
                self.port = port
            }
            if let user = url.user, !user.isEmpty { username = user }
            password = url.password
            let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
            database = path.isEmpty ? nil : path
            for item in url.queryItems ?? [] {
                let value = item.value ?? ""
                switch item.name {
                case "sslmode":
                    switch value {
                    case "disable": tls = .disable
                    case "allow", "prefer": tls = .prefer
                    case "require", "verify-ca", "verify-full": tls = .require
                    default: throw ConfigurationError("Unknown sslmode \"\(value)\" (disable, prefer or require).")
                    }
                case "host":
                    guard value.hasPrefix("/") else {
                        throw ConfigurationError("?host= must be the folder of a Unix socket (starting with /).")
                    }
                    socketPath = (value as NSString).appendingPathComponent(".s.PGSQL.\(port)")
                case "schema":
                    guard Self.isIdentifier(value) else {
                        throw ConfigurationError("?schema= must be a plain name (letters, digits, _).")
                    }
                    schema = value
                case "connect_timeout":
                    guard let seconds = Int(value), (1...600).contains(seconds) else {
                        throw ConfigurationError("connect_timeout must be 1 to 600 seconds.")
                    }
                    startupTimeout = .seconds(seconds)
                case "application_name":
                    break
                default:
                    throw ConfigurationError("Unknown parameter \"\(item.name)\" in the database URL.")
                }
            }
        }

        /// The URL again with the password hidden, for logs and messages.
        public var redacted: String {
            let user = password == nil ? username : "\(username):***"
            let place = socketPath ?? "\(host):\(port)"
            return "postgres://\(user)@\(place)/\(database ?? "")"
        }

        static func isIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, (1...63).contains(name.utf8.count) else { return false }
            return (CharacterSet.lowercaseLetters.contains(first) || first == "_")
                && name.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                }
        }

        /// The settings for postgres-nio's `PostgresClient`.
        public var clientConfiguration: PostgresClient.Configuration {
            let tlsConfiguration: PostgresClient.Configuration.TLS =
                switch tls {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            var configuration: PostgresClient.Configuration
            if let socketPath {
                configuration = .init(
                    unixSocketPath: socketPath, username: username, password: password, database: database)
            } else {
                configuration = .init(
                    host: host, port: port, username: username, password: password, database: database,
                    tls: tlsConfiguration)
            }
            configuration.options.maximumConnections = maxConnections
            configuration.options.additionalStartupParameters = [("application_name", "webapp")]
            if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
            return configuration
        }
    }

    /// A database URL that cannot be used; the message says why.
    public struct ConfigurationError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
