"""Your account (issue 37) in Chromium at 390 x 844 and in WebKit: the page from Home, changing
the number by keyboard (a code to the new number, then the account moves), the download, deleting
the account, and Spanish; reload and Back after each form; axe-core on every page.

Uses base.BrowserTestCase (the real binary, the browser of engines).
"""

import json
import unittest
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base

NEW_PHONE = "4155550100"


class AccountTests(base.BrowserTestCase):
    def open_account(self):
        """Home, then the Your account link (a tap), waits for the page."""
        self.driver.find_element(By.ID, "home-account").click()
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "account-phone"))

    def test_change_the_number_by_keyboard_then_reload_and_back_change_nothing(self):
        self.sign_in()
        self.open_account()
        self.assertEqual(self.driver.find_element(By.ID, "account-phone").text, "(530) 555-0123")
        self.assert_accessible("your-account.png")
        self.driver.find_element(By.ID, "account-change-phone").click()
        # Fresh from the sign-in's code: the form, focused.
        self.wait_for_page("/account/phone", until=lambda d: d.find_elements(By.ID, "phone"))
        self.assertEqual(self.active(), "phone")
        self.assert_accessible("account-phone-number.png")
        texts = len(self.server.outbox())
        self.type_keys(NEW_PHONE + Keys.ENTER)
        self.wait_for_page("/account/phone/code", until=lambda d: d.find_elements(By.ID, "code"))
        self.assertEqual(len(self.server.outbox()), texts + 1)
        self.assertEqual(self.server.outbox()[-1]["to"], "+1" + NEW_PHONE)
        self.assertEqual(self.active(), "code")
        self.assertIn("(415) 555-0100, your new number", self.driver.find_element(By.TAG_NAME, "label").text)
        self.assert_accessible("account-phone.png")
        # Reload of the code page sends nothing more.
        self.driver.refresh()
        self.wait_for_page("/account/phone/code", until=lambda d: d.find_elements(By.ID, "code"))
        self.assertEqual(len(self.server.outbox()), texts + 1)
        self.type_keys(self.server.last_code() + Keys.ENTER)
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "notice"))
        self.assertEqual(
            self.driver.find_element(By.ID, "notice").text,
            "Your number is now (415) 555-0100. We texted your old number to say so.")
        self.assertEqual(self.driver.find_element(By.ID, "account-phone").text, "(415) 555-0100")
        notice = self.server.outbox()[-1]
        self.assertEqual(notice["to"], "+15305550123")
        self.assertIn("(•••) •••-0100", notice["body"])
        self.assert_accessible("account-phone-changed.png")
        # Reload and Back: no second change, no text, never a code page that takes a code again.
        sent = len(self.server.outbox())
        self.driver.refresh()
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "account-phone"))
        self.back()
        self.wait.until(lambda d: d.find_elements(By.TAG_NAME, "h1"))
        self.assertEqual(len(self.server.outbox()), sent)
        self.assertFalse(self.driver.find_elements(By.ID, "account-phone-confirm"), "no code to take again")

    def test_download_then_delete_the_account(self):
        self.sign_in()
        self.open_account()
        self.driver.find_element(By.ID, "account-download").click()
        self.wait_for_page("/account/download", until=lambda d: d.find_elements(By.ID, "account-download-file"))
        self.assertEqual(
            self.driver.find_element(By.ID, "account-download-file").get_attribute("download"), "phone-login-data.json")
        self.assert_accessible("account-download.png")
        self.driver.find_element(By.ID, "account-download-back").click()
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "account-delete"))
        # The file itself, fetched with this browser's session as a download would be.
        session = self.driver.get_cookie("session")["value"]
        request = urllib.request.Request(self.server.url + "/account/data", headers={"Cookie": "session=" + session})
        with urllib.request.urlopen(request) as response:
            self.assertEqual(response.headers["Content-Disposition"], 'attachment; filename="phone-login-data.json"')
            data = json.loads(response.read())
        self.assertEqual(data["account"]["phone_number"], "+15305550123")
        self.assertNotIn(session, json.dumps(data))

        self.driver.find_element(By.ID, "account-delete").click()
        self.wait_for_page("/account/delete", until=lambda d: d.find_elements(By.ID, "account-delete-confirm"))
        self.assert_accessible("account-delete.png")
        self.driver.find_element(By.ID, "account-delete-confirm").click()
        self.wait_for_page("/login", until=lambda d: d.find_elements(By.ID, "notice"))
        self.assertEqual(self.driver.find_element(By.ID, "notice").text, "Your account was deleted.")
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "")
        self.assertIsNone(self.driver.get_cookie("session"))
        # Back goes nowhere signed in.
        self.back(stays=lambda path: path == "/login")
        self.driver.get(self.server.url + "/home")
        self.wait_for_page("/login")

    def test_recovery_codes_are_shown_once_with_a_file_to_save(self):
        self.sign_in()
        self.open_account()
        self.driver.find_element(By.ID, "account-recovery").click()
        self.wait_for_page("/account/recovery", until=lambda d: d.find_elements(By.ID, "recovery-make"))
        self.assert_accessible("account-recovery-none.png")
        self.driver.find_element(By.ID, "recovery-make").click()
        self.wait_for_page("/account/recovery", until=lambda d: d.find_elements(By.ID, "recovery-codes"))
        codes = [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
        self.assertEqual(len(codes), 10)
        self.assertEqual(self.active(), "notice")
        link = self.driver.find_element(By.ID, "recovery-download")
        self.assertTrue(link.get_attribute("href").startswith("data:text/plain;charset=utf-8,"))
        self.assertIn(codes[0], urllib.parse.unquote(link.get_attribute("href")))
        self.assert_accessible("account-recovery.png")
        # Back to the account: the codes are counted, never shown again.
        self.driver.find_element(By.ID, "recovery-back").click()
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "account-recovery"))
        self.assertIn("10 recovery codes left", self.driver.find_element(By.TAG_NAME, "main").text)
        self.assertNotIn(codes[0], self.driver.page_source)

    def test_in_spanish(self):
        self.sign_in()
        self.driver.get(self.server.url + "/account?lang=es")
        self.wait_for_page("/account", until=lambda d: d.find_elements(By.ID, "account-phone"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Su cuenta")
        self.assert_accessible("es-your-account.png")
        self.driver.get(self.server.url + "/account/delete")
        self.wait_for_page("/account/delete", until=lambda d: d.find_elements(By.ID, "account-delete-confirm"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "¿Eliminar su cuenta?")
        self.assert_accessible("es-account-delete.png")


if __name__ == "__main__":
    unittest.main()
