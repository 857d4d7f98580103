"""The wallet's pages in a real browser on a phone, Chromium or WebKit (engines.py): a deposit and a
transfer that fit the screen with touch targets of 44 px, a refresh that never posts again, and an
error next to its field, which takes the focus (in a folded section opened again).

Uses base.BrowserTestCase (the real binary, the browser of engines). Run by ./scripts/browser-tests.
"""

import unittest

from selenium.webdriver.common.by import By

import base
import engines


class WalletPageBrowserTests(base.BrowserTestCase):
    def open_checking_next_to_savings(self):
        """Signs in, adds the accounts Checking and Savings, and opens Checking."""
        self.sign_in()
        for name in ["Checking", "Savings"]:
            self.driver.find_element(By.ID, "account-name").send_keys(name)
            self.driver.find_element(By.CSS_SELECTOR, "#add-account-form button").click()
            self.wait_for_page("/accounts/", prefix=True)
            self.driver.get(self.server.url + "/home")
        self.driver.find_element(By.LINK_TEXT, "Checking").click()
        self.wait.until(lambda d: d.find_element(By.ID, "account-name-heading").text == "Checking")

    def test_wallet_deposit_and_transfer_on_a_phone(self):
        self.open_checking_next_to_savings()
        self.driver.find_element(By.ID, "deposit-amount").send_keys("$1,250.75")
        self.driver.find_element(By.CSS_SELECTOR, "#deposit-form button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$1,250.75")
        self.driver.find_element(By.ID, "transfer-amount").send_keys("250.75")
        self.driver.find_element(By.CSS_SELECTOR, "#transfer-form button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$1,000.00")
        self.assertIn("Transferred $250.75.", self.driver.find_element(By.ID, "notice").text)
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"),
                             engines.width(self.driver))
        for element in self.driver.find_elements(By.CSS_SELECTOR, "button, input[type=text], select"):
            if element.is_displayed():
                self.assertGreaterEqual(element.size["height"], 44, element.get_attribute("outerHTML")[:80])
        self.screenshot("account.png")
        # Refresh after the transfer re-reads the page; it never posts the transfer again.
        self.driver.refresh()
        self.assertEqual(self.driver.find_element(By.ID, "balance").text, "$1,000.00")
        self.assertEqual(self.driver.find_element(By.ID, "notice").text, "")  # said once, not on reload
        self.driver.get(self.server.url + "/home")
        self.assertEqual(self.driver.find_element(By.ID, "total").text, "$1,250.75")
        self.screenshot("home.png")

    def test_a_wallet_error_is_next_to_its_field_which_takes_focus_in_an_open_section(self):
        self.open_checking_next_to_savings()

        def described(field):
            """The text of what the field's aria-describedby points at."""
            ids = (field.get_attribute("aria-describedby") or "").split()
            return " ".join(self.driver.find_element(By.ID, i).text for i in ids)

        # Withdraw more than the balance: the sentence is under Withdraw, not above Deposit.
        self.driver.find_element(By.ID, "withdraw-amount").send_keys("5")
        self.driver.find_element(By.CSS_SELECTOR, "#withdraw-form button").click()
        self.wait.until(lambda d: d.title.startswith("Error: "))
        self.assertEqual(self.active(), "withdraw-amount")
        field = self.driver.find_element(By.ID, "withdraw-amount")
        self.assertEqual(field.get_attribute("aria-invalid"), "true")
        self.assertEqual(described(field), "That is more than the balance of $0.00.")
        error = self.driver.find_element(By.ID, "withdraw-error")
        self.assertGreater(error.location["y"], field.location["y"])
        self.assertLess(error.location["y"], self.driver.find_element(By.ID, "history-heading").location["y"])
        self.assertEqual(self.driver.find_elements(By.ID, "deposit-error"), [])
        self.assertEqual(self.driver.find_element(By.ID, "deposit-amount").get_attribute("aria-invalid"), None)

        # Rename to a name taken: the folded section comes back open, its field focused.
        self.driver.get(self.server.url + "/accounts/1")
        self.driver.find_element(By.CSS_SELECTOR, "details.more summary").click()
        rename = self.driver.find_element(By.ID, "rename-input")
        rename.clear()
        rename.send_keys("savings")
        self.driver.find_element(By.CSS_SELECTOR, "details.more form button").click()
        self.wait.until(lambda d: d.title.startswith("Error: "))
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "details.more").get_attribute("open"), "true")
        self.assertEqual(self.active(), "rename-input")
        rename = self.driver.find_element(By.ID, "rename-input")
        self.assertTrue(rename.is_displayed())
        self.assertEqual(described(rename), "You already have an account with that name.")
        self.screenshot("account-error.png")


if __name__ == "__main__":
    unittest.main(verbosity=2)
