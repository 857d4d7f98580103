"""Every page one sign-in visits (Login, Verify, their errors, the help page, Home, Your devices,
an account), audited as a whole (issue 18): axe-core in light and dark mode, and reflow at 320 CSS
px and at 200% zoom with no box too narrow and no touch target under 44 px.

Uses base.BrowserTestCase (the real binary, and the browser of engines: Chromium at 390 x 844,
or WebKit at its narrowest).
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base
import engines
from base import OVERFLOW_SCRIPT
from engines import browser

# Boxes narrower than 36 CSS px, and touch targets a person can see that are under 44 px tall (a
# checkbox's target is its label). Half a pixel is allowed for WebKit's zoom, which lays out in
# device pixels: at 120% a 44 px target is 52.8 device pixels, drawn as 52 or 53 (43.3 or 44.2 CSS
# px), larger on the screen than at 100% either way.
TARGETS_SCRIPT = """
const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility === 'visible';
const boxes = Array.from(document.querySelectorAll('.otp-boxes input'))
  .map(e => e.getBoundingClientRect().width).filter(w => w < 36);
const small = Array.from(document.querySelectorAll('button, a, summary, input:not([type=hidden]), select'))
  .map(e => e.type === 'checkbox' ? e.closest('label') : e)
  .filter(e => shown(e) && e.getBoundingClientRect().height < 43.5)
  .map(e => [e.outerHTML.slice(0, 60), Math.round(e.getBoundingClientRect().height)]);
return [boxes, small];
"""


class PageAuditTests(base.BrowserTestCase):
    def pages(self):
        """Every page, each as (name, how to get there), in the order one sign-in visits them."""
        def login():
            self.driver.get(self.server.url + "/login")

        def login_error():
            login()
            self.driver.find_element(By.ID, "phone").send_keys("12")
            self.driver.find_element(By.ID, "next-button").click()
            self.wait.until(lambda d: d.find_element(By.ID, "phone-error").text != "")

        def verify():
            self.go_to_verify()

        def verify_error():
            self.type_keys(self.wrong_code())
            self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)

        def verify_help():
            self.driver.find_element(By.ID, "no-code").send_keys(Keys.ENTER)
            self.wait_for_page("/verify/help")

        def home():
            self.driver.find_element(By.ID, "back-to-code").send_keys(Keys.ENTER)
            self.wait_for_page("/verify")
            self.wait.until(lambda d: self.active() == "d1")
            self.type_code()
            self.driver.find_element(By.ID, "account-name").send_keys("Checking")
            self.driver.find_element(By.CSS_SELECTOR, "#add-account-form button").click()
            self.wait_for_page("/accounts/", prefix=True)
            self.driver.get(self.server.url + "/home")

        def devices():
            self.driver.find_element(By.LINK_TEXT, "Your devices").click()
            self.wait_for_page("/devices")

        def account():
            self.driver.get(self.server.url + "/home")
            self.driver.find_element(By.LINK_TEXT, "Checking").click()
            self.wait.until(lambda d: d.find_element(By.ID, "account-name-heading").text == "Checking")
            self.driver.find_element(By.ID, "deposit-amount").send_keys("12.34")
            self.driver.find_element(By.CSS_SELECTOR, "#deposit-form button").click()
            self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$12.34")

        def account_error():
            self.driver.find_element(By.ID, "withdraw-amount").send_keys("100")
            self.driver.find_element(By.CSS_SELECTOR, "#withdraw-form button").click()
            self.wait.until(lambda d: d.find_element(By.ID, "withdraw-error").text != "")

        return [("login", login), ("login-error", login_error), ("verify", verify),
                ("verify-error", verify_error), ("verify-help", verify_help), ("home", home), ("devices", devices), ("account", account),
                ("account-error", account_error)]

    def each_page_in(self, check):
        for name, visit in self.pages():
            visit()
            self.wait_until_still()
            check(name)

    def test_axe_finds_no_violation_on_any_page_in_light_or_dark_mode(self):
        failures = []

        def audit(name):
            for rule, targets in self.axe_violations():
                failures.append("%s (%s): %s %s" % (name, self.driver.scheme, rule, targets))
            self.screenshot("%s-%s.png" % (name, self.driver.scheme))

        # The whole walk once in each scheme, in a browser started in it (WebKit takes the
        # scheme from GTK's theme when it starts), on a server of its own.
        self.each_page_in(audit)
        self.server = self.start_server()
        self.use(browser(scheme="dark"))
        self.each_page_in(audit)
        self.assertEqual(failures, [])

    def test_every_page_reflows_at_320_px_and_at_200_percent_zoom(self):
        failures = []

        def measure(name):
            # 320 CSS px (WCAG 1.4.10), and the phone at 200% zoom (195 CSS px in Chromium's
            # 390 px phone; WebKit zooms its 447 px window to 215 CSS px or less).
            for label, narrow in [("320 px", lambda: engines.narrowed(self.driver, 320)),
                                  ("200% zoom", lambda: engines.zoomed(self.driver, 2))]:
                width = narrow()
                where = "%s at %s (%d CSS px)" % (name, label, width)
                scroll, client, over = self.driver.execute_script(OVERFLOW_SCRIPT)
                if scroll > client or over:
                    failures.append("%s: scrolls to %d; %s" % (where, scroll, over))
                narrow_boxes, small_targets = self.driver.execute_script(TARGETS_SCRIPT)
                failures.extend("%s: a box %d px wide" % (where, w) for w in narrow_boxes)
                failures.extend("%s: %s is %d px tall" % (where, html, h) for html, h in small_targets)
                if label == "200% zoom":
                    self.screenshot("%s-zoom-200.png" % name)
                engines.unzoomed(self.driver)

        self.each_page_in(measure)
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
