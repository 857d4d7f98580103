"""The browser tests' server: the real `webapp` binary on 127.0.0.1 and a free port, a data folder
of its own (Tests/PythonSupport/webapp_process.py) and, with BROWSER_DATABASE_URL, a schema of its
own on PostgreSQL; and what a test reads back from it (the outbox, the tries counted).
"""

import json
import os
import sqlite3
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# With a PostgreSQL URL (scripts/test's throwaway server), each server gets a schema of its own
# there instead of a SQLite file.
DATABASE_URL = os.environ.get("BROWSER_DATABASE_URL") or None

sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import BINARY, WebappProcess, free_port  # noqa: E402,F401 (free_port, BINARY: for the tests)


class Server(WebappProcess):
    """The real binary on 127.0.0.1 and a free port."""

    def __init__(self, options=(), env=None, port=0):
        """`options`: more command-line options (a lower limit, say); `env`: more environment
        (an SMS provider's settings); `port`: a fixed one, for an app whose --public-url names it."""
        super().__init__(options, env=env, port=port, database_url=DATABASE_URL, prefix="webapp-browser-")

    def outbox(self):
        try:
            with open(os.path.join(self.data, "outbox.jsonl")) as outbox:
                return [json.loads(line) for line in outbox.read().splitlines()]
        except FileNotFoundError:
            return []

    def last_code(self):
        """The code of the last text (its last line) or call (the first six digits it reads out)."""
        last = self.outbox()[-1]
        if last.get("channel") == "voice":
            return "".join(c for c in last["body"] if c.isdigit())[:6]
        return last["body"].split("#")[-1]

    def failed_attempts(self):
        if self.schema:
            value = self.psql("SELECT failed_attempts FROM %s.verifications" % self.schema)
            return int(value) if value is not None else None
        with sqlite3.connect(os.path.join(self.data, "webapp.sqlite")) as db:
            row = db.execute("SELECT failed_attempts FROM verifications").fetchone()
            return row[0] if row else None
