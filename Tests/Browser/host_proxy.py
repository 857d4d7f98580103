"""An HTTP proxy on 127.0.0.1 that sends every request, whatever host it names, to one port on
this machine: the gateway tests' *.example.test names reach the test server in both engines
(Chromium's --host-resolver-rules has no WebKit twin, a proxy setting has both).

It can also add headers to what it passes on (`extra_headers`), as a reverse proxy in front of
an app adds X-Forwarded-*. Loopback only; a request that is not absolute-form (not sent to a
proxy) is refused.
"""

import http.client
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hop-by-hop headers (RFC 9110 7.6.1) are the proxy's own, never passed on.
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade"}


class HostProxy:
    def __init__(self, port):
        """`port`: where on 127.0.0.1 every request goes."""
        self.port = port
        self.extra_headers = {}
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *arguments):
                pass

            def forward(self):
                target = urllib.parse.urlsplit(self.path)
                if target.scheme != "http" or not target.netloc:
                    self.send_error(400, "absolute-form http:// request target expected")
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
                headers.update(proxy.extra_headers)
                upstream = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=15)
                try:
                    path = target.path or "/"
                    upstream.request(self.command, path + ("?" + target.query if target.query else ""),
                                     body=body, headers=headers)
                    answer = upstream.getresponse()
                    content = answer.read()
                    self.send_response(answer.status, answer.reason)
                    for name, value in answer.getheaders():
                        if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(content)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(content)
                finally:
                    upstream.close()

            do_GET = do_POST = do_HEAD = forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
