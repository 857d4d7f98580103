"""When the text doesn't come (issue 26), as a person meets it in both engines: a text reported
undelivered shows up on Verify without a reload (delivery.js) and offers the call; without
JavaScript a reload shows the same; the help page's call works from the outbox too.

The app sends through the fake Twilio of Tests/Delivery (callbacks signed by twilio's own
validator), with --public-url its own address.
"""

import json
import os
import sys
import unittest
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base
from engines import browser

sys.path.insert(0, os.path.join(base.ROOT, "Tests", "Delivery"))
import fake_twilio  # noqa: E402


class DeliveryTests(base.BrowserTestCase):
    # A text's news comes from the fake Twilio's callbacks: more time than a page of our own.
    WAIT_SECONDS = 15

    def setUp(self):
        """Nothing yet: each test starts its server and browser with start()."""

    def start(self, twilio=True, javascript=True):
        if twilio:
            self.twilio = fake_twilio.FakeTwilio()
            self.addCleanup(self.twilio.stop)
            port = base.free_port()
            self.server = self.start_server(
                options=["--sms", "twilio", "--public-url", "http://127.0.0.1:%d" % port],
                env=self.twilio.environment(), port=port)
        else:
            self.server = self.start_server()
        self.use(browser(javascript=javascript))

    def go_to_verify(self):
        super().go_to_verify(enter=True)

    def test_an_undelivered_text_shows_on_verify_without_a_reload_and_the_call_signs_in(self):
        self.start()
        self.go_to_verify()
        problem = self.driver.find_element(By.ID, "delivery-problem")
        self.assertFalse(problem.is_displayed())
        self.driver.find_element(By.ID, "d1").send_keys("1")  # a digit typed before the news
        self.assertEqual(self.twilio.report(self.twilio.last(), "undelivered", "30003"), 204)
        self.wait.until(lambda d: d.find_element(By.ID, "delivery-problem").is_displayed())
        # The alert is filled just after its box is shown (so screen readers announce it).
        self.wait.until(lambda d: d.find_element(By.ID, "delivery-status").text
                        == "We couldn't deliver the text to (530) 555-0123.")
        self.assertEqual(self.driver.find_element(By.ID, "d1").get_attribute("value"), "1")  # nothing lost
        # The wait is lifted with it: a new text can be asked for at once too.
        self.wait.until(lambda d: d.find_element(By.ID, "resend-button").is_enabled())
        self.assertEqual(self.driver.find_element(By.ID, "resend-button").text, "Resend code")
        call = self.driver.find_element(By.ID, "call-button")
        self.assertTrue(call.is_displayed())
        self.assert_accessible("verify-undelivered.png")
        call.click()
        self.wait.until(lambda d: "We're calling (530) 555-0123 now" in d.find_element(By.ID, "notice").text)
        placed = self.twilio.last()
        self.assertEqual(placed.resource, "Calls")
        self.driver.find_element(By.ID, "d1").clear()
        self.driver.find_element(By.ID, "d1").click()
        self.type_code(placed.code())

    def test_without_javascript_a_reload_shows_the_undelivered_text_and_the_call(self):
        self.start(javascript=False)
        self.go_to_verify()
        self.assertEqual(self.twilio.report(self.twilio.last(), "failed", "30006"), 204)
        self.driver.refresh()
        self.wait.until(lambda d: d.find_element(By.ID, "delivery-problem").is_displayed())
        self.assertEqual(self.driver.find_element(By.ID, "delivery-status").text,
                         "We couldn't send a text to (530) 555-0123.")
        # Keyboard Enter: chromedriver's click() hangs when scripts are off.
        self.driver.find_element(By.ID, "call-button").send_keys(Keys.ENTER)
        self.wait.until(lambda d: "We're calling" in d.find_element(By.ID, "notice").text)
        self.assertEqual(self.twilio.last().resource, "Calls")

    def test_the_help_page_says_what_twilio_reported_and_follows_it(self):
        self.start()
        self.go_to_verify()
        self.driver.find_element(By.ID, "no-code").send_keys(Keys.ENTER)
        self.wait_for_page("/verify/help", until=lambda d: d.find_element(By.ID, "delivery-status").text
                           == "Your text is on its way.")
        self.assertEqual(self.driver.find_element(By.ID, "delivery-status").text, "Your text is on its way.")
        self.assertEqual(self.twilio.report(self.twilio.last(), "delivered"), 204)
        self.wait.until(lambda d: d.find_element(By.ID, "delivery-status").text.startswith(
            "Your phone received the text"))
        self.assert_accessible("verify-help-delivered.png")

    def test_call_me_instead_from_the_help_page_with_the_outbox(self):
        self.start(twilio=False)
        self.go_to_verify()
        self.driver.find_element(By.ID, "no-code").send_keys(Keys.ENTER)
        call_what = "We'll call (530) 555-0123 and read a new code out twice. Any code we sent before will stop working."
        self.wait_for_page("/verify/help", until=lambda d: d.find_element(By.ID, "call-what").text == call_what)
        self.assertEqual(self.driver.find_element(By.ID, "call-what").text, call_what)
        # Tapped during the cooldown: Verify says how long to wait, and the text's code still works.
        self.driver.find_element(By.ID, "call-button").click()
        self.wait.until(lambda d: "before asking for a call" in d.find_element(By.ID, "otp-error").text)
        self.assertEqual(len(self.server.outbox()), 1)
        # Once the wait is over, the call goes out and its code signs in.
        self.driver.get(self.server.url + "/verify/help")
        self.waiter(timeout=40).until(
            lambda d: d.find_element(By.ID, "resend-when").text == "If it still hasn't come, ask for a new one."
            or "try again now" in d.find_element(By.ID, "resend-when").text)
        self.driver.find_element(By.ID, "call-button").click()
        self.wait.until(lambda d: "We're calling" in d.find_element(By.ID, "notice").text)
        self.assertEqual(self.server.outbox()[-1]["channel"], "voice")
        self.driver.find_element(By.ID, "d1").click()
        self.type_code(self.server.last_code())

    def test_texts_failing_login_offers_the_call_and_the_call_signs_in(self):
        """Twilio answers 500 for texts (issue 41): Login says so, keeps the number, and offers
        the call, which is placed and whose code signs in. Enter in the field still means Next."""
        self.start()
        self.twilio.failing["Messages"] = 500
        self.go_to_login()
        self.enter_phone(enter=True)
        self.wait.until(lambda d: "We couldn't send the text message" in d.find_element(By.ID, "phone-error").text)
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "(530) 555-0123")
        self.assertEqual(self.twilio.attempts["Calls"], 0)  # Enter was Next, not the call
        call = self.driver.find_element(By.ID, "call-instead-button")
        self.assertEqual(call.text, "Call me with the code instead")
        self.assert_accessible("login-text-failed.png")
        call.click()
        self.wait_for_page("/verify")
        placed = self.twilio.last()
        self.assertEqual(placed.resource, "Calls")
        self.driver.find_element(By.ID, "d1").click()
        self.type_code(placed.code())

    def test_texts_paused_without_javascript_the_call_still_goes(self):
        """After three failures texts pause: Login says when to try again, without asking Twilio,
        and the call (keyboard, scripts off) goes."""
        self.start(javascript=False)
        self.twilio.failing["Messages"] = 500
        for index in range(3):
            self.app_api_send("(530) 555-01%02d" % (10 + index))
        asked = self.twilio.attempts["Messages"]
        self.go_to_login()
        self.enter_phone(enter=True)
        self.wait.until(lambda d: "aren't going through" in d.find_element(By.ID, "phone-error").text)
        self.assertIn("try again in 30 seconds", self.driver.find_element(By.ID, "phone-error").text)
        self.assertEqual(self.twilio.attempts["Messages"], asked)
        self.screenshot("login-texts-paused.png")  # axe needs scripts: the page with them is checked above
        self.driver.find_element(By.ID, "call-instead-button").send_keys(Keys.ENTER)
        self.wait_for_page("/verify")
        self.assertEqual(self.twilio.last().resource, "Calls")

    def app_api_send(self, phone):
        """Asks for a text through the JSON API (its answer does not matter here)."""
        request = urllib.request.Request(
            self.server.url + "/api/v1/verifications", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"phone_number": phone}).encode())
        try:
            urllib.request.urlopen(request, timeout=30).read()
        except urllib.error.HTTPError as error:
            error.read()


if __name__ == "__main__":
    unittest.main()
