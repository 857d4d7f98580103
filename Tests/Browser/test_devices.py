"""The returning phone and "Your devices" (issue 15) in Chromium at 390 x 844 and in WebKit: the remembered
phone goes straight to Home with no text, the box is usable by keyboard, the devices page signs
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

    def test_a_remembered_phone_goes_straight_home_with_no_text_and_back_stays_home(self):
        self.go_to_verify()
        box = self.driver.find_element(By.NAME, "remember")
        self.assertTrue(box.is_selected())
        self.screenshot("verify-remember.png")
        self.type_code()
        self.assertIsNotNone(self.driver.get_cookie("device"))
        self.log_out()
        # The number is filled in; Next goes straight to Home, and no second text is sent.
        self.driver.find_element(By.ID, "next-button").click()
        self.wait_for_page("/home")
        self.assertEqual(len(self.server.outbox()), 1)
        self.assert_back_stays_home(self.driver)

    def test_the_box_is_reached_and_unticked_with_the_keyboard_and_then_nothing_is_remembered(self):
        self.go_to_verify()
        box = self.driver.find_element(By.NAME, "remember")
        label = box.find_element(By.XPATH, "./..")
        self.assertEqual(label.text.strip(), "Remember this phone for 30 days")
        self.assertGreaterEqual(label.size["height"], 44)
        # Tab from the boxes reaches it; Space unticks it.
        self.driver.find_element(By.ID, "d1").click()
        for _ in range(6):
            if self.driver.switch_to.active_element.get_attribute("name") == "remember":
                break
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("name"), "remember")
        self.driver.switch_to.active_element.send_keys(Keys.SPACE)
        self.assertFalse(box.is_selected())
        self.driver.find_element(By.ID, "d1").click()
        self.type_code()
        self.assertIsNone(self.driver.get_cookie("device"))

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
