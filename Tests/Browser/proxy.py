"""A proxy on 127.0.0.1 that passes every request to one port on this machine, in one of two roles:
- an HTTP proxy (`Proxy(port)`, requests in absolute form naming any host): the gateway tests'
  *.example.test names reach the test server in both engines (Chromium's --host-resolver-rules has
  no WebKit twin, a proxy setting has both);
- an HTTPS front (`Proxy(port, tls=True)`, requests in origin form): TLS ends here, with a
  certificate made for the test, as at a deployment's reverse proxy, so the pages are seen over
  https:// as people see them (WebKit treats no-store pages over HTTPS differently).

It can add headers to what it passes on (`extra_headers`), as a reverse proxy in front of an app
adds X-Forwarded-*.
"""

import datetime
import http.client
import ipaddress
import os
import ssl
import tempfile
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

# Hop-by-hop headers (RFC 9110 7.6.1) are the proxy's own, never passed on.
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade"}


def test_certificate():
    """A self-signed certificate for 127.0.0.1 and localhost, valid for a day: (cert, key) files."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Phone Login browser tests")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .sign(key, hashes.SHA256()))
    folder = tempfile.mkdtemp(prefix="browser-tls-")
    cert_file, key_file = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    with open(cert_file, "wb") as file:
        file.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_file, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    return cert_file, key_file


class Proxy:
    def __init__(self, port, tls=False):
        """`port`: where on 127.0.0.1 every request goes. `tls`: the HTTPS front (see above)."""
        self.port = port
        self.extra_headers = {}
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *arguments):
                pass

            def forward(self):
                target = urllib.parse.urlsplit(self.path)
                if tls and (target.scheme or not self.path.startswith("/")):
                    self.send_error(400, "origin-form request target expected")
                    return
                if not tls and (target.scheme != "http" or not target.netloc):
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
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*test_certificate())
            # The handshake happens in each request's own thread, on its first read: one client
            # that stalls in it holds up no other.
            self.server.socket = context.wrap_socket(
                self.server.socket, server_side=True, do_handshake_on_connect=False)
        self.url = "%s://127.0.0.1:%d" % ("https" if tls else "http", self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
