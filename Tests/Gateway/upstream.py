"""The protected app of the gateway tests: it answers every request with what it received.

A real self-hosted app (a wiki, a dashboard) would read `Remote-User` and verify
`Phone-Login-Assertion`; this one only reports them, so the tests can check what the proxy let
through. Every request is answered 200 with a JSON object: `method`, `path` (with its query) and
`headers` (a list of [name, value] pairs, in the order received, repeated names kept, so a
forged header that slipped through next to the real one shows up). It also appends that object
as one line to the file named by `--log`, if given.

Run: python3 upstream.py --port 0 [--log FILE]   (prints "Listening on http://127.0.0.1:PORT")
Python's standard library only, bound to 127.0.0.1.
"""

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class EchoHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_path = None
    log_lock = threading.Lock()

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        seen = {"method": self.command, "path": self.path, "headers": [[k, v] for k, v in self.headers.items()]}
        if self.log_path:
            with self.log_lock, open(self.log_path, "a") as log:
                log.write(json.dumps(seen) + "\n")
        body = json.dumps(seen, indent=1).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = answer

    def log_message(self, format, *args):
        pass


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A proxy closing a kept-alive connection as it stops is not worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log")
    arguments = parser.parse_args()
    EchoHandler.log_path = arguments.log
    server = QuietServer(("127.0.0.1", arguments.port), EchoHandler)
    print("Listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
