import Testing

@testable import PostgresStorage

/// `--db postgres://…` / `DATABASE_URL`: what is read from the URL, and clear errors for the rest.
@Suite("PostgreSQL URLs")
struct ConfigurationTests {
    @Test("user, password, host, port, database and sslmode come from the URL")
    func fullURL() throws {
        let configuration = try PostgresBackend.Configuration(
            url:
                "postgres://app%40prod:p%3Ass%2Fw0rd@db.internal:6432/phonelogin?sslmode=require&schema=login&connect_timeout=3"
        )
        #expect(configuration.username == "app@prod")
        #expect(configuration.password == "p:ss/w0rd")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6432)
        #expect(configuration.database == "phonelogin")
        #expect(configuration.tls == .require)
        #expect(configuration.schema == "login")
        #expect(configuration.startupTimeout == .seconds(3))
        #expect(configuration.redacted == "postgres://app@prod:***@db.internal:6432/phonelogin")
        #expect(!configuration.redacted.contains("w0rd"))
    }

    @Test("defaults: postgres@127.0.0.1:5432, TLS when offered; postgresql:// and a Unix socket")
    func defaults() throws {
        let plain = try PostgresBackend.Configuration(url: "postgres://localhost")
        #expect(plain.host == "localhost")
        #expect(plain.port == 5432)
        #expect(plain.username == "postgres")
        #expect(plain.password == nil)
        #expect(plain.database == nil)
        #expect(plain.tls == .prefer)
        let socket = try PostgresBackend.Configuration(url: "postgresql://app@/login?host=/var/run/postgresql")
        #expect(socket.socketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(socket.database == "login")
        #expect(try PostgresBackend.Configuration(url: "postgres://h/d?sslmode=disable").tls == .disable)
    }

    @Test(
        "what cannot be used is refused with the reason",
        arguments: [
            ("mysql://localhost/db", "Not a PostgreSQL URL"),
            ("/var/lib/webapp.sqlite", "Not a PostgreSQL URL"),
            ("postgres://h/d?sslmode=sometimes", "Unknown sslmode"),
            ("postgres://h/d?schema=Robert';DROP", "?schema= must be a plain name"),
            ("postgres://h/d?host=relative", "?host= must be the folder of a Unix socket"),
            ("postgres://h/d?pool=9", "Unknown parameter \"pool\""),
            ("postgres://h:70000/d", "out of range"),
            ("postgres://h/d?connect_timeout=soon", "connect_timeout must be 1 to 600 seconds"),
        ])
    func refused(url: String, message: String) {
        #expect {
            _ = try PostgresBackend.Configuration(url: url)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
