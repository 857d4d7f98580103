"""The returning phone and "Your devices" (issues 15 and 36) in Chromium at 390 x 844 and in WebKit:
remembering is a choice (the box starts unticked), Log out says so and offers to forget the
phone, a remembered phone goes to Home with no text only by "Continue as (•••) •••-0123" (Next
sends a code), "Also forget this phone" forgets it, the box is usable by keyboard, the devices page signs
another browser out while it is open, and Home never goes back to Login or Verify.

Uses base.BrowserTestCase (the real binary, the browser of engines).
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base


class DevicesTests(base.BrowserTestCase):
    def assert_back_stays_home(self, driver):
        """Back, three times, never reaches Login or Verify (signed in, both send Home)."""
        for _ in range(3):
            self.back(stays=lambda path: path not in ("/login", "/verify"), driver=driver)
            self.assertFalse(driver.current_url.endswith(("/login", "/verify")), driver.current_url)
            self.assertEqual(len(driver.find_elements(By.ID, "d1")), 0)
            self.assertEqual(len(driver.find_elements(By.ID, "phone")), 0)

    def remember_and_log_out(self):
        """Signs in with "Remember this phone" ticked (a tap on its label), then Log out."""
        self.go_to_verify()
        box = self.driver.find_element(By.NAME, "remember")
        self.assertFalse(box.is_selected(), "remembering is the person's choice")
        box.find_element(By.XPATH, "./..").click()
        self.assertTrue(box.is_selected())
        self.screenshot("verify-remember.png")
        self.driver.find_element(By.ID, "d1").click()
        self.type_code()
        self.assertIsNotNone(self.driver.get_cookie("device"))
        self.log_out()
        self.assertEqual(self.driver.find_element(By.ID, "notice").text, "You've signed out.")

    def test_a_remembered_phone_goes_home_only_by_continue_as_and_back_stays_home(self):
        self.remember_and_log_out()
        continue_button = self.driver.find_element(By.ID, "continue-button")
        self.assertEqual(continue_button.text, "Continue as (•••) •••-0123")
        self.assertEqual(self.driver.find_element(By.ID, "forget-phone-button").text, "Also forget this phone")
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "")
        self.assertNotIn("555-0123", self.driver.find_element(By.TAG_NAME, "main").text)
        self.assert_accessible("login-signed-out.png")
        continue_button.click()
        self.wait_for_page("/home")
        self.assertEqual(len(self.server.outbox()), 1)
        self.assert_back_stays_home(self.driver)

    def test_after_log_out_next_with_the_remembered_number_sends_a_code(self):
        self.remember_and_log_out()
        self.enter_phone()
        self.wait_for_page("/verify")
        self.assertEqual(len(self.server.outbox()), 2)

    def test_also_forget_this_phone_leaves_nothing_to_continue_as(self):
        self.remember_and_log_out()
        self.driver.find_element(By.ID, "forget-phone-button").click()
        self.wait_for_page("/login", until=lambda d: not d.find_elements(By.ID, "continue-button"))
        self.assertIsNone(self.driver.get_cookie("device"))
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "")

    def test_the_box_is_reached_and_ticked_and_unticked_with_the_keyboard(self):
        self.go_to_verify()
        box = self.driver.find_element(By.NAME, "remember")
        label = box.find_element(By.XPATH, "./..")
        self.assertEqual(label.text.strip(), "Remember this phone for 30 days")
        self.assertGreaterEqual(label.size["height"], 44)
        # Tab from the boxes reaches it; Space ticks it, and Space again unticks it.
        self.driver.find_element(By.ID, "d1").click()
        for _ in range(6):
            if self.driver.switch_to.active_element.get_attribute("name") == "remember":
                break
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("name"), "remember")
        self.assertFalse(box.is_selected())
        self.driver.switch_to.active_element.send_keys(Keys.SPACE)
        self.assertTrue(box.is_selected())
        self.driver.switch_to.active_element.send_keys(Keys.SPACE)
        self.assertFalse(box.is_selected())
        self.driver.find_element(By.ID, "d1").click()
        self.type_code()
        self.assertIsNone(self.driver.get_cookie("device"))

    def test_sign_out_everywhere_else_from_a_remembered_phone_asks_confirm_its_you_first(self):
        other = self.open_browser()
        self.sign_in(driver=other)
        self.remember_and_log_out()
        self.driver.find_element(By.ID, "continue-button").click()
        self.wait_for_page("/home")
        self.driver.get(self.server.url + "/devices")
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Sign out everywhere else']").click()
        # A remembered phone is no proof: a new code first, and the person stays signed in.
        self.wait_for_page("/confirm", until=lambda d: d.find_elements(By.ID, "confirm-send"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Confirm it's you")
        self.assert_accessible("confirm.png")
        texts = len(self.server.outbox())
        self.driver.find_element(By.ID, "confirm-send").click()
        self.wait_for_page("/confirm/code", until=lambda d: d.find_elements(By.ID, "code"))
        self.assertEqual(len(self.server.outbox()), texts + 1)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "code")
        self.assert_accessible("confirm-code.png")
        self.driver.find_element(By.ID, "code").send_keys(self.server.last_code(), Keys.ENTER)
        self.wait_for_page("/devices")
        # Back where it was asked; the button now does it.
        before = self.document()
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Sign out everywhere else']").click()
        self.wait_for_page("/devices", left=before)
        other.get(self.server.url + "/home")
        self.wait_for_page("/login", driver=other)

    def test_times_are_said_in_the_phones_own_time_and_language(self):
        self.sign_in()
        self.driver.get(self.server.url + "/devices")
        first = self.driver.find_element(By.CSS_SELECTOR, ".place time[datetime]")
        # local-time.js: the UTC text moves to the title, the text is the phone's own time.
        self.wait.until(lambda d: (first.get_attribute("title") or "").endswith(" UTC"))
        self.assertRegex(first.text, r"^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$")
        self.driver.get(self.server.url + "/devices?lang=es")
        first = self.driver.find_element(By.CSS_SELECTOR, ".place time[datetime]")
        self.wait.until(lambda d: (first.get_attribute("title") or "").endswith(" UTC"))
        self.assertRegex(first.text, r"^\d{1,2} [a-z]{3}\.? \d{4}, \d{1,2}:\d{2}\s[ap]\.\s?m\.$")

    def test_your_devices_signs_out_another_browser_while_it_is_open(self):
        other = self.open_browser()
        self.sign_in(driver=other)
        self.sign_in()
        self.driver.find_element(By.LINK_TEXT, "Your devices").click()
        # The devices page's own document, with its text (WebKit moves the address first: once
        # the page source read here was still Home's).
        self.wait_for_page("/devices", until=lambda d: "This device" in d.page_source)
        self.assertIn("This device", self.driver.page_source)
        self.screenshot("devices.png")
        buttons = self.driver.find_elements(By.XPATH, "//button[normalize-space()='Sign out']")
        self.assertEqual(len(buttons), 1)
        buttons[0].click()
        self.wait.until(lambda d: len(d.find_elements(By.XPATH, "//button[normalize-space()='Sign out']")) == 0)
        # The other browser, still open on Home, is signed out at its next request.
        other.refresh()
        self.wait_for_page("/login", driver=other)
        self.driver.get(self.server.url + "/home")
        self.assert_back_stays_home(self.driver)


if __name__ == "__main__":
    unittest.main()
