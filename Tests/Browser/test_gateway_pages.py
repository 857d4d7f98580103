"""Gateway mode's pages as a person meets them (issue 17): Login saying where it returns to,
the way back to the protected app after the code, the "not allowed" page and the sign-out page,
each audited by axe-core in light and dark mode and checked for reflow at 320 px.

The server runs in gateway mode for example.test, its public address login.example.test; the
browser (Chromium or WebKit, engines.py) reaches every *.example.test name through a proxy that
sends it to the server on 127.0.0.1 (proxy.py), so the session cookie's Domain is real: after
signing in, wiki.example.test (the same server here) receives it.
"""

import json
import os
import tempfile
import unittest

from selenium.webdriver.common.by import By

import base
import engines
from base import OVERFLOW_SCRIPT, free_port
from engines import browser
from proxy import Proxy


class GatewayPageTests(base.BrowserTestCase):
    def setUp(self):
        self.port = free_port()
        rules = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump({"hosts": {"admin.example.test": ["+14155550100"]}}, rules)
        rules.close()
        self.addCleanup(os.unlink, rules.name)
        self.login = "http://login.example.test:%d" % self.port
        self.server = self.start_server([
            "--port", str(self.port), "--public-url", self.login, "--gateway-domain", "example.test",
            "--gateway-rules", rules.name])
        self.proxy = Proxy(self.port)
        self.addCleanup(self.proxy.stop)
        self.use(browser(proxy=self.proxy.url))
        # A second window in dark mode, shown the same page (same cookies) for each audit.
        self.dark = self.open_browser(scheme="dark", proxy=self.proxy.url)
        self.failures = []

    def audit(self, name):
        """axe-core in light and dark mode, and reflow at 320 CSS px; failures collected. The
        dark window loads the light one's address with its cookies (every page audited here is
        a GET)."""
        self.dark.get(self.login + "/public/favicon.svg")
        self.dark.delete_all_cookies()
        for cookie in self.driver.get_cookies():
            self.dark.add_cookie(cookie)
        self.dark.get(self.driver.current_url)
        for driver in [self.driver, self.dark]:
            for rule, targets in self.axe_violations(driver):
                self.failures.append("%s (%s): %s %s" % (name, driver.scheme, rule, targets))
            self.screenshot("gateway-%s-%s.png" % (name, driver.scheme), driver)
        width = engines.narrowed(self.driver, 320)
        scroll, client, over = self.driver.execute_script(OVERFLOW_SCRIPT)
        if scroll > client or over:
            self.failures.append("%s at 320 px (%d CSS px): scrolls to %d; %s" % (name, width, scroll, over))
        engines.unzoomed(self.driver)

    def sign_in(self, phone, rd):
        """Signs in on Login with a place to return to (`rd`); does not wait for where it goes."""
        self.go_to_verify(phone, address=self.login + "/login?rd=" + rd)
        self.type_code(then=None)

    def test_signing_in_returns_to_the_app_and_every_gateway_page_passes_axe(self):
        wiki = "http://wiki.example.test:%d/home" % self.port
        self.driver.get(self.login + "/login?rd=" + wiki)
        note = self.driver.find_element(By.ID, "continuing").text
        self.assertEqual(note, "After signing in you'll go back to wiki.example.test.")
        self.audit("login-continuing")
        # A host longer than the phone is wide wraps instead of widening the page.
        self.driver.get(self.login + "/login?rd=http://" + "a" * 60 + ".wiki.example.test/x")
        self.audit("login-continuing-long-host")
        self.sign_in("5305550123", wiki)
        # Back at the protected address, on another host: the domain cookie went with it.
        # (A CSP form-action without the port once stopped this redirect in the browser alone.)
        self.wait_for_page(wiki, until=lambda d: "(530) 555-0123" in d.page_source)
        self.assertIn("(530) 555-0123", self.driver.page_source)

        # A protected app this number is not allowed on: the proxy passes on the check's page.
        self.proxy.extra_headers = {
            "X-Forwarded-Host": "admin.example.test", "X-Forwarded-Uri": "/", "X-Forwarded-Proto": "http"}
        self.driver.get(self.login + "/auth/forward")
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "You can't open admin.example.test")
        self.audit("not-allowed")
        self.proxy.extra_headers = {}
        # Its link leads to the sign-out page, which signs out of every app on the domain.
        self.driver.find_element(By.LINK_TEXT, "Sign out to use another number").click()
        # The page's own document and its text (WebKit moves the address before the new page
        # replaces the old one: seen once in CI).
        self.wait_for_page(self.login + "/logout", until=lambda d: "every app on example.test" in d.page_source)
        self.assertIn("every app on example.test", self.driver.page_source)
        self.audit("logout")
        self.driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        self.wait_for_page("/login")
        self.driver.get(wiki)
        self.wait_for_page("/login")
        self.assertEqual(self.failures, [])

    def test_an_address_off_the_domain_is_not_followed(self):
        self.sign_in("5305550123", "http://evil.test/")
        self.wait_for_page(self.login + "/home")
        self.assertNotIn("evil", self.driver.current_url.replace(self.login, ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
