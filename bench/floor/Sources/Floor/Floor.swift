import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Answers every request with `body` and fixed headers, on NIO's HTTP/1.1 codec with NIO's
/// pipelining handler (as ours), keep-alive as the client asks.
final class FixedAnswer: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let body: ByteBuffer
    let headers: HTTPHeaders
    private var keepAlive = true

    init(body: ByteBuffer, headers: HTTPHeaders) {
        self.body = body
        self.headers = headers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
        case .body:
            break
        case .end:
            var headers = self.headers
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let keepAlive = self.keepAlive
            if keepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
            }
        }
    }
}

@main
enum Floor {
    static func main() throws {
        // Floor --public Public --port 0
        let arguments = CommandLine.arguments
        func option(_ name: String, _ fallback: String) -> String {
            arguments.firstIndex(of: name).map { arguments[$0 + 1] } ?? fallback
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: option("--public", "Public") + "/app.css"))
        let body = ByteBuffer(bytes: data)
        let headers: HTTPHeaders = [
            "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300",
            "ETag": "\"0123456789abcdef\"", "Vary": "Accept-Encoding", "X-Content-Type-Options": "nosniff",
            "X-Request-Id": "0000-1.1", "Content-Length": String(data.count),
        ]
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(FixedAnswer(body: body, headers: headers))
                }
            }
        let channel = try bootstrap.bind(host: "127.0.0.1", port: Int(option("--port", "0"))!).wait()
        FileHandle.standardOutput.write(Data("Listening on http://127.0.0.1:\(channel.localAddress!.port!)\n".utf8))
        try channel.closeFuture.wait()
    }
}
