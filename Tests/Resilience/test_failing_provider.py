"""A provider that fails (issue 41, part 5): the real binary sending through a fake Twilio
(Tests/Delivery/fake_twilio.py) that answers 500, hangs for 30 s, or refuses connections. Each
time the person is told within seconds, with nothing counted; from the third failure in a row
sending pauses (Twilio is not asked at all; the answer is at once, with Retry-After), calls are
still placed, and once Twilio answers again the first text after the pause goes and sending
resumes by itself. Run by ./scripts/outage-tests (in ./scripts/test); prints the figures that
docs/RELIABILITY.md quotes.
"""

import http.cookiejar
import json
import os
import re
import sys
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Delivery"))
import fake_twilio  # noqa: E402
from webapp_process import WebappProcess  # noqa: E402

DATABASE_URL = os.environ.get("OUTAGE_DATABASE_URL") or None


class FailingProviderTests(unittest.TestCase):
    def setUp(self):
        self.twilio = fake_twilio.FakeTwilio()
        self.addCleanup(self.twilio.stop)
        self.app = WebappProcess(["--sms", "twilio"], env=self.twilio.environment(), database_url=DATABASE_URL,
                                 prefix="webapp-provider-")
        self.addCleanup(self.app.stop)

    def send(self, phone, channel="sms"):
        """(HTTP status, error code or None, seconds taken, Retry-After) for one code asked for."""
        began = time.monotonic()
        request = urllib.request.Request(
            self.app.url + "/api/v1/verifications", method="POST", headers={"Content-Type": "application/json"},
            data=('{"phone_number": "%s", "channel": "%s"}' % (phone, channel)).encode())
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                return response.status, None, time.monotonic() - began, None
        except urllib.error.HTTPError as error:
            body = json.loads(error.read() or b"null") or {}
            return (error.code, (body.get("error") or {}).get("code"), time.monotonic() - began,
                    error.headers.get("Retry-After"))

    def fail_three_times(self, expected_code):
        """Three numbers in a row fail: each told `expected_code` (for a Twilio that hangs, while
        it still hangs: the app's own deadline ends the wait); the fourth is told at once that
        texts are paused, and Twilio is not asked. The figures, reported rather than asserted."""
        times = []
        for index in range(3):
            status, code, seconds, _ = self.send("(530) 555-01%02d" % (10 + index))
            self.assertEqual((status, code), (503, expected_code))
            self.assertEqual(self.twilio.hangs_ended, 0, "the person waited for Twilio's hang to end")
            times.append(seconds)
        asked = self.twilio.attempts["Messages"]
        status, code, paused, retry_after = self.send("(530) 555-0123")
        self.assertEqual((status, code), (503, "sms_unavailable"))
        self.assertEqual(self.twilio.attempts["Messages"], asked)
        self.assertTrue(retry_after and 1 <= int(retry_after) <= 30, retry_after)
        return times, paused

    def recovers(self):
        """Twilio answers again: within the 30 s pause (and a little), a text goes, then the next."""
        began = time.monotonic()
        deadline = began + 60
        while True:
            status, code, _, _ = self.send("(530) 555-0150")
            if status == 200:
                break
            self.assertEqual(code, "sms_unavailable")
            self.assertLess(time.monotonic(), deadline, "sending did not resume")
            time.sleep(1)
        self.assertEqual(self.send("(530) 555-0151")[0], 200)
        return time.monotonic() - began

    def report(self, name, times, paused, recovered=None):
        print("\n%s: told in %s s; paused answer in %.3f s%s" % (
            name, ", ".join("%.2f" % t for t in times), paused,
            "; sending again %.1f s after Twilio came back" % recovered if recovered is not None else ""),
            file=sys.stderr)

    def test_twilio_answering_500(self):
        self.twilio.failing["Messages"] = 500
        times, paused = self.fail_three_times("sms_failed")
        # A 5xx is tried once more, half a second later.
        self.assertEqual(self.twilio.attempts["Messages"], 6)
        # Calls are another resource; they still work, and the code they read out signs in.
        status, _, _, _ = self.send("(530) 555-0123", channel="call")
        self.assertEqual(status, 200)
        self.assertEqual(self.twilio.last().resource, "Calls")
        # The person on Login is offered the call.
        page = self.login_page("(530) 555-0124")
        self.assertIn('formaction="/login/call"', page)
        del self.twilio.failing["Messages"]
        recovered = self.recovers()
        self.report("500", times, paused, recovered)

    def test_twilio_that_hangs(self):
        self.twilio.failing["Messages"] = "hang"
        # Longer than the three sends' deadlines together (5 s each), however loaded the machine.
        self.twilio.hang_seconds = 120
        times, paused = self.fail_three_times("sms_failed")
        # Not tried twice: the text may have gone out.
        self.assertEqual(self.twilio.attempts["Messages"], 3)
        self.report("hang", times, paused)

    def test_twilio_refusing_connections(self):
        self.twilio.refuse()
        times, paused = self.fail_three_times("sms_failed")
        self.twilio.listen()
        recovered = self.recovers()
        self.report("refused", times, paused, recovered)

    def login_page(self, phone):
        """Login posted as a browser does (its CSRF cookie and field): the page answered."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(self.app.url + "/login", timeout=30).read().decode()
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        form = urllib.parse.urlencode({"csrf": csrf, "phone": phone}).encode()
        try:
            return opener.open(urllib.request.Request(self.app.url + "/login", data=form), timeout=30).read().decode()
        except urllib.error.HTTPError as error:
            self.assertEqual(error.code, 503)
            return error.read().decode()


if __name__ == "__main__":
    unittest.main()
