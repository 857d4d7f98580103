"""Our Twilio side against the reference, end to end: the built `webapp` sends through a fake Twilio
(fake_twilio.py) and takes status callbacks signed by PyPI twilio's RequestValidator, case by case,
over the JSON API (issue 26). Run by ./scripts/delivery-tests (./scripts/test runs it on SQLite and
on PostgreSQL).
"""

import os
import re
import sys
import unittest
import urllib.parse
import urllib.request

from twilio.request_validator import RequestValidator

import fake_twilio

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATABASE_URL = os.environ.get("DELIVERY_DATABASE_URL") or None

sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import WebappProcess, free_port  # noqa: E402


class App(WebappProcess):
    """The real binary, sending through `twilio`, its --public-url its own address."""

    def __init__(self, twilio, messaging_service=False):
        port = free_port()
        url = "http://127.0.0.1:%d" % port
        super().__init__(
            ["--sms", "twilio", "--public-url", url], env=twilio.environment(messaging_service), port=port,
            database_url=DATABASE_URL, prefix="webapp-delivery-")


class TwilioReferenceTests(unittest.TestCase):
    def setUp(self):
        self.twilio = fake_twilio.FakeTwilio()
        self.addCleanup(self.twilio.stop)
        self.app = App(self.twilio)
        self.addCleanup(self.app.stop)

    def send(self, channel="sms", phone="(530) 555-0123"):
        status, body = self.app.api("POST", "/verifications", {"phone_number": phone, "channel": channel})
        self.assertEqual(status, 200, body)
        return body["verification_id"], self.twilio.last()

    def status(self, verification):
        code, body = self.app.api("GET", "/verifications/" + verification)
        self.assertEqual(code, 200, body)
        return body

    def test_the_requests_are_what_twilio_takes(self):
        verification, text = self.send()
        self.assertEqual(text.resource, "Messages")
        self.assertEqual(text.field("To"), "+15305550123")
        self.assertEqual(text.field("From"), fake_twilio.FROM_NUMBER)
        self.assertRegex(text.field("Body"), r"^\d{6} is your verification code\.\n\n@localhost #\d{6}$")
        self.assertRegex(text.field("StatusCallback"), r"^%s/callbacks/twilio/[0-9a-f]{32}$" % re.escape(self.app.url))
        self.assertEqual(self.status(verification)["status"], "queued")

    def test_every_status_signed_by_the_reference_is_taken_in_order(self):
        verification, text = self.send()
        for twilio_status, ours in [("sent", "sent"), ("delivered", "delivered")]:
            self.assertEqual(self.twilio.report(text, twilio_status), 204)
            self.assertEqual(self.status(verification)["status"], ours)

    def test_undelivered_with_its_error_code_then_a_call_whose_code_signs_in(self):
        verification, text = self.send()
        self.assertEqual(self.twilio.report(text, "undelivered", "30003"), 204)
        reported = self.status(verification)
        self.assertEqual((reported["status"], reported["error_code"], reported["resend_after"]),
                         ("undelivered", "30003", 0))
        called_id, call = self.send(channel="call")
        self.assertEqual(call.resource, "Calls")
        self.assertIn("<Say>Again.</Say>", call.field("Twiml"))
        self.assertEqual([value for name, value in call.fields if name == "StatusCallbackEvent"],
                         ["initiated", "ringing", "answered", "completed"])
        self.assertEqual(self.twilio.report(call, "ringing"), 204)
        self.assertEqual(self.twilio.report(call, "completed"), 204)
        self.assertEqual(self.status(called_id)["status"], "delivered")
        code, body = self.app.api("POST", "/verifications/check",
                                  {"phone_number": "+15305550123", "verification_id": called_id, "code": call.code()})
        self.assertEqual(code, 200, body)

    def test_the_reference_signature_with_anything_changed_is_refused(self):
        verification, text = self.send()
        # Another account's token.
        self.assertEqual(self.twilio.report(text, "delivered", token="another-accounts-token"), 403)
        # No signature at all.
        self.assertEqual(self.twilio.report(text, "delivered", signature=False), 403)
        # A field changed after signing.
        changed = dict(self.twilio.callback_fields(text, "delivered"), MessageStatus="failed")
        self.assertEqual(self.twilio.report(text, "delivered", fields=changed), 403)
        # A field added after signing.
        added = dict(self.twilio.callback_fields(text, "delivered"), Extra="1")
        self.assertEqual(self.twilio.report(text, "delivered", fields=added), 403)
        # Signed for this send's address, posted to another send's.
        _, other = self.send(phone="(530) 555-0199")
        self.assertEqual(self.twilio.report(text, "delivered", url=other.field("StatusCallback")), 403)
        self.assertEqual(self.status(verification)["status"], "queued")

    def test_the_reference_and_ours_agree_on_odd_fields(self):
        # Values with spaces, plus signs, unicode and an empty value: the validator's
        # string-building and ours must agree on each (a disagreement is a 403 here).
        verification, text = self.send()
        fields = dict(self.twilio.callback_fields(text, "delivered"),
                      Body="a b+c&d=e ñ 😀", Empty="", Plus="+15305550123")
        signature = RequestValidator(fake_twilio.AUTH_TOKEN).compute_signature(text.field("StatusCallback"), fields)
        request = urllib.request.Request(
            text.field("StatusCallback"), method="POST",
            data=urllib.parse.urlencode(fields).encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature})
        with urllib.request.urlopen(request, timeout=10) as response:
            self.assertEqual(response.status, 204)
        self.assertEqual(self.status(verification)["status"], "delivered")

    def test_replays_and_late_reports_never_move_back(self):
        verification, text = self.send()
        self.assertEqual(self.twilio.report(text, "delivered"), 204)
        for late in ["queued", "sending", "sent", "undelivered", "failed", "delivered"]:
            self.assertEqual(self.twilio.report(text, late, "30003"), 204)
        reported = self.status(verification)
        self.assertEqual((reported["status"], reported.get("error_code")), ("delivered", None))

if __name__ == "__main__":
    unittest.main()
