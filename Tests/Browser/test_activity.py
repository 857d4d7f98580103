"""Recent activity (issue 39) in Chromium at 390 x 844 and in WebKit: a sign-in, a wrong code from
another browser and its sign-in, then the page reached from Your devices by keyboard, in words
and in Spanish; "Sign out everywhere else" from it ends the other browser; axe-core on the page.

Uses base.BrowserTestCase (the real binary, the browser of engines).
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base


class ActivityTests(base.BrowserTestCase):
    def test_what_happened_in_words_and_not_you(self):
        self.sign_in()
        # Another browser: a wrong code for the same number, then its sign-in.
        other = self.open_browser()
        self.go_to_verify(driver=other)
        self.type_keys(self.wrong_code(), driver=other)
        self.waiter(other).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]"))
        self.type_code(driver=other)

        self.driver.get(self.server.url + "/devices")
        self.wait_for_page("/devices", until=lambda d: d.find_elements(By.ID, "devices-activity"))
        self.driver.find_element(By.ID, "devices-activity").send_keys(Keys.ENTER)
        self.wait_for_page("/account/activity", until=lambda d: d.find_elements(By.CSS_SELECTOR, "ol.activity"))
        lines = [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "ol.activity strong")]
        self.assertEqual(lines[0], "Signed in with a code by text")
        self.assertIn("A wrong code was typed for (•••) •••-0123", lines)  # the no-break space reads as one
        self.assertEqual(sum(1 for line in lines if line.startswith("A code was texted")), 2)
        self.assert_accessible("activity.png")

        # Not you? Every other sign-in ends, and the page says so in its own lines.
        before = self.document()
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Sign out everywhere else']").click()
        self.wait_for_page("/account/activity", left=before)
        lines = [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "ol.activity strong")]
        self.assertIn("signed out from another device", lines[0])
        # A way back for a person without a Back button.
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "p.back a").get_attribute("href"),
                         self.server.url + "/devices")
        other.get(self.server.url + "/home")
        self.waiter(other).until(lambda d: d.current_url.endswith("/login"))

    def test_in_spanish(self):
        self.sign_in()
        self.driver.get(self.server.url + "/account/activity?lang=es")
        self.wait_for_page("/account/activity", until=lambda d: d.find_elements(By.CSS_SELECTOR, "ol.activity"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Actividad reciente")
        lines = [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "ol.activity strong")]
        self.assertEqual(lines[0], "Inició sesión con un código por mensaje de texto")
        self.assert_accessible("es-activity.png")


if __name__ == "__main__":
    unittest.main()
