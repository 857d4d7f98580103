"""PostgreSQL goes away and comes back (issue 41): the real binary on a PostgreSQL server of its
own, under a steady load of API calls and pages; the server stopped for 15 s, then started
again. During the outage every answer is a clear 503 (never a 500, never a hang: each comes
while PostgreSQL is still away), and after its first seconds each comes within about 2 s (the
figures are printed, not asserted); /readyz says 503; once PostgreSQL is back the app serves
again by itself, no restart, and the person is still signed in.
Run by ./scripts/outage-tests (in ./scripts/test).
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import WebappProcess  # noqa: E402

POSTGRES = os.path.join(ROOT, "scripts", "postgres")


def call(base, path, method="GET", body=None, token=None, timeout=30):
    """(status, seconds taken)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            return response.status, time.monotonic() - began
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, time.monotonic() - began


class PostgresOutageTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="phonelogin-outage-")
        url = subprocess.run([POSTGRES, "start", self.folder], check=True, capture_output=True,
                             text=True).stdout.strip()
        self.addCleanup(subprocess.run, [POSTGRES, "stop", self.folder], capture_output=True)
        self.app = WebappProcess(database_url=url, prefix="webapp-outage-")
        self.addCleanup(self.app.stop)

    def loader(self, answers, stop):
        """A worker's loop: calls `path` every 0.1 s until `stop`, noting each answer in `answers`."""
        def load(path, **options):
            while not stop.is_set():
                began = time.monotonic()
                status, seconds = call(self.app.url, path, **options)
                answers.append((began, path, status, seconds))
                time.sleep(0.1)
        return load

    def test_an_outage_is_a_quick_503_and_the_app_serves_again_by_itself(self):
        token = self.app.sign_in()
        answers, stop = [], threading.Event()  # answers: (began, path, status, seconds)
        load = self.loader(answers, stop)
        workers = [threading.Thread(target=load, args=("/api/v1/me",), kwargs={"token": token}, daemon=True),
                   threading.Thread(target=load, args=("/login",), daemon=True)]
        for worker in workers:
            worker.start()
        time.sleep(2)
        outage = time.monotonic()
        subprocess.run([POSTGRES, "pause", self.folder], check=True, capture_output=True)
        time.sleep(5)
        ready, _ = call(self.app.url, "/readyz")
        self.assertEqual(ready, 503, "/readyz during the outage")
        time.sleep(10)
        subprocess.run([POSTGRES, "resume", self.folder], check=True, capture_output=True)
        back = time.monotonic()
        # Serving again by itself, within seconds.
        recovered = None
        while time.monotonic() - back < 60:
            if call(self.app.url, "/api/v1/me", token=token)[0] == 200:
                recovered = time.monotonic() - back
                break
            time.sleep(0.2)
        stop.set()
        for worker in workers:
            worker.join(timeout=30)
        self.assertIsNotNone(recovered, "the app did not serve again within 60 s of PostgreSQL's return")
        self.assertEqual(call(self.app.url, "/readyz")[0], 200)

        before = [a for a in answers if a[0] < outage]
        # Calls that need the database, begun during the outage (and ending well before its end).
        during = [a for a in answers if a[1] == "/api/v1/me" and outage + 0.5 < a[0] < back - 3.5]
        pages = [a for a in answers if a[1] == "/login" and outage + 0.5 < a[0] < back - 0.5]
        print("\nbefore: %d answers; during: %d database calls (%s), slowest %.2f s, after the first 3 s %.2f s; "
              "%d Login pages; serving again %.2f s after PostgreSQL's return"
              % (len(before), len(during), sorted({a[2] for a in during}), max([a[3] for a in during] or [0]),
                 max([a[3] for a in during if a[0] > outage + 3] or [0]), len(pages), recovered))
        self.assertTrue(before and all(a[2] == 200 for a in before), before[:5])
        # A call every 0.1 s plus its answer: a hang leaves only a few in 11 s.
        self.assertGreaterEqual(len(during), 4, "answers during the outage: %s" % during)
        self.assertEqual({a[2] for a in during}, {503}, "a clear 503, never a 500")
        # Never a hang: each begun 12 s or more before PostgreSQL's return (past the 10 s
        # timeout) was answered while it was still away, not by its return.
        early = [a for a in during if a[0] < back - 12]
        self.assertTrue(early, "no call began in the outage's first seconds")
        self.assertTrue(all(a[0] + a[3] < back for a in early), "an answer waited for PostgreSQL's return: %s" % early)
        # Login reads nothing: it is served throughout.
        self.assertTrue(pages and all(a[2] == 200 for a in pages))

    def test_a_table_locked_for_30_s_is_a_bounded_503_for_what_needs_it_and_nothing_else_stops(self):
        """PostgreSQL that answers slowly: another client holds the wallet's table locked for 30 s."""
        token = self.app.sign_in()
        status, account = self.app.api("POST", "/accounts", {"name": "Savings"}, token)
        self.assertEqual(status, 201, account)
        deposit = "/api/v1/accounts/%d/deposit" % account["id"]
        answers, stop = [], threading.Event()  # answers: (began, path, status, seconds)
        load = self.loader(answers, stop)
        workers = [
            threading.Thread(target=load, args=(deposit,), kwargs={"method": "POST", "body": {"amount": "0.01"},
                                                                   "token": token}, daemon=True),
            threading.Thread(target=load, args=("/api/v1/me",), kwargs={"token": token}, daemon=True),
            threading.Thread(target=load, args=("/login",), daemon=True)]
        for worker in workers:
            worker.start()
        time.sleep(2)
        locked = time.monotonic()
        # 30 s: twice the 10 s statement timeout and more, so a deposit begun in its first
        # seconds is answered long before the lock ends, however loaded the machine.
        holder = subprocess.Popen(
            ["psql", "-q", "-X", self.app.database_url, "-c",
             "BEGIN; LOCK TABLE %s.accounts IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(30); COMMIT;" % self.app.schema],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        holder.wait(timeout=60)
        released = time.monotonic()
        # Serving deposits again by itself.
        recovered = None
        while time.monotonic() - released < 60:
            if call(self.app.url, deposit, method="POST", body={"amount": "0.01"}, token=token)[0] == 200:
                recovered = time.monotonic() - released
                break
            time.sleep(0.1)
        stop.set()
        for worker in workers:
            worker.join(timeout=30)
        self.assertIsNotNone(recovered, "deposits did not come back within 60 s of the lock's end")
        # Deposits still going when the lock was taken, or begun under it at least 16 s before its
        # end: bounded by the 10 s timeout they end 6 s or more before it; waiting for the lock,
        # they would end with it.
        blocked = [a for a in answers if a[1] == deposit and a[0] + a[3] > locked + 0.5 and a[0] < released - 16]
        others = [a for a in answers if a[1] != deposit and locked + 0.5 < a[0] < released - 0.5]
        print("\nslow PostgreSQL (a table locked 30 s): %d deposits during it (%s), %.2f to %.2f s each; "
              "%d other calls, slowest %.2f s; deposits again %.2f s after the lock's end"
              % (len(blocked), sorted({a[2] for a in blocked}), min([a[3] for a in blocked] or [0]),
                 max([a[3] for a in blocked] or [0]), len(others), max([a[3] for a in others] or [0]), recovered),
              file=sys.stderr)
        self.assertTrue(blocked, "no deposit began in the lock's first seconds")
        self.assertEqual({a[2] for a in blocked}, {503}, "a clear 503, never a 500")
        # Bounded by the timeout, not by the lock: each answered before the lock ended.
        self.assertTrue(all(a[0] + a[3] < released - 1 for a in blocked), blocked)
        # What does not touch the locked table goes on.
        self.assertTrue(others and all(a[2] == 200 for a in others), others[:5])
        # Nothing half-written: the balance is the deposits that were acknowledged.
        acknowledged = sum(1 for a in answers if a[1] == deposit and a[2] == 200) + 1
        status, wallet = self.app.api("GET", "/accounts", token=token)
        self.assertEqual(wallet["accounts"][0]["balance"], "%.2f" % (acknowledged / 100))


if __name__ == "__main__":
    unittest.main()
