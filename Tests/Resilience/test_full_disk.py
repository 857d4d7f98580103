"""A full disk (issue 41, part 3): the real binary on SQLite, its data folder on a size-limited
filesystem (a 6 MB tmpfs), filled to the last byte by another file while the app serves.
Writes get a clear 503 (pages and JSON), never a 500 and nothing half-written; pages and API
calls that only read keep working, a signed-in person included; the outbox file keeps whole
lines; once space is back the same server takes writes again by itself; the database passes
PRAGMA integrity_check and holds every change that was acknowledged. Run by
./scripts/outage-tests (in ./scripts/test); mounting needs root, as on the CI machine.
"""

import http.cookiejar
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import WebappProcess  # noqa: E402


def mount_small_filesystem(size):
    """A tmpfs of `size` on a new folder; None where mounting is not allowed (not root)."""
    folder = tempfile.mkdtemp(prefix="phonelogin-full-")
    if os.geteuid() != 0:
        return None
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % size, "tmpfs", folder],
                            capture_output=True)
    return folder if result.returncode == 0 else None


def fill(folder):
    """Writes a file until the filesystem is full; its path."""
    path = os.path.join(folder, "filler")
    with open(path, "wb", buffering=0) as filler:
        chunk = b"\0" * 4096
        while True:
            try:
                filler.write(chunk)
            except OSError:
                break
        for size in (512, 64, 1):
            while True:
                try:
                    filler.write(b"\0" * size)
                except OSError:
                    break
    return path


class FullDiskTests(unittest.TestCase):
    def setUp(self):
        self.folder = mount_small_filesystem("6m")
        if self.folder is None:
            self.skipTest("mounting a size-limited tmpfs needs root")
        self.addCleanup(subprocess.run, ["umount", "-l", self.folder], capture_output=True)
        self.app = WebappProcess(prefix="webapp-full-", data_parent=self.folder)
        self.addCleanup(self.app.stop)

    def browser(self):
        jar = http.cookiejar.CookieJar()
        return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def page(self, opener, path, form=None):
        """(status, body) of a page; a form is posted with the page's CSRF field."""
        data = None
        if form is not None:
            form = dict(form, csrf=self.csrf)
            data = urllib.parse.urlencode(form).encode()
        try:
            with opener.open(urllib.request.Request(self.app.url + path, data=data), timeout=30) as response:
                body = response.read().decode()
                status = response.status
        except urllib.error.HTTPError as error:
            body, status = error.read().decode(), error.code
        found = re.search(r'name="csrf" value="([^"]+)"', body)
        if found:
            self.csrf = found.group(1)
        return status, body

    def test_writes_503_reads_go_on_and_everything_acknowledged_is_there_after(self):
        app = self.app
        token = app.sign_in()
        status, account = app.api("POST", "/accounts", {"name": "Savings"}, token)
        self.assertEqual(status, 201, account)
        deposit = "/accounts/%d/deposit" % account["id"]
        # A person signed in on Home, in a browser.
        person = self.browser()
        self.page(person, "/login")
        self.assertEqual(self.page(person, "/login", {"phone": "(530) 555-0199"})[0], 200)
        with open(os.path.join(app.data, "outbox.jsonl")) as outbox:
            code = json.loads(outbox.read().splitlines()[-1])["body"].split("#")[-1]
        status, home = self.page(person, "/verify", {"code": code})
        self.assertEqual(status, 200)
        self.assertIn("/logout", home)

        filler = fill(self.folder)
        # Deposits go on until the database cannot grow: each answer a 200 or a clear 503.
        acknowledged, refused, began = 0, None, time.monotonic()
        while refused is None and time.monotonic() - began < 120:
            status, body = app.api("POST", deposit, {"amount": "0.01"}, token)
            if status == 200:
                acknowledged += 1
            else:
                refused = (status, body)
        self.assertIsNotNone(refused, "the database never filled")
        self.assertEqual(refused[0], 503, refused)
        self.assertEqual(refused[1]["error"]["code"], "unavailable")
        # A new sign-in cannot be stored either, nor its code written to the outbox: 503.
        for _ in range(3):
            status, body = app.api("POST", "/verifications", {"phone_number": "(415) 555-0100"})
            self.assertEqual(status, 503, body)
        stranger = self.browser()
        self.page(stranger, "/login")
        status, body = self.page(stranger, "/login", {"phone": "(415) 555-0101"})
        self.assertEqual(status, 503)
        self.assertIn("unavailable", body.lower() + " ")
        # Reads go on: the balance, Home for the person signed in, Login, readiness.
        status, wallet = app.api("GET", "/accounts", token=token)
        self.assertEqual((status, wallet["accounts"][0]["balance"]), (200, "%.2f" % (acknowledged / 100)))
        self.assertEqual(self.page(person, "/home")[0], 200)
        self.assertEqual(self.page(self.browser(), "/login")[0], 200)
        with urllib.request.urlopen(app.url + "/readyz", timeout=10) as ready:
            self.assertEqual(ready.status, 200)

        # Space comes back: the same server takes writes again, by itself.
        os.remove(filler)
        deadline = time.monotonic() + 30
        while True:
            status, body = app.api("POST", deposit, {"amount": "0.01"}, token)
            if status == 200:
                acknowledged += 1
                break
            self.assertEqual(status, 503, body)
            self.assertLess(time.monotonic(), deadline, "writes did not come back")
            time.sleep(0.5)
        status, sent = app.api("POST", "/verifications", {"phone_number": "(415) 555-0100"})
        self.assertEqual(status, 200, sent)
        with open(os.path.join(app.data, "outbox.jsonl")) as outbox:
            lines = outbox.read().splitlines()
        for line in lines:
            json.loads(line)  # whole lines only
        self.assertEqual(json.loads(lines[-1])["to"], "+14155550100")

        # Stopped, the database is whole and holds every acknowledged deposit.
        app.stop_process()
        database = sqlite3.connect(os.path.join(app.data, "webapp.sqlite"))
        self.assertEqual(database.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        cents = database.execute("SELECT balance_cents FROM accounts WHERE id = ?", (account["id"],)).fetchone()[0]
        database.close()
        self.assertEqual(cents, acknowledged)
        print("\nfull disk: the first write after the disk filled was a 503; %d deposits acknowledged in all,"
              " all there after; writes back once space was freed" % acknowledged, file=sys.stderr)


class FullOutboxTests(unittest.TestCase):
    """The outbox file on a filesystem of its own, with room for part of a line only."""

    def test_a_line_that_does_not_fit_is_taken_out_and_the_code_refused_until_space_is_back(self):
        folder = mount_small_filesystem("4k")
        if folder is None:
            self.skipTest("mounting a size-limited tmpfs needs root")
        self.addCleanup(subprocess.run, ["umount", "-l", folder], capture_output=True)
        outbox = os.path.join(folder, "outbox.jsonl")
        # 4,000 bytes of earlier lines: the next line (about 170) finds 96 bytes of room.
        with open(outbox, "w") as earlier:
            earlier.write(json.dumps({"earlier": "x" * 3984}) + "\n")
        self.assertEqual(os.path.getsize(outbox), 4000)
        app = WebappProcess(["--sms-outbox", outbox], prefix="webapp-outbox-full-")
        self.addCleanup(app.stop)

        status, body = app.api("POST", "/verifications", {"phone_number": "(530) 555-0123"})
        self.assertEqual((status, body["error"]["code"]), (503, "sms_failed"))
        self.assertEqual(os.path.getsize(outbox), 4000)

        subprocess.run(["mount", "-o", "remount,size=64k", folder], check=True)
        status, body = app.api("POST", "/verifications", {"phone_number": "(530) 555-0123"})
        self.assertEqual(status, 200, body)
        with open(outbox) as lines:
            written = [json.loads(line) for line in lines.read().splitlines()]
        self.assertEqual(len(written), 2)
        self.assertEqual(written[1]["to"], "+15305550123")


if __name__ == "__main__":
    unittest.main()
