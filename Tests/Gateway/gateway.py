"""What the gateway tests run: the real `webapp`, the echo upstream, and nginx or Caddy with the
configurations of docs/GATEWAY.md, each on 127.0.0.1 and a free port, stopped at the end.

The proxy configurations are not written here: they are read from the blocks of
docs/GATEWAY.md marked `<!-- tested: NAME ... -->`, and only test names, ports and plain HTTP
are put in (each replacement must find what it replaces, so an edit of the docs that the tests
cannot follow fails loudly instead of testing something else).
"""

import getpass
import grp
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "GATEWAY.md")
BINARY = os.environ.get("WEBAPP_BINARY", os.path.join(ROOT, ".build", "debug", "webapp"))
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy")

DOMAIN = "example.test"
LOGIN_HOST = "login.example.test"
APP_HOST = "app.example.test"  # not in the rules file: anyone signed in
STAFF_HOST = "staff.example.test"  # the rules file: one number
FAMILY_HOST = "family.example.test"  # the rules file: an area code
OUTSIDE_HOST = "outside.other.test"  # proxied like the others, but outside the gateway domain
PROTECTED_HOSTS = [APP_HOST, STAFF_HOST, FAMILY_HOST, OUTSIDE_HOST]

# Names the doc uses, and what the tests use instead.
DOC_LOGIN_HOST = "login.example.com"
DOC_APP_HOST = "wiki.example.com"
DOC_WEBAPP = "127.0.0.1:8080"
DOC_UPSTREAM = "127.0.0.1:3000"
DOC_PUBLIC_URL = "https://login.example.com"


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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, what, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("%s exited with %s" % (what, process.returncode))
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
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


def tested_block(name):
    """The fenced block after `<!-- tested: NAME ` in docs/GATEWAY.md."""
    with open(DOC) as doc:
        text = doc.read()
    marker = text.find("<!-- tested: %s " % name)
    if marker < 0:
        raise AssertionError("docs/GATEWAY.md has no block marked 'tested: %s'" % name)
    fence = text.index("```", marker)
    body = text.index("\n", fence) + 1
    end = text.index("\n```", body)
    return text[body:end + 1]


def replace(text, old, new, where):
    if old not in text:
        raise AssertionError("the %s block of docs/GATEWAY.md no longer has %r" % (where, old))
    return text.replace(old, new)


def block_containing(text, needle):
    """The `{ ... }` block (an nginx `server`, a Caddy site) that `needle` opens or is inside,
    from the start of its first line to its closing brace, with the newline after it."""
    index = text.index(needle)
    line_start = text.rfind("\n", 0, index) + 1
    line_end = text.index("\n", index)
    if text[line_start:line_end].rstrip().endswith("{"):
        opening = text.index("{", index)
    else:
        depth, opening = 0, index
        while True:
            opening -= 1
            if text[opening] == "}":
                depth += 1
            elif text[opening] == "{":
                if depth == 0:
                    break
                depth -= 1
    start = text.rfind("\n", 0, opening) + 1
    depth = 0
    for position in range(opening, len(text)):
        if text[position] == "{":
            depth += 1
        elif text[position] == "}":
            depth -= 1
            if depth == 0:
                return text[start:position + 1] + "\n"
    raise AssertionError("unbalanced braces in the docs block")


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
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            texts = [t for t in self.outbox()[since:] if t["to"] == e164]
            if texts:
                return re.search(r"\b(\d{6})\b", texts[-1]["body"]).group(1)
            time.sleep(0.05)
        raise AssertionError("no text to %s in the outbox" % e164)

    def stop(self):
        stop(self.process)
        self.process.stdout.close()
        self.log.close()

    def log_text(self):
        with open(self.log_path) as log:
            return log.read()


class Nginx:
    """nginx, as this user, on the docs' configuration with test names and ports."""

    name = "nginx"

    @staticmethod
    def available():
        return os.path.exists(NGINX)

    def __init__(self, folder, port, webapp_port, upstream_port):
        self.folder = os.path.join(folder, "nginx")
        os.makedirs(self.folder)
        self.port = port
        block = tested_block("nginx")
        block = re.sub(r"(?m)^\s*ssl_certificate(_key)?\s.*\n", "", block)
        block = replace(block, "listen 443 ssl http2;", "listen 127.0.0.1:%d;" % port, "nginx")
        block = replace(block, DOC_WEBAPP, "127.0.0.1:%d" % webapp_port, "nginx")
        block = replace(block, DOC_UPSTREAM, "127.0.0.1:%d" % upstream_port, "nginx")
        block = replace(block, DOC_LOGIN_HOST, LOGIN_HOST, "nginx")
        protected = block_containing(block, "server_name %s;" % DOC_APP_HOST)
        block = block.replace(protected, "".join(
            protected.replace("server_name %s;" % DOC_APP_HOST, "server_name %s;" % host) for host in PROTECTED_HOSTS))
        self.gateway_conf = block
        with open(os.path.join(self.folder, "gateway.conf"), "w") as conf:
            conf.write(block)
        temp = lambda name: os.path.join(self.folder, name)  # noqa: E731
        main = """
user %(user)s %(group)s;
worker_processes 1;
daemon off;
pid %(pid)s;
error_log %(error)s notice;
events { worker_connections 256; }
http {
    access_log %(access)s;
    client_body_temp_path %(body)s;
    proxy_temp_path %(proxy)s;
    fastcgi_temp_path %(fastcgi)s;
    uwsgi_temp_path %(uwsgi)s;
    scgi_temp_path %(scgi)s;
    include %(gateway)s;
}
""" % {
            "user": getpass.getuser(), "group": grp.getgrgid(os.getgid()).gr_name,
            "pid": temp("nginx.pid"), "error": temp("error.log"), "access": temp("access.log"),
            "body": temp("body"), "proxy": temp("proxy"), "fastcgi": temp("fastcgi"),
            "uwsgi": temp("uwsgi"), "scgi": temp("scgi"), "gateway": temp("gateway.conf"),
        }
        self.conf = temp("nginx.conf")
        with open(self.conf, "w") as conf:
            conf.write(main)
        command = [NGINX, "-p", self.folder, "-c", self.conf, "-e", temp("error.log")]
        checked = subprocess.run(command + ["-t", "-q"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError("nginx -t refused the docs' configuration:\n%s%s" % (checked.stderr, block))
        self.output = open(temp("stderr.log"), "w")
        self.process = subprocess.Popen(command, stdout=self.output, stderr=subprocess.STDOUT)
        wait_for_port(port, self.process, "nginx")

    def stop(self):
        stop(self.process, signal.SIGQUIT)
        self.output.close()

    def log_text(self):
        with open(os.path.join(self.folder, "error.log")) as log:
            return log.read()


class Caddy:
    """Caddy, as this user, on the docs' Caddyfile with test names, ports and plain HTTP."""

    name = "caddy"

    @staticmethod
    def available():
        return CADDY is not None

    def __init__(self, folder, port, webapp_port, upstream_port):
        self.folder = os.path.join(folder, "caddy")
        os.makedirs(self.folder)
        self.port = port
        block = tested_block("caddy")
        block = replace(block, DOC_WEBAPP, "127.0.0.1:%d" % webapp_port, "caddy")
        block = replace(block, DOC_UPSTREAM, "127.0.0.1:%d" % upstream_port, "caddy")
        block = replace(block, "\n%s {" % DOC_LOGIN_HOST, "\nhttp://%s:%d {" % (LOGIN_HOST, port), "caddy")
        protected = block_containing(block, "%s {" % DOC_APP_HOST)
        block = block.replace(protected, "".join(
            protected.replace("%s {" % DOC_APP_HOST, "http://%s:%d {" % (host, port)) for host in PROTECTED_HOSTS))
        # Test-only global options: no admin endpoint, no certificates, loopback only, and
        # Caddy's own files in the test's folder.
        caddyfile = "{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n\tstorage file_system %s\n}\n\n%s" % (
            os.path.join(self.folder, "storage"), block)
        self.gateway_conf = caddyfile
        self.conf = os.path.join(self.folder, "Caddyfile")
        with open(self.conf, "w") as conf:
            conf.write(caddyfile)
        environment = dict(os.environ, HOME=self.folder, XDG_DATA_HOME=self.folder, XDG_CONFIG_HOME=self.folder)
        self.log_path = os.path.join(self.folder, "caddy.log")
        self.output = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [CADDY, "run", "--config", self.conf, "--adapter", "caddyfile"],
            stdout=self.output, stderr=subprocess.STDOUT, env=environment, cwd=self.folder)
        wait_for_port(port, self.process, "caddy")

    def stop(self):
        stop(self.process)
        self.output.close()

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
