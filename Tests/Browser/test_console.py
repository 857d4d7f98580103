"""The operators' console (issue 40) as an operator meets it.

In Chromium, with its virtual authenticator: an operator signed in by text is asked for a passkey
(a text never opens the console); one added on Your devices and used on the proof page opens it;
the glance page draws its charts with a table of the same numbers; a person found by number is
shown with what they stored as text; "Sign out everywhere" asks for a reason by keyboard, then
ends the person's sign-in; Back after the action shows the page again and does nothing twice.
axe-core on each page, light and dark, at 200% zoom, in Spanish.

In WebKit, where WebKitGTK has no WebAuthn: the proof page says the console cannot be opened in
this browser, and is accessible.
"""

import json
import subprocess
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

import base
import engines
from base import OVERFLOW_SCRIPT, free_port

OPERATOR = "2125550100"


class ConsoleServer(base.Server):
    """The app with passkeys on (as http://localhost:PORT) and one operator."""

    def __init__(self):
        port = free_port()
        super().__init__(["--public-url", "http://localhost:%d" % port, "--admins", OPERATOR], port=port)
        self.url = "http://localhost:%d" % port


class ConsoleTests(base.BrowserTestCase):
    SERVER = ConsoleServer
    WAIT_SECONDS = 15

    def visible(self, element_id, driver=None):
        found = (driver or self.driver).find_elements(By.ID, element_id)
        return bool(found) and found[0].is_displayed()

    def fits(self, driver=None):
        scroll, client, over = (driver or self.driver).execute_script(OVERFLOW_SCRIPT)
        self.assertLessEqual(scroll, client, over)

    def enrollment_link(self):
        """What `webapp admin enroll` prints for the operator, on the server's own database."""
        done = subprocess.run(
            [base.BINARY, "admin", "enroll", OPERATOR, "--json", "--public-url", self.server.url,
             *self.server.database_options], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return json.loads(done.stdout)["link"]

    def open_console(self):
        """The operator signs in by text, is told a text never opens the console, adds the
        console's passkey through an enrollment link from the shell, and opens the console with it."""
        self.driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
            protocol="ctap2", transport="internal", has_resident_key=True, has_user_verification=True,
            is_user_verified=True))
        self.sign_in(OPERATOR, enter=True)
        self.driver.get(self.server.url + "/admin")
        self.wait_for_page("/admin/proof", until=lambda d: self.visible("console-add-passkey"))
        self.assertIn("webapp admin enroll", self.driver.find_element(By.ID, "console-add-passkey").text)
        self.assert_accessible("console-proof-no-passkey.png")
        self.driver.get(self.enrollment_link())
        self.wait_for_page("/admin/enroll", until=lambda d: self.visible("passkey-create"))
        self.assertFalse(self.visible("passkey-unavailable"))
        self.assert_accessible("console-enroll.png")
        self.driver.find_element(By.ID, "passkey-create").click()
        self.wait_for_page("/admin/proof", until=lambda d: self.visible("passkey-button"))
        self.assertFalse(self.visible("passkey-unavailable"))
        self.assert_accessible("console-proof.png")
        self.driver.find_element(By.ID, "passkey-button").click()
        self.wait_for_page("/admin", until=lambda d: self.visible("console-find"))

    @unittest.skipIf(engines.WEBKIT, "WebKitGTK has no WebAuthn (nor a virtual authenticator)")
    def test_open_the_console_find_a_person_and_sign_them_out(self):
        person = self.open_browser()
        self.sign_in(driver=person)
        self.open_console()
        self.assertIn("2 of 2 codes were used to sign in (100%).", self.driver.find_element(By.TAG_NAME, "main").text)
        charts = self.driver.find_elements(By.CSS_SELECTOR, "figure.chart svg")
        self.assertEqual(len(charts), 3)
        self.assertTrue(all(chart.size["width"] > 300 for chart in charts))
        self.fits()
        self.assert_accessible("console-glance.png")
        # The numbers, as a table, for whoever would rather read them.
        self.driver.find_element(By.CSS_SELECTOR, "details.numbers summary").click()
        self.assertIn("Hour (UTC)", self.driver.find_element(By.CSS_SELECTOR, "details.numbers table").text)

        # Find the person by keyboard, in the form they would say their number.
        field = self.driver.find_element(By.ID, "phone")
        field.send_keys("(530) 555-0123", Keys.ENTER)
        self.wait_for_page("/admin/people", until=lambda d: self.visible("console-status"))
        self.assertEqual(self.driver.find_element(By.ID, "console-status").text, "Active")
        self.fits()
        self.assert_accessible("console-person.png")

        # Sign out everywhere: first without a reason (the browser asks for one), then with one.
        reason = self.driver.find_element(By.ID, "sign-out-reason")
        reason.send_keys("Lost their phone on the bus")
        before = self.document()
        self.driver.find_element(By.CSS_SELECTOR, "#console-sign-out button").click()
        self.wait_for_page("/admin/people", left=before, until=lambda d: "Signed out everywhere" in d.find_element(By.ID, "notice").text)
        self.assertIn("Signed out everywhere", self.driver.find_element(By.ID, "notice").text)
        self.assertEqual(self.active(), "notice")
        person.get(self.server.url + "/home")
        self.wait_for_page("/login", driver=person)
        # Back after the action: the person's page as it was; nothing is done again.
        events = len(self.driver.find_elements(By.CSS_SELECTOR, "#console-activity + ol li"))
        self.back()
        self.driver.refresh()
        self.wait_for_page("/admin/people", until=lambda d: self.visible("console-status"))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#console-activity + ol li")), events)

        # In Spanish, and at 200%: still fits, still accessible.
        self.driver.find_element(By.ID, "language-switch").click()
        self.wait_for_page("/admin/people", until=lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es")
        self.assertIn("Códigos recientes", self.driver.page_source)
        self.assert_accessible("console-person-es.png")
        engines.zoomed(self.driver, 2)
        self.fits()
        self.screenshot("console-person-zoom.png")
        engines.unzoomed(self.driver)

    @unittest.skipIf(engines.WEBKIT, "WebKitGTK has no WebAuthn (nor a virtual authenticator)")
    def test_apps_add_one_see_its_secret_once(self):
        self.open_console()
        self.driver.find_element(By.ID, "console-apps").click()
        self.wait_for_page("/admin/apps", until=lambda d: self.visible("app-add"))
        self.assert_accessible("console-apps.png")
        self.driver.find_element(By.ID, "client_id").send_keys("notes")
        self.driver.find_element(By.ID, "app-name").send_keys("Notes <b>")
        self.driver.find_element(By.ID, "app-uris").send_keys("https://notes.example.com/cb")
        self.driver.find_element(By.ID, "add-reason").send_keys("The team's notes app")
        before = self.document()
        self.driver.find_element(By.CSS_SELECTOR, "#app-add button").click()
        self.wait_for_page("/admin/apps", left=before, until=lambda d: self.visible("app-secret-value"))
        secret = self.driver.find_element(By.ID, "app-secret-value").text
        self.assertEqual(len(secret), 43)
        self.assertIn("Notes <b>", self.driver.find_element(By.TAG_NAME, "main").text)
        self.fits()
        self.assert_accessible("console-app-secret.png")
        # The list again: the secret is not shown twice.
        self.driver.get(self.server.url + "/admin/apps")
        self.wait_for_page("/admin/apps", until=lambda d: self.visible("app-add"))
        self.assertNotIn(secret, self.driver.page_source)

    @unittest.skipIf(engines.WEBKIT, "WebKitGTK has no WebAuthn (nor a virtual authenticator)")
    def test_dark_mode(self):
        self.use(self.open_browser(scheme="dark"))
        self.open_console()
        self.assert_accessible("console-glance-dark.png")

    @unittest.skipUnless(engines.WEBKIT, "the browser without passkeys")
    def test_a_browser_without_passkeys_is_told_so(self):
        self.sign_in(OPERATOR, enter=True)
        self.driver.get(self.server.url + "/admin/proof?next=/admin")
        self.wait_for_page("/admin/proof", until=lambda d: self.visible("console-add-passkey"))
        self.assert_accessible("console-proof-webkit.png")

    def test_not_an_operator_sees_an_unknown_page(self):
        self.sign_in(enter=True)
        self.driver.get(self.server.url + "/admin")
        self.wait_for_page("/admin")
        unknown = self.driver.find_element(By.TAG_NAME, "main").text
        self.driver.get(self.server.url + "/no-such-page")
        self.wait_for_page("/no-such-page")
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "main").text, unknown)


if __name__ == "__main__":
    unittest.main()
