"""What every gateway test class shares (`GatewayBehaviour`): a stack of upstream, webapp and one
proxy (gateway.Stack) per class, the proxy's and webapp's logs shown on a failure, and the steps
the tests take (signing in by code, where an answer sends the browser, what the upstream saw).
The test modules subclass it once per proxy, naming it in `proxy_class`.
"""

import unittest
import urllib.parse

import gateway
from clients import Browser, form
from gateway import APP_HOST, FAMILY_HOST, STAFF_HOST
from jws_parts import decode_part  # noqa: F401 (Tests/PythonSupport, on the path by gateway.py; for the tests)

gateway.use_loopback_names()

ALLOWED = "+15305550123"  # on staff (by number) and family (by area code)
RULES = {"hosts": {STAFF_HOST: [ALLOWED], FAMILY_HOST: ["+1530"]}}

# Numbers for the tests: each sign-in gets one of its own (the 30 s resend wait is per number).
_next_number = iter(range(100, 200))


def new_number(area="415"):
    return "+1%s555%04d" % (area, next(_next_number))


class GatewayBehaviour:
    """The stack and the steps of the tests, for any proxy: subclasses name it in `proxy_class`."""

    proxy_class = None

    @classmethod
    def setUpClass(cls):
        if not cls.proxy_class.available():
            raise unittest.SkipTest("%s is not installed (./scripts/setup installs it)" % cls.proxy_class.name)
        cls.stack = gateway.Stack(cls.proxy_class, rules=RULES)

    @classmethod
    def tearDownClass(cls):
        cls.stack.stop()

    def run(self, result=None):
        # On a failure, show what the webapp and the proxy logged.
        before = len(result.failures) + len(result.errors) if result else 0
        outcome = super().run(result)
        if result and len(result.failures) + len(result.errors) > before:
            print("\n" + self.stack.logs())
        return outcome

    # Helpers

    def url(self, host, path="/"):
        return self.stack.url(host, path)

    def login_url(self, path):
        return self.stack.public_url + path

    def sign_in(self, browser, start_url, phone=None, remember=True):
        """From a protected address, signed out: to Login, a code from the outbox, Verify; the
        answer to Verify and the number used."""
        phone = phone or new_number()
        answer = browser.get(start_url)
        self.assertEqual(answer.status, 302, answer.body[:500])
        answer, url = browser.follow(answer, start_url)
        self.assertEqual(answer.status, 200, answer.body[:500])
        return self.enter_number_and_code(browser, answer, url, phone, remember)

    def enter_number_and_code(self, browser, login_page, login_url, phone, remember=True):
        since = len(self.stack.webapp.outbox())
        fields = form(login_page.body, "/login")
        fields["phone"] = phone
        answer = browser.post(urllib.parse.urljoin(login_url, "/login"), fields)
        self.assertEqual(answer.status, 303, answer.body[:1000])
        verify, verify_url = browser.follow(answer, urllib.parse.urljoin(login_url, "/login"))
        self.assertEqual(verify.status, 200, verify.body[:1000])
        self.assertTrue(verify_url.endswith("/verify"), verify_url)
        fields = form(verify.body, "/verify")
        fields.update({"d%d" % (i + 1): digit for i, digit in enumerate(self.stack.webapp.code_for(phone, since))})
        if remember:
            fields["remember"] = "on"  # the person ticks "Remember this phone" (unticked at first)
        else:
            fields.pop("remember", None)
        answer = browser.post(urllib.parse.urljoin(verify_url, "/verify"), fields)
        self.assertEqual(answer.status, 303, answer.body[:1000])
        return answer, phone

    def signed_in_browser(self, phone=None):
        browser = Browser()
        answer, phone = self.sign_in(browser, self.url(APP_HOST, "/"), phone)
        return browser, phone

    def assert_on_home(self, answer, url):
        """`answer` (to a request for `url`) sends the browser to Home of the login site."""
        self.assertIn(answer.status, (302, 303), answer.body[:500])
        target = urllib.parse.urljoin(url, answer.location)
        self.assertEqual(target, self.login_url("/home"), "sent to %r instead of Home" % answer.location)

    def seen_by_upstream(self, answer):
        self.assertEqual(answer.status, 200, answer.body[:1000])
        seen = answer.json()
        headers = {}
        for name, value in seen["headers"]:
            # http.server reads header bytes as Latin-1; the proxies pass UTF-8 through.
            value = value.encode("latin-1").decode("utf-8", "replace")
            self.assertNotIn("{http.", value, "a proxy placeholder reached the app as %s" % name)
            headers.setdefault(name.lower(), []).append(value)
        return seen, headers
