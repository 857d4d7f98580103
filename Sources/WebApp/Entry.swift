import Foundation
import NIOCore
import NIOPosix

/// The `webapp` executable's entry point.
@main
enum Entry {
    static func main() async {
        // Swift concurrency's jobs run on NIO's event loops instead of a second thread pool: a
        // request's async handler then continues on the loop that read it, without two thread
        // switches per request (measured in docs/BENCHMARKS.md). Blocking work still never runs
        // there: SQLite runs on GRDB's queues and file reads on NIO's blocking-I/O pool. Must
        // happen first, before any task is scheduled.
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `webapp events`, `backup`, `webhooks`, `admin`: the server is not started.
        if let word = arguments.first, let command = Subcommand(rawValue: word) {
            await command.run(Array(arguments.dropFirst()))
            return
        }
        await WebAppCommand.main(
            WebAppCommand.arguments(
                Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
    }
}
