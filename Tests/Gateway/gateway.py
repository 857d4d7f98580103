"""What the gateway tests run besides the proxy (proxies.py): the real `webapp`, the echo
upstream, and the three wired together with a proxy (`Stack`), each on 127.0.0.1 and a free port,
stopped at the end. Also the test host names, and this process resolving them to 127.0.0.1.

The proxy configurations are not written here: they are read from the blocks of
docs/GATEWAY.md marked `<!-- tested: NAME ... -->` (doc_blocks.py).
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BINARY = os.environ.get("WEBAPP_BINARY", os.path.join(ROOT, ".build", "debug", "webapp"))

# Tests/PythonSupport: the helpers the Python test folders share (jws_parts for gateway_case too).
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import eventually, free_port  # noqa: E402

DOMAIN = "example.test"
LOGIN_HOST = "login.example.test"
APP_HOST = "app.example.test"  # not in the rules file: anyone signed in
STAFF_HOST = "staff.example.test"  # the rules file: one number
FAMILY_HOST = "family.example.test"  # the rules file: an area code
OUTSIDE_HOST = "outside.other.test"  # proxied like the others, but outside the gateway domain
PROTECTED_HOSTS = [APP_HOST, STAFF_HOST, FAMILY_HOST, OUTSIDE_HOST]


def use_loopback_names():
    """Make this process resolve *.example.test and *.other.test to 127.0.0.1, as Chromium's
    --host-resolver-rules does for the browser, so cookie domains and Host headers are real."""
    if getattr(socket, "_gateway_tests_patched", False):
        return
    real = socket.getaddrinfo

    def getaddrinfo(host, *arguments, **keywords):
        if isinstance(host, str) and (host.endswith("." + DOMAIN) or host == DOMAIN or host.endswith(".other.test")):
            host = "127.0.0.1"
        return real(host, *arguments, **keywords)

    socket.getaddrinfo = getaddrinfo
    socket._gateway_tests_patched = True
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        os.environ.pop(name, None)


def wait_for_port(port, process, what, seconds=20):
    def listening():
        if process.poll() is not None:
            raise RuntimeError("%s exited with %s" % (what, process.returncode))
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    if not eventually(listening, within=seconds):
        raise RuntimeError("%s did not listen on %d within %d s" % (what, port, seconds))


def stop(process, sig=signal.SIGTERM):
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Upstream:
    """Tests/Gateway/upstream.py: answers each request with the headers it got."""

    def __init__(self, folder):
        self.log = os.path.join(folder, "upstream.jsonl")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "upstream.py"), "--port", "0", "--log", self.log],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            stop(self.process)
            raise RuntimeError("upstream did not start: %r" % line)
        self.port = int(match.group(1))

    def requests(self):
        try:
            with open(self.log) as log:
                return [json.loads(line) for line in log.read().splitlines()]
        except FileNotFoundError:
            return []

    def stop(self):
        stop(self.process)
        self.process.stdout.close()


class Webapp:
    """The real binary in gateway mode, SQLite in a data folder of its own, texts to the outbox."""

    def __init__(self, folder, public_url, rules=None, extra=(), environment=None):
        self.data = os.path.join(folder, "data")
        self.outbox_path = os.path.join(folder, "outbox.jsonl")
        self.log_path = os.path.join(folder, "webapp.log")
        arguments = [
            BINARY, "--port", "0", "--data-dir", self.data, "--log-level", "info",
            "--sms", "outbox", "--sms-outbox", self.outbox_path, "--trust-proxy",
            "--public-url", public_url, "--gateway-domain", DOMAIN,
            # Every test signs in from 127.0.0.1 through the proxy: lift the per-client and
            # per-exchange limits, which are not what is tested here.
            "--max-codes-per-client", "1000", "--max-sign-ins-per-client", "1000",
            "--max-texts-per-exchange", "1000",
            *extra,
        ]
        if rules is not None:
            path = os.path.join(folder, "rules.json")
            with open(path, "w") as file:
                json.dump(rules, file)
            arguments += ["--gateway-rules", path]
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(arguments, cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, text=True,
                                        env=dict(os.environ, **(environment or {})))
        line = self.process.stdout.readline()
        match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            stop(self.process)
            self.log.close()
            with open(self.log_path) as log:
                raise RuntimeError("webapp did not start: %r\n%s" % (line, log.read()))
        self.port = int(match.group(1))
        self.url = "http://127.0.0.1:%d" % self.port

    def outbox(self):
        try:
            with open(self.outbox_path) as outbox:
                return [json.loads(line) for line in outbox.read().splitlines()]
        except FileNotFoundError:
            return []

    def code_for(self, e164, since=0):
        """The code of the newest text to `e164` after the first `since` texts."""
        texts = []

        def sent():
            texts[:] = [t for t in self.outbox()[since:] if t["to"] == e164]
            return bool(texts)

        if not eventually(sent, within=10):
            raise AssertionError("no text to %s in the outbox" % e164)
        return re.search(r"\b(\d{6})\b", texts[-1]["body"]).group(1)

    def stop(self):
        stop(self.process)
        self.process.stdout.close()
        self.log.close()

    def log_text(self):
        with open(self.log_path) as log:
            return log.read()


class Stack:
    """Upstream, webapp and one proxy, wired together; `stop()` ends all three."""

    def __init__(self, proxy_class, rules=None):
        self.folder = tempfile.mkdtemp(prefix="webapp-gateway-")
        self.upstream = self.webapp = self.proxy = None
        try:
            self.upstream = Upstream(self.folder)
            port = free_port()
            self.public_url = "http://%s:%d" % (LOGIN_HOST, port)
            self.webapp = Webapp(self.folder, self.public_url, rules=rules)
            self.proxy = proxy_class(self.folder, port, self.webapp.port, self.upstream.port)
            self.port = port
        except BaseException:
            self.stop()
            raise

    def url(self, host, path="/"):
        return "http://%s:%d%s" % (host, self.port, path)

    def logs(self):
        parts = []
        for name, part in (("webapp", self.webapp), ("proxy", self.proxy)):
            try:
                parts.append("--- %s ---\n%s" % (name, part.log_text()[-4000:]))
            except Exception:  # noqa: BLE001 (only for a failure message)
                pass
        return "\n".join(parts)

    def stop(self):
        for part in (self.proxy, self.webapp, self.upstream):
            if part is not None:
                try:
                    part.stop()
                except Exception:  # noqa: BLE001 (stop the others anyway)
                    pass
        shutil.rmtree(self.folder, ignore_errors=True)
