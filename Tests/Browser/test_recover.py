"""Lost your phone or number? (issue 38) in Chromium at 390 x 844 and in WebKit: Home's offer of
recovery codes, then, in a browser that has nothing of the account, Login's link, the old number
and a recovery code, a new number and its code, by keyboard; Back after it; a wrong try and
Spanish; axe-core on every page.

Uses base.BrowserTestCase (the real binary, the browser of engines).
"""

import os
import sqlite3
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base

NEW_PHONE = "4155550100"


class RecoverTests(base.BrowserTestCase):
    def make_codes(self):
        """Signed in: Home's offer, then its link makes the codes; returns them."""
        self.sign_in()
        offer = self.driver.find_element(By.ID, "recovery-offer")
        self.assertIn("if you lose this number", offer.text)
        self.assert_accessible("home-recovery-offer.png")
        self.driver.find_element(By.ID, "recovery-offer-make").click()
        self.wait_for_page("/account/recovery", until=lambda d: d.find_elements(By.ID, "recovery-make"))
        self.driver.find_element(By.ID, "recovery-make").click()
        self.wait_for_page("/account/recovery", until=lambda d: d.find_elements(By.ID, "recovery-codes"))
        self.assertTrue(self.driver.find_element(By.ID, "recovery-print").is_displayed(), "Print, where a script can")
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]

    def test_recover_by_keyboard_onto_a_new_number(self):
        codes = self.make_codes()
        # A new phone: nothing of the account in this browser.
        self.driver.delete_all_cookies()
        self.go_to_login()
        self.driver.find_element(By.ID, "lost-number").click()
        self.wait_for_page("/recover", until=lambda d: d.find_elements(By.ID, "recover-form"))
        self.assertEqual(self.active(), "phone")
        self.assert_accessible("recover.png")
        self.type_keys(base.PHONE + Keys.TAB + codes[0].lower() + Keys.ENTER)
        self.wait_for_page("/recover/phone", until=lambda d: d.find_elements(By.ID, "recover-phone-form"))
        self.assertEqual(
            self.driver.find_element(By.ID, "notice").text, "Recovery code accepted. You have 9 codes left.")
        self.assertEqual(self.active(), "phone")
        self.assert_accessible("recover-new-number.png")
        self.type_keys(NEW_PHONE + Keys.ENTER)
        self.wait_for_page("/recover/code", until=lambda d: d.find_elements(By.ID, "recover-code-form"))
        self.assertEqual(self.server.outbox()[-1]["to"], "+1" + NEW_PHONE)
        self.assertEqual(self.active(), "code")
        self.assert_accessible("recover-code.png")
        self.type_keys(self.server.last_code() + Keys.ENTER)
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "notice"))
        self.assertIn("Your number is now (415) 555-0100.", self.driver.find_element(By.ID, "notice").text)
        self.assertIn("9 recovery codes left", self.driver.find_element(By.TAG_NAME, "main").text)
        self.assertEqual(self.server.outbox()[-1]["to"], "+1" + base.PHONE)
        self.assert_accessible("recover-done.png")
        # Back: never a recovery page that takes a code again.
        sent = len(self.server.outbox())
        self.back()
        self.wait.until(lambda d: d.find_elements(By.TAG_NAME, "h1"))
        self.assertFalse(self.driver.find_elements(By.ID, "recover-confirm"), "no code to take again")
        self.assertEqual(len(self.server.outbox()), sent)

    def test_a_wrong_try_in_spanish(self):
        self.driver.get(self.server.url + "/recover?lang=es")
        self.wait_for_page("/recover", until=lambda d: d.find_elements(By.ID, "recover-form"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "¿Perdió su teléfono o su número?")
        self.type_keys(base.PHONE + Keys.TAB + "0000-0000-00" + Keys.ENTER)
        self.wait.until(lambda d: d.find_element(By.ID, "recover-error").text)
        self.assertIn("no van juntos", self.driver.find_element(By.ID, "recover-error").text)
        self.assertTrue(self.driver.title.startswith("Error"), self.driver.title)
        self.assert_accessible("es-recover-wrong.png")


class DormantNumberTests(base.BrowserTestCase):
    """The recycled-number guard: the account's number is made to look 100 days quiet through the
    database (no waiting), then its right code asks "Is this your account?"."""

    def age_number(self, phone, days):
        sql = "UPDATE %susers SET number_proved_at = number_proved_at - %d WHERE phone = '+1%s'"
        if self.server.database_url:
            # The test's own schema (the app's tables live there, not in public).
            self.server.psql(sql % (self.server.schema + ".", days * 86400, phone))
        else:
            sql = sql % ("", days * 86400, phone)
            with sqlite3.connect(os.path.join(self.server.data, "webapp.sqlite")) as db:
                db.execute(sql)

    def test_a_new_holder_of_the_number_starts_afresh_by_keyboard(self):
        self.sign_in()
        self.log_out()
        self.age_number(base.PHONE, 100)
        self.driver.delete_all_cookies()
        self.go_to_verify()
        self.type_code(self.server.last_code(), then="/claim")
        self.wait_for_page("/claim", until=lambda d: d.find_elements(By.ID, "claim-fresh"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Is this your account?")
        self.assertIn("no recovery code and no passkey", self.driver.find_element(By.ID, "claim-no-way").text)
        self.assert_accessible("claim.png")
        # Back and reload: still the question, never the account.
        self.driver.refresh()
        self.wait_for_page("/claim", until=lambda d: d.find_elements(By.ID, "claim-fresh"))
        self.driver.find_element(By.ID, "claim-fresh").send_keys(Keys.ENTER)
        self.wait_for_page("/home", until=lambda d: d.find_elements(By.ID, "signed-in-phone"))
        self.assert_accessible("claim-fresh-home.png")

    def test_in_spanish(self):
        self.sign_in()
        self.log_out()
        self.age_number(base.PHONE, 100)
        self.driver.delete_all_cookies()
        self.driver.get(self.server.url + "/login?lang=es")
        self.go_to_verify()
        self.type_code(self.server.last_code(), then="/claim")
        self.wait_for_page("/claim", until=lambda d: d.find_elements(By.ID, "claim-fresh"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "¿Es esta su cuenta?")
        self.assert_accessible("es-claim.png")


if __name__ == "__main__":
    unittest.main()
