import Foundation
import Testing

/// The steps of the suites that run the built `webapp` binary as a person would: start it with
/// options, wait for it to end, sign in on it.
protocol CommandSteps {}

extension CommandSteps {
    /// The executable next to the test bundle in `.build/<config>/`.
    static var executable: URL {
        var folder = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("webapp").path),
            folder.pathComponents.count > 1
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("webapp")
    }

    /// Runs the binary with `arguments` (and `environment` over this process's own), from the
    /// package's folder; returns the process and its standard output and error.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, output, errors)
    }

    /// Whether `process` ends within 10 s; waits on a thread of its own, off the cooperative
    /// pool (and not on `DispatchQueue.global()`, which runs only as many jobs as there are cores).
    func exits(_ process: Process, within seconds: Int = 10) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                for _ in 0..<(seconds * 10) where process.isRunning { usleep(100_000) }
                continuation.resume(returning: !process.isRunning)
            }.start()
        }
    }

    /// Starts the binary on a free port with `folder` as its data; returns the process and base URL.
    func start(dataDirectory folder: URL, logLevel: String = "error", _ extra: [String] = []) async throws
        -> (Process, String, Pipe)
    {
        let (process, output, errors) = try run(
            [
                "--port", "0", "--data-dir", folder.path, "--log-level", logLevel, "--max-codes-per-client", "100000",
                "--max-sign-ins-per-client", "100000",
            ]
                + extra)
        let line = await withCheckedContinuation { continuation in
            Thread {
                var data = Data()
                while !data.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        let match = try #require(line.firstMatch(of: /Listening on (http:\/\/127\.0\.0\.1:\d+)/))
        return (process, String(match.1), errors)
    }

    /// A server on `dataDirectory` with (530) 555-0123 signed in by text in the browser returned.
    func startSignedIn(dataDirectory folder: URL) async throws -> (Process, Browser) {
        let (server, baseURL, _) = try await start(dataDirectory: folder)
        do {
            let browser = Browser(baseURL: baseURL)
            _ = try await browser.post("/login", form: [("phone", "530 555 0123")])
            let outbox = try String(contentsOf: folder.appendingPathComponent("outbox.jsonl"), encoding: .utf8)
            let code = try #require(outbox.firstMatch(of: /#(\d{6})/)).1
            #expect(try await browser.post("/verify", form: [("code", String(code))]).location == "/home")
            return (server, browser)
        } catch {
            server.terminate()
            throw error
        }
    }
}
