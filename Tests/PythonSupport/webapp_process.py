"""The built `webapp` as the Python tests run it: on 127.0.0.1, a data folder of its own and, with a
PostgreSQL URL (scripts/test's throwaway server), a schema of its own there instead of a SQLite file.
Stopped and cleaned up by stop(). Used by Tests/Browser and Tests/Delivery.
"""

import os
import re
import shutil
import socket
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("WEBAPP_BINARY", os.path.join(ROOT, ".build", "debug", "webapp"))


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

    def __init__(self, options=(), env=None, port=0, database_url=None, prefix="webapp-", joining=None):
        """`joining`: another WebappProcess on PostgreSQL whose database (schema) this one shares,
        as a second instance does; it stays the owner and drops the schema."""
        self.data = tempfile.mkdtemp(prefix=prefix)
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

    def psql(self, sql):
        """One statement in this app's schema's database; its first value, if any."""
        return psql(self.database_url, sql)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process.stdout.close()
        shutil.rmtree(self.data, ignore_errors=True)
        if self.schema and self.owns_schema:
            psql(self.database_url, "DROP SCHEMA %s CASCADE" % self.schema)
        self.schema = None
