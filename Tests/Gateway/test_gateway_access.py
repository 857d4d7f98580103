"""Gateway mode end to end, what is refused (issue 17, part 4): open redirects after a sign-in or
when already signed in, a number or area code the rules file does not admit, a host outside the
gateway domain, an absolute request target naming another host, the probes through the login
host, and the check routes as a proxy calls them. The stack and its names: test_gateway.py's
docstring. Run by ./scripts/gateway-tests.
"""

import html
import http.client
import re
import unittest
import urllib.parse

import proxies
from clients import Browser
from gateway import APP_HOST, FAMILY_HOST, OUTSIDE_HOST, STAFF_HOST
from gateway_case import ALLOWED, GatewayBehaviour, decode_part, new_number


class AccessBehaviour(GatewayBehaviour):
    """What the gateway refuses, for any proxy."""

    # Open redirects

    EVIL_RD = [
        "http://evil.test/",
        "https://evil.test/",
        "//evil.test/",
        "https:/\\evil.test/",
        "http:\\\\evil.test/",
        "/\\evil.test/",
        "http://user@app.example.test/",
        "http://app.example.test@evil.test/",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "http://app.example.test.evil.test/",
        "http://evilexample.test/",
        "http://example.test.evil.test/",
        "http://app.example.test%2eevil.test/",
        "http://app.example.test\t.evil.test/",
        "http://app.example.test\n/",
        "ftp://app.example.test/",
        "\x01http://app.example.test/",
    ]

    def test_open_redirects_end_on_home_when_already_signed_in(self):
        browser, _ = self.signed_in_browser()
        for rd in self.EVIL_RD:
            with self.subTest(rd=rd):
                url = self.login_url("/login?rd=" + urllib.parse.quote(rd, safe=""))
                self.assert_on_home(browser.get(url), url)

    def test_open_redirects_end_on_home_after_a_code(self):
        for rd in ["//evil.test/", "https:/\\evil.test/", "http://user@app.example.test/", "javascript:alert(1)",
                   "http://app.example.test.evil.test/", "http://evilexample.test/", "http://evil.test/"]:
            with self.subTest(rd=rd):
                browser = Browser()
                login_url = self.login_url("/login?rd=" + urllib.parse.quote(rd, safe=""))
                page = browser.get(login_url)
                self.assertEqual(page.status, 200)
                answer, _ = self.enter_number_and_code(browser, page, login_url, new_number())
                self.assert_on_home(answer, self.login_url("/verify"))

    # Who may pass

    def test_the_rules_admit_a_listed_number_and_area_code_and_refuse_others(self):
        allowed, _ = self.signed_in_browser(phone=ALLOWED)
        same_area, _ = self.signed_in_browser(phone=new_number(area="530"))
        other, other_phone = self.signed_in_browser(phone=new_number(area="415"))
        for browser, host, status in [
            (allowed, STAFF_HOST, 200), (allowed, FAMILY_HOST, 200), (allowed, APP_HOST, 200),
            (same_area, STAFF_HOST, 403), (same_area, FAMILY_HOST, 200),
            (other, STAFF_HOST, 403), (other, FAMILY_HOST, 403), (other, APP_HOST, 200),
        ]:
            with self.subTest(host=host, status=status):
                answer = browser.get(self.url(host, "/rules"))
                self.assertEqual(answer.status, status, answer.body[:500])
                if status == 200:
                    seen, headers = self.seen_by_upstream(answer)
                    token = headers["phone-login-assertion"][0]
                    self.assertEqual(decode_part(token.split(".")[1])["aud"], host)
        refused = other.get(self.url(STAFF_HOST, "/rules"))
        self.assertIn("text/html", refused.headers.get("Content-Type", ""))
        self.assertIn(STAFF_HOST, html.unescape(refused.body))
        shown = re.sub(r"\D", "", html.unescape(re.sub(r"<[^>]+>", "", refused.body)))
        self.assertIn(other_phone[-4:], shown, "the page says who is signed in")

    def test_probes_and_metrics_are_not_served_through_the_login_host(self):
        for path in ["/metrics", "/healthz", "/readyz"]:
            with self.subTest(path=path):
                self.assertEqual(Browser().get(self.login_url(path)).status, 403)

    def test_an_absolute_request_target_cannot_borrow_another_hosts_rules(self):
        # The proxy picks its server block by the host in the request line, so the check must be
        # asked about that host, not the Host header (found by the fresh-eyes review: with
        # $http_host, a number refused on staff reached it with Host: app).
        other, _ = self.signed_in_browser(phone=new_number(area="415"))
        session = other.cookie("session").value
        port = int(urllib.parse.urlsplit(self.url(APP_HOST)).port)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        connection.putrequest("GET", self.url(STAFF_HOST, "/rules"), skip_host=True)
        connection.putheader("Host", "%s:%d" % (APP_HOST, port))
        connection.putheader("Cookie", "session=" + session)
        connection.endheaders()
        answer = connection.getresponse()
        body = answer.read().decode(errors="replace")
        connection.close()
        self.assertIn(answer.status, (400, 403), body[:300])
        self.assertNotIn("remote-user", body.lower())

    def test_a_host_outside_the_gateway_domain_is_refused(self):
        browser, _ = self.signed_in_browser()
        self.assertEqual(browser.get(self.url(OUTSIDE_HOST, "/")).status, 403)
        self.assertEqual(Browser().get(self.url(OUTSIDE_HOST, "/")).status, 403)
        self.assertFalse([r for r in self.stack.upstream.requests() if r["path"] == "/" and
                          any(v.startswith(OUTSIDE_HOST) for _, v in r["headers"])])

    # The check routes themselves, as a proxy calls them

    def test_the_check_routes_directly(self):
        browser, phone = self.signed_in_browser()
        session = "session=" + browser.cookie("session").value
        direct = Browser()
        webapp = self.stack.webapp.url
        forwarded = {"X-Forwarded-Proto": "http", "X-Forwarded-Host": "%s:%d" % (APP_HOST, self.stack.port),
                     "X-Forwarded-Uri": "/a?b=c&d=e"}
        # No X-Forwarded-Host: 403, signed in or not.
        for route in ("/auth/request", "/auth/forward"):
            with self.subTest(route=route):
                self.assertEqual(direct.get(webapp + route, {"Cookie": session}).status, 403)
                self.assertEqual(direct.get(webapp + route).status, 403)
        self.assertIn("X-Forwarded-Host", self.stack.webapp.log_text())
        # Signed out.
        self.assertEqual(direct.get(webapp + "/auth/request", forwarded).status, 401)
        answer = direct.get(webapp + "/auth/forward", forwarded)
        self.assertEqual(answer.status, 302)
        self.assertEqual(answer.location, self.login_url("/login?rd=") + urllib.parse.quote(
            "http://%s:%d/a?b=c&d=e" % (APP_HOST, self.stack.port), safe=""))
        # Signed in.
        for route in ("/auth/request", "/auth/forward"):
            with self.subTest(route=route):
                answer = direct.get(webapp + route, {**forwarded, "Cookie": session})
                self.assertEqual(answer.status, 200)
                self.assertEqual(answer.headers.get("Remote-User"), phone)
                claims = decode_part(answer.headers.get("Phone-Login-Assertion").split(".")[1])
                self.assertEqual(claims["aud"], APP_HOST)
                self.assertEqual(claims["iss"], self.stack.public_url)
        # The forwarded host decides, not Host; upper case and a port do not change the audience.
        answer = direct.get(webapp + "/auth/request", {**forwarded, "Cookie": session,
                                                      "X-Forwarded-Host": "APP.Example.TEST:8443"})
        self.assertEqual(answer.status, 200)
        self.assertEqual(decode_part(answer.headers["Phone-Login-Assertion"].split(".")[1])["aud"], APP_HOST)
        for host in ("evil.test", "example.test.evil.test", "evilexample.test", "app.example.test@evil.test",
                     "app.example.test:1@evil.test", "app.example.test/evil", ""):
            with self.subTest(host=host):
                answer = direct.get(webapp + "/auth/request", {**forwarded, "Cookie": session,
                                                              "X-Forwarded-Host": host})
                self.assertEqual(answer.status, 403, "%r: %s" % (host, answer.headers))
                self.assertIsNone(answer.headers.get("Phone-Login-Assertion"))
        # The login site does not expose the checks through the proxy (the docs block /auth/).
        self.assertEqual(browser.get(self.login_url("/auth/request")).status, 404)


class NginxAccessTests(AccessBehaviour, unittest.TestCase):
    """nginx auth_request, configured as docs/GATEWAY.md says."""

    proxy_class = proxies.Nginx


class CaddyAccessTests(AccessBehaviour, unittest.TestCase):
    """Caddy forward_auth, configured as docs/GATEWAY.md says."""

    proxy_class = proxies.Caddy


if __name__ == "__main__":
    unittest.main()
