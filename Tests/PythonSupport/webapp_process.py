"""The built `webapp` as the Python tests run it: on 127.0.0.1, a data folder of its own and, with a
PostgreSQL URL (scripts/test's throwaway server), a schema of its own there instead of a SQLite file.
Stopped and cleaned up by stop(). Also `eventually`, the one wait for a condition. Used by the
Python test folders.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("WEBAPP_BINARY", os.path.join(ROOT, ".build", "debug", "webapp"))


def eventually(condition, within=30.0):
    """Whether `condition()` becomes true within `within` seconds (looked at every 50 ms): a
    bound so a broken build fails instead of hanging, generous for a loaded machine. Tests wait
    for what they expect this way, never a fixed time."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def free_port():
    """A port free on 127.0.0.1 now: for an app whose --public-url must name its own port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def psql(database_url, sql):
    """One statement on `database_url`; its first value, if any."""
    out = subprocess.run(["psql", database_url, "-tAq", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         check=True, capture_output=True, text=True).stdout.strip()
    return out or None


class WebappProcess:
    """The real binary on a port (0: a free one), with `options` after its data folder and database."""

    def __init__(self, options=(), env=None, port=0, database_url=None, prefix="webapp-", joining=None,
                 data_parent=None):
        """`joining`: another WebappProcess on PostgreSQL whose database (schema) this one shares,
        as a second instance does; it stays the owner and drops the schema. `data_parent`: where
        its data folder is made (a temporary folder by default)."""
        self.data = tempfile.mkdtemp(prefix=prefix, dir=data_parent)
        self.database_url = database_url
        arguments = [BINARY, "--port", str(port), "--data-dir", self.data, "--log-level", "error", *options]
        self.schema = None
        self.owns_schema = joining is None
        # Where its database is, as the server and the operator's commands (`webapp events`) take it.
        self.database_options = ["--data-dir", self.data]
        if joining is not None:
            self.database_url = joining.database_url
            self.schema = joining.schema
        elif database_url:
            self.schema = "t_" + os.urandom(8).hex()
            psql(database_url, "CREATE SCHEMA %s" % self.schema)
        if self.schema:
            separator = "&" if "?" in self.database_url else "?"
            self.database_options += ["--db", self.database_url + separator + "schema=" + self.schema]
            arguments += self.database_options[2:]
        self.process = subprocess.Popen(
            arguments, cwd=ROOT, env=dict(os.environ, **(env or {})), stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"Listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError("webapp did not start: %r" % line)
        self.url = match.group(1)
        self.port = int(self.url.rsplit(":", 1)[1])

    def api(self, method, path, body=None, token=None):
        """One JSON API call (`path` under /api/v1), with a Bearer `token` if given: (status, JSON)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = "Bearer " + token
        request = urllib.request.Request(
            self.url + "/api/v1" + path, method=method, headers=headers,
            data=json.dumps(body).encode() if body is not None else None)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def sign_in(self, phone="(530) 555-0123"):
        """Signs `phone` in through the JSON API, the code read from this app's outbox; its token."""
        status, sent = self.api("POST", "/verifications", {"phone_number": phone})
        assert status == 200, sent
        with open(os.path.join(self.data, "outbox.jsonl")) as outbox:
            code = json.loads(outbox.read().splitlines()[-1])["body"].split("#")[-1]
        status, signed_in = self.api("POST", "/verifications/check",
                                     {"phone_number": phone, "verification_id": sent["verification_id"], "code": code})
        assert status == 200, signed_in
        return signed_in["auth_token"]

    def psql(self, sql):
        """One statement in this app's schema's database; its first value, if any."""
        return psql(self.database_url, sql)

    def stop_process(self):
        """Stops the server (SIGTERM, as a deploy does), keeping its data folder."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if not self.process.stdout.closed:
            self.process.stdout.close()

    def stop(self):
        self.stop_process()
        shutil.rmtree(self.data, ignore_errors=True)
        if self.schema and self.owns_schema:
            psql(self.database_url, "DROP SCHEMA %s CASCADE" % self.schema)
        self.schema = None
