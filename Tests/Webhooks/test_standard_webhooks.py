"""Our webhooks against the reference, end to end: the built `webapp` with `--webhooks FILE` sends
its events to receivers on 127.0.0.1, and PyPI standardwebhooks' `Webhook.verify` judges every
message received (issue 39). Also what a receiver can do to a sender: fail, hang, redirect, stay
down until the operator resumes it; and two instances on one PostgreSQL database sending each
event once. Run by ./scripts/webhook-tests (./scripts/test runs it on SQLite and on PostgreSQL).
"""

import base64
import http.server
import json
import os
import sqlite3
import subprocess
import sys
import socket
import threading
import time
import unittest

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATABASE_URL = os.environ.get("WEBHOOK_DATABASE_URL") or None

sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import BINARY, WebappProcess, eventually  # noqa: E402

SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()


class Receiver:
    """Endpoints on 127.0.0.1 that record every request: `/ok` answers 204, `/fail-once` 500 to
    a message's first attempt, `/redirect` 302 to `/ok?redirected`, `/hang` holds the request
    until the test ends (or two minutes pass), and counts in `let_go` each the sender gave up
    on (closed its connection) meanwhile."""

    def __init__(self):
        self.received = []
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.let_go = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                with receiver.lock:
                    earlier = [r for r in receiver.received
                               if r["path"] == self.path and r["headers"].get("webhook-id") == headers.get("webhook-id")]
                    receiver.received.append({"path": self.path, "headers": headers, "body": body})
                if self.path == "/hang":
                    self.connection.settimeout(0.1)
                    deadline = time.monotonic() + 120
                    while not receiver.release.is_set() and time.monotonic() < deadline:
                        try:
                            if self.connection.recv(1, socket.MSG_PEEK) == b"":
                                break  # the sender closed the connection: it gave up
                            time.sleep(0.1)
                        except socket.timeout:
                            continue
                        except OSError:
                            break
                    else:
                        return
                    with receiver.lock:
                        receiver.let_go += 1
                    return
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/ok?redirected")
                elif self.path == "/fail-once" and not earlier:
                    self.send_response(500)
                else:
                    self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def at(self, path):
        with self.lock:
            return [r for r in self.received if r["path"] == path]

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class App(WebappProcess):
    """The real binary with a --webhooks file, on SQLite or (WEBHOOK_DATABASE_URL) PostgreSQL."""

    def __init__(self, endpoints, joining=None):
        self.hooks = os.path.join(os.environ.get("TMPDIR", "/tmp"), "webhooks-%s.json" % os.urandom(6).hex())
        with open(self.hooks, "w") as file:
            json.dump({"endpoints": endpoints}, file)
        super().__init__(["--webhooks", self.hooks], database_url=DATABASE_URL, prefix="webapp-webhooks-",
                         joining=joining)

    def stop(self):
        super().stop()
        if os.path.exists(self.hooks):
            os.remove(self.hooks)

    def webhooks(self, *arguments):
        """`webapp webhooks …` on this app's database: (exit status, output lines)."""
        done = subprocess.run([BINARY, "webhooks", *arguments, *self.database_options], capture_output=True,
                              text=True, timeout=30)
        return done.returncode, done.stdout.splitlines()

    def sql(self, statement):
        if self.schema:
            self.psql("SET search_path TO %s; %s" % (self.schema, statement))
        else:
            with sqlite3.connect(os.path.join(self.data, "webapp.sqlite")) as database:
                database.execute(statement)


def endpoint(receiver, path, events=None, **more):
    return dict({"url": receiver.url + path, "secret": SECRET}, **({"events": events} if events else {}), **more)


class StandardWebhooksReferenceTests(unittest.TestCase):
    def setUp(self):
        self.receiver = Receiver()
        self.addCleanup(self.receiver.stop)

    def start(self, *endpoints, joining=None):
        app = App(list(endpoints), joining=joining)
        self.addCleanup(app.stop)
        return app

    def verified(self, request):
        """The payload, as the reference verifier reads it from what we sent."""
        return Webhook(SECRET).verify(request["body"], request["headers"])

    def test_every_message_verifies_with_the_reference_and_says_what_happened(self):
        app = self.start(endpoint(self.receiver, "/ok", ["code.sent", "session.created", "session.ended"]))
        token = app.sign_in()
        self.assertEqual(app.api("POST", "/logout", token=token)[0], 204)
        self.assertTrue(eventually(lambda: len(self.receiver.at("/ok")) >= 3), self.receiver.at("/ok"))
        requests = self.receiver.at("/ok")
        payloads = [self.verified(r) for r in requests]
        self.assertEqual([p["type"] for p in payloads], ["code.sent", "session.created", "session.ended"])
        for request, payload in zip(requests, payloads):
            self.assertEqual(payload, json.loads(request["body"]))
            self.assertEqual(request["headers"]["webhook-id"], "msg_%d" % payload["data"]["event_id"])
            self.assertLess(abs(int(request["headers"]["webhook-timestamp"]) - time.time()), 60)
            self.assertEqual(request["headers"]["content-type"], "application/json")
            self.assertNotIn("phone_number", json.dumps(payload["data"]).replace('"phone_number": null', ""))
            self.assertEqual(payload["data"]["network"], "127.0.0.0/24")
        self.assertEqual(payloads[2]["data"]["detail"], "signed_out")
        self.assertEqual(len({r["headers"]["webhook-id"] for r in requests}), 3)
        # The reference is no rubber stamp: a changed byte, another secret or an old timestamp fail.
        first = requests[0]
        with self.assertRaises(WebhookVerificationError):
            Webhook(SECRET).verify(first["body"].replace(b"code.sent", b"code.sene"), first["headers"])
        with self.assertRaises(WebhookVerificationError):
            Webhook("whsec_" + base64.b64encode(bytes(32)).decode()).verify(first["body"], first["headers"])
        with self.assertRaises(WebhookVerificationError):
            Webhook(SECRET).verify(first["body"], dict(first["headers"], **{"webhook-timestamp": str(int(time.time()) - 600)}))

    def test_the_phone_number_only_to_an_endpoint_that_asks(self):
        self.start(endpoint(self.receiver, "/ok", ["session.created"], include_phone_number=True),
                   endpoint(self.receiver, "/fail-once", ["session.created"])).sign_in("415 555 0100")
        self.assertTrue(eventually(lambda: self.receiver.at("/ok")))
        self.assertEqual(self.verified(self.receiver.at("/ok")[0])["data"]["phone_number"], "+14155550100")
        self.assertTrue(eventually(lambda: self.receiver.at("/fail-once")))
        self.assertNotIn(b"+1415", self.receiver.at("/fail-once")[0]["body"])

    def test_a_failed_message_is_sent_again_with_the_same_id_and_a_fresh_signature(self):
        self.start(endpoint(self.receiver, "/fail-once", ["session.created"])).sign_in()
        # The schedule's first wait is 5 seconds.
        self.assertTrue(eventually(lambda: len(self.receiver.at("/fail-once")) >= 2, within=15))
        first, again = self.receiver.at("/fail-once")[:2]
        self.assertEqual(first["headers"]["webhook-id"], again["headers"]["webhook-id"])
        self.assertEqual(first["body"], again["body"])
        self.assertGreaterEqual(int(again["headers"]["webhook-timestamp"]) - int(first["headers"]["webhook-timestamp"]), 4)
        self.assertEqual(self.verified(first), self.verified(again))

    def test_a_redirect_is_a_failure_and_is_not_followed(self):
        self.start(endpoint(self.receiver, "/redirect", ["session.created"])).sign_in()
        # Not followed, and failed: tried again when the schedule says (its first wait is 5 s).
        self.assertTrue(eventually(lambda: len(self.receiver.at("/redirect")) >= 2))
        first, again = self.receiver.at("/redirect")[:2]
        self.assertEqual(first["headers"]["webhook-id"], again["headers"]["webhook-id"])
        self.assertGreaterEqual(int(again["headers"]["webhook-timestamp"]) - int(first["headers"]["webhook-timestamp"]), 4)
        self.assertEqual(self.receiver.at("/ok?redirected"), [])

    def test_an_endpoint_that_hangs_keeps_neither_the_others_nor_the_app_waiting(self):
        app = self.start(endpoint(self.receiver, "/hang"), endpoint(self.receiver, "/ok"))
        app.sign_in()
        self.assertTrue(eventually(lambda: self.receiver.at("/hang")))
        # The hanging one holds its request; the others go on meanwhile, and the next sign-in is
        # not kept waiting for it: all of that happens before the app gives up on the hanging
        # request (its 15 s timeout), which a sender that waited for it would have to reach first.
        self.assertTrue(eventually(lambda: len(self.receiver.at("/ok")) >= 2))
        app.sign_in("415 555 0100")
        self.assertTrue(eventually(lambda: len(self.receiver.at("/ok")) >= 4))
        self.assertEqual(self.receiver.let_go, 0, "the others waited for the app to give up on the hanging endpoint")
        # Still on its first message (a second try comes only after the 15 s timeout).
        self.assertLessEqual(len({r["headers"]["webhook-id"] for r in self.receiver.at("/hang")}), 1)

    def test_a_paused_endpoint_sends_what_it_missed_in_order_once_the_operator_resumes_it(self):
        hook = endpoint(self.receiver, "/ok", ["code.sent", "session.created"])
        app = self.start(hook)
        self.assertTrue(eventually(lambda: app.webhooks()[1]), "the endpoint is registered as the app starts")
        # A day of failures, as the schedule would leave it (no test waits a day).
        app.sql("UPDATE webhook_endpoints SET paused_at = 1, failures = 8, last_error = 'HTTP 503'")
        app.sign_in()
        status, lines = app.webhooks()
        self.assertEqual(status, 0)
        [line] = [json.loads(line) for line in lines]
        self.assertEqual((line["url"], line["failures"], line["last_error"]), (hook["url"], 8, "HTTP 503"))
        self.assertGreaterEqual(line["behind"], 2)
        self.assertIn("paused_at", line)
        time.sleep(2)
        self.assertEqual(self.receiver.at("/ok"), [], "nothing goes to a paused endpoint")
        self.assertEqual(app.webhooks("resume", self.receiver.url + "/nowhere")[0], 64)
        self.assertEqual(app.webhooks("resume", hook["url"]), (0, ["Resumed %s." % hook["url"]]))
        self.assertTrue(eventually(lambda: len(self.receiver.at("/ok")) >= 2))
        self.assertEqual([self.verified(r)["type"] for r in self.receiver.at("/ok")], ["code.sent", "session.created"])
        [line] = [json.loads(line) for line in app.webhooks()[1]]
        self.assertEqual((line["behind"], line["failures"]), (0, 0))
        self.assertNotIn("paused_at", line)
        self.assertEqual(app.webhooks("resume", hook["url"]), (0, ["%s is not paused: nothing to resume." % hook["url"]]))

    @unittest.skipUnless(DATABASE_URL, "two instances share a PostgreSQL database")
    def test_two_instances_on_one_database_send_each_event_once(self):
        hook = endpoint(self.receiver, "/ok", ["code.sent", "session.created"])
        first = self.start(hook)
        second = self.start(hook, joining=first)
        phones = ["(530) 555-01%02d" % n for n in range(10)]
        for n, phone in enumerate(phones):
            (first if n % 2 else second).sign_in(phone)
        self.assertTrue(eventually(lambda: len(self.receiver.at("/ok")) >= 20, within=20))
        time.sleep(2)  # anything sent twice would have arrived by now
        requests = self.receiver.at("/ok")
        ids = [r["headers"]["webhook-id"] for r in requests]
        self.assertEqual(len(ids), 20, ids)
        self.assertEqual(len(set(ids)), 20, "each event once")
        events = [self.verified(r)["data"]["event_id"] for r in requests]
        self.assertEqual(events, sorted(events), "in the order they happened")


if __name__ == "__main__":
    unittest.main()
