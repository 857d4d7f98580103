"""Passkeys (issue 27) as a person meets them.

In Chromium, with its virtual authenticator (WebDriver's WebAuthn extension: CTAP2, internal
transport, resident keys, user verification): a sign-in by text, then Home's offer creates a
passkey; after Log out, the phone field's own passkey suggestion (conditional mediation) signs in
with no new text, and Back stays Home; the button signs in where the browser has no suggestion;
`/devices` renames and removes it, and a removed passkey is refused on Login with a sentence.
axe-core on Login, Home with the offer and the devices page; screenshots for the README.

In WebKit, where `PublicKeyCredential` does not exist (a browser without passkeys): the same
app shows no passkey UI anywhere and signs in by text as before.

The app runs with --public-url http://localhost:PORT: an IP address is no WebAuthn RP ID.
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

import base
import engines
from base import free_port


class PasskeyServer(base.Server):
    """The app with passkeys on, reached as http://localhost:PORT."""

    def __init__(self):
        port = free_port()
        super().__init__(["--public-url", "http://localhost:%d" % port], port=port)
        self.url = "http://localhost:%d" % port


class PasskeyTests(base.BrowserTestCase):
    SERVER = PasskeyServer
    WAIT_SECONDS = 15

    def authenticator(self):
        options = VirtualAuthenticatorOptions(
            protocol="ctap2", transport="internal", has_resident_key=True, has_user_verification=True,
            is_user_verified=True)
        self.driver.add_virtual_authenticator(options)

    def sign_in_by_text(self, phone=base.PHONE):
        self.sign_in(phone, enter=True)

    def log_out(self, then="/login"):
        """Log out from Home; `then`: the address it ends on (Home again, when the passkey
        suggestion signs straight back in)."""
        if not self.driver.current_url.endswith("/home"):
            self.driver.get(self.server.url + "/home")
        before = self.driver.get_cookie("session")["value"]
        super().log_out(then)
        self.wait.until(lambda d: (d.get_cookie("session") or {}).get("value") != before)

    def visible(self, element_id):
        found = self.driver.find_elements(By.ID, element_id)
        return bool(found) and found[0].is_displayed()

    @unittest.skipIf(engines.WEBKIT, "WebKitGTK has no WebAuthn (nor a virtual authenticator)")
    def test_text_then_passkey_then_sign_in_with_no_text_then_remove(self):
        self.authenticator()
        self.sign_in_by_text()
        self.assertEqual(len(self.server.outbox()), 1)
        # Home offers it once, with "Not now".
        self.wait.until(lambda d: self.visible("passkey-offer"))
        self.assertTrue(self.visible("passkey-not-now"))
        self.assert_accessible("passkey-home-offer.png")
        self.driver.find_element(By.ID, "passkey-create").click()
        self.wait_for_page("/devices", until=lambda d: "Passkey added" in d.find_element(By.ID, "notice").text)
        self.assertIn("Passkey added", self.driver.find_element(By.ID, "notice").text)
        items = self.driver.find_elements(By.CSS_SELECTOR, ".passkey-item")
        self.assertEqual(len(items), 1)
        self.assertEqual(len(self.driver.get_credentials()), 1)
        self.driver.execute_script("document.getElementById('passkeys').scrollIntoView()")
        self.assert_accessible("passkey-devices.png")
        # Home offers no second one.
        self.driver.get(self.server.url + "/home")
        self.assertFalse(self.visible("passkey-offer"))

        # Log out: the phone field's own suggestion (the virtual authenticator answers it at once)
        # signs in, with no new text; Back never shows Login again.
        self.log_out(then="/home")
        self.assertEqual(len(self.server.outbox()), 1)
        for _ in range(2):
            self.back(stays=lambda path: path != "/login")
            self.assertFalse(self.driver.current_url.endswith("/login"), self.driver.current_url)

        # "Your devices": rename, then remove. Removing ends no sign-in.
        self.driver.get(self.server.url + "/devices")
        self.driver.find_element(By.CSS_SELECTOR, ".passkey-item summary").click()
        name = self.driver.find_element(By.CSS_SELECTOR, ".passkey-item input[name=name]")
        name.clear()
        name.send_keys("My phone", Keys.ENTER)
        self.wait.until(lambda d: "Passkey renamed" in d.find_element(By.ID, "notice").text)
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, ".passkey-item .name").text, "My phone")
        self.driver.find_element(By.XPATH, "//button[@aria-label='Remove My phone']").click()
        # Asked first, with where else to delete it.
        self.wait_for_page("/devices/passkeys/", prefix=True, until=lambda d: d.find_elements(By.ID, "remove-passkey"))
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Remove the passkey “My phone”?")
        self.assert_accessible("passkey-remove.png")
        self.driver.find_element(By.ID, "remove-passkey").click()
        self.wait.until(lambda d: "Passkey removed" in d.find_element(By.ID, "notice").text)
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".passkey-item")), 0)
        self.assertTrue(self.driver.current_url.endswith("/devices"))

        # The authenticator still holds it: on Login it is refused, with a sentence, and the text
        # still works.
        self.driver.get(self.server.url + "/home")
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Log out']").click()
        self.wait.until(lambda d: "We don't know this passkey" in d.find_element(By.TAG_NAME, "body").text)
        self.assertTrue(self.driver.current_url.endswith("/login/passkey"), self.driver.current_url)
        self.assertEqual(len(self.server.outbox()), 1)

    @unittest.skipIf(engines.WEBKIT, "WebKitGTK has no WebAuthn (nor a virtual authenticator)")
    def test_the_button_signs_in_where_the_browser_has_no_suggestion_and_not_now_is_kept(self):
        # A browser without conditional mediation: only the button.
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "delete PublicKeyCredential.isConditionalMediationAvailable;"})
        self.authenticator()
        self.sign_in_by_text()
        self.wait.until(lambda d: self.visible("passkey-offer"))
        self.driver.find_element(By.ID, "passkey-create").click()
        self.wait_for_page("/devices")
        self.log_out()
        self.wait.until(lambda d: self.visible("passkey-button"))
        self.assertTrue(self.driver.current_url.endswith("/login"))
        self.assert_accessible("passkey-login.png")
        button = self.driver.find_element(By.ID, "passkey-button")
        button.click()
        self.wait_for_page("/home")
        self.assertEqual(len(self.server.outbox()), 1)

        # Another person, by text: "Not now" hides the offer, and it stays hidden at the next
        # sign-in by text.
        self.log_out()
        self.driver.delete_all_cookies()
        self.driver.remove_all_credentials()
        self.sign_in_by_text("4155550199")
        self.wait.until(lambda d: self.visible("passkey-offer"))
        self.driver.find_element(By.ID, "passkey-not-now").click()
        self.wait_for_page("/home")
        self.wait.until(lambda d: not self.visible("passkey-offer"))
        self.log_out()
        # Another sign-in by text (not the remembered phone's, which sends no text).
        self.driver.delete_all_cookies()
        self.sign_in_by_text("4155550199")
        self.assertEqual(len(self.server.outbox()), 3)
        base.settle()  # passkeys.js would have shown the offer by now
        self.assertFalse(self.visible("passkey-offer"))
        self.assertEqual(len(self.driver.find_elements(By.ID, "passkey-offer")), 0)

    def test_a_browser_without_passkeys_sees_none_and_signs_in_by_text(self):
        if not engines.WEBKIT:
            # Chromium as a browser without WebAuthn.
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
                "source": "delete window.PublicKeyCredential;"})
        self.driver.get(self.server.url + "/login")
        base.settle()  # passkeys.js would have shown its box by now
        self.assertFalse(self.visible("passkey-signin"))
        self.assertFalse(self.visible("passkey-button"))
        self.assertEqual(self.driver.find_element(By.ID, "passkey-status").text, "")
        self.sign_in_by_text()
        base.settle()  # passkeys.js would have shown the offer by now
        self.assertFalse(self.visible("passkey-offer"))
        self.driver.get(self.server.url + "/devices")
        self.assertFalse(self.visible("passkeys"))  # nothing could be added here
        self.assertFalse(self.visible("passkey-add"))
        self.assert_accessible("passkey-devices-without-webauthn.png")


if __name__ == "__main__":
    unittest.main()
