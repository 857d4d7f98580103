"""PostgreSQL backups that restore (issue 41), with PostgreSQL's own tools, as docs/RELIABILITY.md
gives them: the real binary on the throwaway server, a person signed in with a deposit, the
database dumped (pg_dump --format=custom) while the app serves, restored (pg_restore) into a
new database, and a second server on the restored copy, where the same token still works and
the deposit is there. Run by ./scripts/backup-tests with BACKUP_DATABASE_URL (./scripts/test
passes its throwaway server); skipped without one.
"""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATABASE_URL = os.environ.get("BACKUP_DATABASE_URL") or None

sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import WebappProcess, psql  # noqa: E402


@unittest.skipUnless(DATABASE_URL, "needs a PostgreSQL server (BACKUP_DATABASE_URL)")
class PostgresRestoreTests(unittest.TestCase):
    def test_a_dump_taken_while_serving_restores_into_a_database_a_new_server_serves_from(self):
        app = WebappProcess(database_url=DATABASE_URL, prefix="webapp-backup-")
        self.addCleanup(app.stop)
        token = app.sign_in()
        status, account = app.api("POST", "/accounts", {"name": "Savings"}, token)
        self.assertEqual(status, 201, account)
        status, _ = app.api("POST", "/accounts/%d/deposit" % account["id"], {"amount": "12.34"}, token)
        self.assertEqual(status, 200)

        folder = tempfile.mkdtemp(prefix="pg-backup-")
        dump = os.path.join(folder, "phone-login.dump")
        subprocess.run(["pg_dump", "--format=custom", "--schema=" + app.schema, "--file=" + dump, DATABASE_URL],
                       check=True, capture_output=True)
        restored = "restored_" + os.urandom(6).hex()
        psql(DATABASE_URL, "CREATE DATABASE %s" % restored)
        base = DATABASE_URL.rsplit("/", 1)[0]
        self.addCleanup(psql, DATABASE_URL, "DROP DATABASE IF EXISTS %s WITH (FORCE)" % restored)
        subprocess.run(["pg_restore", "--no-owner", "--dbname=%s/%s" % (base, restored), dump],
                       check=True, capture_output=True)

        second = WebappProcess(["--db", "%s/%s?schema=%s" % (base, restored, app.schema)], prefix="webapp-restored-")
        self.addCleanup(second.stop)
        status, me = second.api("GET", "/me", token=token)
        self.assertEqual(status, 200, me)
        status, wallet = second.api("GET", "/accounts", token=token)
        self.assertEqual(status, 200, wallet)
        self.assertEqual([(a["name"], a["balance"]) for a in wallet["accounts"]], [("Savings", "12.34")])


if __name__ == "__main__":
    unittest.main()
