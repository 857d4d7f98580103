"""Login and Verify as a person on a phone meets them (issue 18): early taps, the keyboard, paste,
typing before the script has run, the returning person's buttons and the help when no code comes.
Every page at 320 px and 200% zoom, and axe-core on each in light and dark mode:
test_page_audits.py.

Uses base.BrowserTestCase (the real binary, and the browser of engines: Chromium at 390 x 844,
or WebKit at its narrowest).
"""

import re
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base
from engines import browser

# Paste into box one as a person's clipboard would, with form.submit() recorded instead of sent,
# and return the six boxes, what was submitted and the error line.
PASTE_SCRIPT = """
const form = document.getElementById('verify-form');
window.__sent = null;
form.submit = function () { window.__sent = Array.from(form.querySelectorAll('.otp-boxes input')).map(b => b.value).join(''); };
const data = new DataTransfer();
data.setData('text/plain', arguments[0]);
document.getElementById('d1').dispatchEvent(
    new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
return [window.__sent, document.getElementById('otp-error').textContent];
"""


class SignInFlowTests(base.BrowserTestCase):
    def test_verify_with_fewer_than_six_digits_says_so_and_counts_no_try(self):
        self.go_to_verify()
        self.type_keys("12")
        self.driver.find_element(By.ID, "verify-button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "otp-error").text == "Enter the 6-digit code")
        self.assertTrue(self.driver.current_url.endswith("/verify"))
        self.assertEqual(self.driver.find_element(By.ID, "d1").get_attribute("aria-invalid"), "true")
        self.assertEqual(self.active(), "d3")
        self.assertIn(self.server.failed_attempts(), (0, None))
        self.screenshot("verify-too-short.png")

    def test_keyboard_only_sign_in_tabs_out_of_the_boxes_to_verify(self):
        self.driver.get(self.server.url + "/login")
        self.assertEqual(self.active(), "phone")
        self.type_keys("5305550123")
        self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.active(), "next-button")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait_for_page("/verify")
        self.wait.until(lambda d: self.active() == "d1")
        code = self.server.last_code()
        self.type_keys(code[:5])
        self.assertEqual(self.active(), "d6")
        # Tab leaves the group: "Remember this phone", Verify, then (Resend waits out its
        # cooldown, so is skipped) the links.
        self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("name"), "remember")
        self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.active(), "verify-button")
        self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element.text, "Didn't get a code?")
        self.driver.switch_to.active_element.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element.text, "Use a different number")
        self.driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
        self.driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
        self.assertEqual(self.active(), "verify-button")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)  # five digits: said, not sent
        self.wait.until(lambda d: d.find_element(By.ID, "otp-error").text == "Enter the 6-digit code")
        self.driver.find_element(By.ID, "verify-button").send_keys(Keys.SHIFT, Keys.TAB)
        self.driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
        self.assertEqual(self.active(), "d6")
        self.type_code(code[5])
        self.assertIn(self.server.failed_attempts(), (0, None))

    def test_paste_takes_the_first_run_of_six_digits_and_never_guesses(self):
        self.go_to_verify()
        cases = [
            ("Your code is 123456. It expires in 10 minutes.", "123456"),
            ("123 456", "123456"),
            ("123-456", "123456"),
            ("Call 530 555 0123 about code 987654", "987654"),
        ]
        for pasted, sent in cases:
            self.driver.refresh()
            self.wait.until(lambda d: self.active() == "d1")
            self.assertEqual(self.driver.execute_script(PASTE_SCRIPT, pasted), [sent, ""], pasted)
        self.driver.refresh()
        self.wait.until(lambda d: self.active() == "d1")
        submitted, error = self.driver.execute_script(PASTE_SCRIPT, "Your code is 123 456 and 654321")
        self.assertIsNone(submitted)
        self.assertEqual(error, "That text has more than one code in it. Please type the 6-digit code.")
        self.assertEqual(self.values(), [""] * 6)
        # A run longer than a code is not cut down to one.
        self.driver.refresh()
        self.wait.until(lambda d: self.active() == "d1")
        submitted, error = self.driver.execute_script(PASTE_SCRIPT, "1234567")
        self.assertIsNone(submitted)
        self.assertEqual(error, "That number is longer than the 6-digit code. Please type the 6-digit code.")
        self.assertEqual(self.values(), [""] * 6)

    def test_digits_typed_before_the_script_runs_are_kept(self):
        # verify.js held back: the page shows, the person types into box one, then it arrives
        # (under its plain name, which is not held back).
        self.use(browser(hold_back=["verify"]))
        self.go_to_verify()
        code = self.server.last_code()
        self.driver.find_element(By.ID, "d1").send_keys(code[:4])
        self.assertEqual(self.driver.find_element(By.ID, "d1").get_attribute("value"), code[:4])
        self.assertEqual(self.driver.execute_script("return document.getElementById('d2').tabIndex"), 0)
        self.driver.execute_script(
            "const s = document.createElement('script'); s.src = '/public/verify.js'; document.head.appendChild(s);")
        self.wait.until(lambda d: "".join(self.values()) == code[:4])
        self.assertEqual(self.active(), "d5")
        self.type_code(code[4:])

    def test_didnt_get_a_code_leads_to_help_with_or_without_javascript(self):
        for javascript in [True, False]:
            if not javascript:
                self.server = self.start_server()
                self.use(browser(javascript=False))
            self.go_to_verify("4155550199", enter=True)
            # Keyboard Enter on the link: chromedriver's click() hangs when scripts are off.
            self.driver.find_element(By.ID, "no-code").send_keys(Keys.ENTER)
            self.wait_for_page("/verify/help")
            self.assertEqual(self.driver.find_element(By.ID, "last-text").text,
                             "We texted a code to (415) 555-0199 less than a minute ago.")
            when = self.driver.find_element(By.ID, "resend-when")
            self.assertRegex(when.text, r"^If it still hasn't come, you can try again in ([1-9]|[12][0-9]|30) seconds?\.$")
            if javascript:  # countdown.js moves the number on
                first = when.text
                self.wait.until(lambda d: d.find_element(By.ID, "resend-when").text != first)
            self.screenshot("verify-help%s.png" % ("" if javascript else "-no-javascript"))
            self.driver.find_element(By.ID, "back-to-code").send_keys(Keys.ENTER)
            self.wait_for_page("/verify", until=lambda d: len(d.find_elements(By.ID, "d1")) == 1)
            self.assertEqual(len(self.driver.find_elements(By.ID, "d1")), 1)

    def test_not_you_keeps_its_label_when_next_is_pressed(self):
        self.sign_in()
        # The session ends by itself: Login fills in the number, with "Not you?".
        self.driver.delete_cookie("session")
        self.go_to_login()
        state = self.driver.execute_script(
            """
            const form = document.getElementById('login-form');
            form.addEventListener('submit', event => event.preventDefault());
            form.requestSubmit(document.getElementById('next-button'));
            return [document.getElementById('forget-button').textContent,
                    document.getElementById('forget-button').disabled,
                    document.getElementById('next-button').textContent];
            """)
        self.assertEqual(state, ["Use another number", False, "Sending\u2026"])

    def test_plus_one_and_a_leading_one_format_while_typing(self):
        self.driver.get(self.server.url + "/login")
        phone = self.driver.find_element(By.ID, "phone")
        for typed, shown in [("+1 530-555-01", "+1 (530) 555-01"), ("1530555", "+1 (530) 555"),
                             ("5305550123", "(530) 555-0123")]:
            phone.clear()
            phone.send_keys(typed)
            self.assertEqual(phone.get_attribute("value"), shown, typed)

    def test_resend_counts_down_in_minutes_and_seconds_and_verify_says_how_long_the_code_lasts(self):
        self.go_to_verify()
        resend = self.driver.find_element(By.ID, "resend-button")
        self.assertRegex(resend.text, r"^Resend code \(0:(30|29|28)\)$")
        first = resend.text
        self.wait.until(lambda d: d.find_element(By.ID, "resend-button").text != first)
        self.assertEqual(self.driver.find_element(By.ID, "otp-hint").text, "The code expires in 10 minutes.")

    def test_a_wrong_code_is_an_error_in_the_title_and_the_boxes(self):
        self.go_to_verify()
        self.type_keys(self.wrong_code())
        self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)
        self.assertTrue(self.driver.title.startswith("Error: "), self.driver.title)
        self.assertEqual(self.driver.find_element(By.ID, "d1").get_attribute("aria-invalid"), "true")
        self.screenshot("verify-wrong-code.png")
        # Reload shows Verify again, never a form to resubmit or a 405.
        self.driver.refresh()
        self.assertEqual(len(self.driver.find_elements(By.ID, "d1")), 1)

    def test_a_refused_number_is_summed_up_at_the_top_and_the_summary_takes_focus(self):
        self.driver.get(self.server.url + "/login")
        self.driver.find_element(By.ID, "phone").send_keys("12")
        self.driver.find_element(By.ID, "next-button").click()
        self.wait.until(lambda d: self.active() == "error-summary")
        self.assertTrue(self.driver.title.startswith("Error: "), self.driver.title)
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("aria-invalid"), "true")
        summary = self.driver.find_element(By.ID, "error-summary")
        self.assertEqual(summary.accessible_name, "There is a problem")
        summary.find_element(By.TAG_NAME, "a").click()
        self.assertEqual(self.active(), "phone")
        self.screenshot("login-error.png")

    def test_the_icon_is_ours_so_no_first_visit_asks_for_a_missing_favicon(self):
        self.driver.get(self.server.url + "/login")
        icon = self.driver.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href")
        status = self.driver.execute_script(
            "return fetch(arguments[0]).then(r => [r.status, r.headers.get('Content-Type')])", icon)
        self.assertEqual(status, [200, "image/svg+xml"])

    def test_a_limit_in_minutes_counts_down_to_try_again_now(self):
        self.server = self.start_server(["--max-sign-ins-per-client", "1"])
        self.go_to_verify()
        # Another sign-in from this network, in a fresh browser session: over the limit.
        self.driver.delete_all_cookies()
        self.go_to_login()
        self.enter_phone("4155550199")
        # The window is an hour from the first sign-in, so the wait left is just under an hour:
        # "1 hour" within a second of it, "60 minutes" after (a loaded machine may take longer
        # than a second between the two sign-ins). The end the page counts to is that hour's end.
        self.wait.until(lambda d: re.search(r"Please try again in (1 hour|60 minutes)\.$",
                                            d.find_element(By.ID, "phone-error").text))
        left = int(self.driver.find_element(By.ID, "phone-error").get_attribute("data-retry-at")) - time.time()
        self.assertTrue(3600 - 60 < left <= 3600 + 2, left)
        # The number follows the end time the server gave, as the clock moves (the end is
        # brought near here rather than waiting an hour).
        move_end = "for (const e of document.querySelectorAll('[data-retry-at]'))" \
            " e.setAttribute('data-retry-at', String(Math.ceil(Date.now() / 1000) + arguments[0]));"
        self.driver.execute_script(move_end, 150)
        self.wait.until(lambda d: "Please try again in 3 minutes." in d.find_element(By.ID, "phone-error").text)
        self.driver.execute_script(move_end, 3)
        self.wait.until(lambda d: "Please try again in " in d.find_element(By.ID, "phone-error").text
                        and " second" in d.find_element(By.ID, "phone-error").text)
        self.wait.until(lambda d: d.find_element(By.ID, "phone-error").text.endswith("Please try again now."))
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "#error-summary a").text.endswith("try again now."))
        # Silent updates: the alert is not read out again at every tick.
        self.assertEqual(self.driver.find_element(By.ID, "phone-error").get_attribute("aria-live"), "off")


if __name__ == "__main__":
    unittest.main(verbosity=2)
