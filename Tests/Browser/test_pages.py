"""The Login and Verify pages in a real browser, Chromium or WebKit (engines.py), driven by Selenium.
The wallet's pages on a phone: test_wallet_pages.py.

Each test starts the built `webapp` binary on a free port with its own data folder, so the
tests see exactly what a person would (base.py). Run by ./scripts/test (see ./scripts/browser-tests).
"""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base
import engines
from engines import browser, WEBKIT


class PageTests(base.BrowserTestCase):
    def test_login_formats_and_fits_a_phone_screen(self):
        self.driver.get(self.server.url + "/login")
        phone = self.driver.find_element(By.ID, "phone")
        phone.send_keys("5305550123")
        self.assertEqual(phone.get_attribute("value"), "(530) 555-0123")
        self.assertEqual(phone.get_attribute("type"), "tel")
        self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"),
                             engines.width(self.driver))
        self.screenshot("login.png")

    def test_typing_advances_tap_elsewhere_backspace(self):
        self.go_to_verify()
        self.assertEqual(self.active(), "d1")
        for digit in "12":
            self.driver.switch_to.active_element.send_keys(digit)
        self.assertEqual(self.values(), ["1", "2", "", "", "", ""])
        self.assertEqual(self.active(), "d3")
        self.box(5).click()  # tapping box 5 while box 3 is next
        self.assertEqual(self.active(), "d3")
        self.driver.switch_to.active_element.send_keys("x")  # not a digit: ignored
        self.assertEqual(self.values(), ["1", "2", "", "", "", ""])
        self.driver.switch_to.active_element.send_keys(Keys.BACKSPACE)
        self.assertEqual(self.values(), ["1", "", "", "", "", ""])
        self.assertEqual(self.active(), "d2")

    def test_paste_fills_all_six(self):
        self.go_to_verify()
        # A wrong code, so the page stays and the result can be inspected.
        wrong = self.wrong_code()
        pasted = wrong[:3] + " " + wrong[3:]
        self.driver.execute_script(
            """
            const data = new DataTransfer();
            data.setData('text/plain', arguments[0]);
            document.getElementById('d1').dispatchEvent(
                new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
            """, pasted)
        self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)
        self.assertEqual(self.server.failed_attempts(), 1)

    def test_autofill_fills_all_six_and_submits_once(self):
        self.go_to_verify()
        wrong = self.wrong_code()
        # Autofill drops the whole code into box one in one go; then the person also hits Enter.
        self.driver.execute_script(
            """
            const box = document.getElementById('d1');
            box.value = arguments[0];
            box.dispatchEvent(new Event('input', {bubbles: true}));
            box.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
            document.getElementById('verify-form').requestSubmit && document.getElementById('verify-form').requestSubmit();
            """, wrong)
        self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)
        base.settle()  # a second submit would have counted by now
        self.assertEqual(self.server.failed_attempts(), 1)

    def test_wrong_code_clears_boxes_then_right_code_and_back_button(self):
        self.go_to_verify()
        code = self.server.last_code()
        wrong = self.wrong_code()
        for digit in wrong:
            self.driver.switch_to.active_element.send_keys(digit)
        self.wait.until(lambda d: "Incorrect verification code" in d.find_element(By.ID, "otp-error").text)
        self.assertEqual(self.values(), [""] * 6)
        self.assertEqual(self.active(), "d1")
        error = self.driver.find_element(By.ID, "otp-error")
        self.assertEqual(error.get_attribute("role"), "alert")
        self.screenshot("verify-error.png")
        self.type_code(code, then=None)
        self.wait_for_page("/home", until=lambda d: "(530) 555-0123" in d.find_element(By.ID, "signed-in-phone").text)
        self.assertIn("(530) 555-0123", self.driver.find_element(By.ID, "signed-in-phone").text)
        self.screenshot("home-new.png")
        for _ in range(3):
            self.back(stays=lambda path: path == "/home")
            self.assertTrue(self.driver.current_url.endswith("/home"), self.driver.current_url)
            self.assertEqual(len(self.driver.find_elements(By.ID, "d1")), 0)
            self.assertEqual(len(self.driver.find_elements(By.ID, "phone")), 0)

    def test_last_number_is_filled_in_on_return(self):
        self.sign_in()
        # Log out on a phone that is not remembered forgets the number (the next person sees an
        # empty Login) ...
        self.driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        self.wait_for_page("/login")
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "")
        # ... while a session that ended by itself leaves it filled in on return.
        self.sign_in()
        self.driver.delete_cookie("session")
        self.go_to_login()
        self.assertEqual(self.driver.find_element(By.ID, "phone").get_attribute("value"), "(530) 555-0123")
        # The number lives in an HttpOnly cookie: page scripts cannot read it.
        self.assertNotIn("555", self.driver.execute_script("return document.cookie"))
        self.driver.find_element(By.ID, "forget-button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "phone").get_attribute("value") == "")
        self.assertEqual(len(self.driver.find_elements(By.ID, "forget-button")), 0)

    def test_whole_sign_in_works_without_javascript(self):
        self.use(browser(javascript=False))
        self.driver.get(self.server.url + "/login")
        phone = self.driver.find_element(By.ID, "phone")
        phone.send_keys("5305550123")
        self.assertEqual(phone.get_attribute("value"), "5305550123")  # no script formatted it
        # Buttons are pressed with the keyboard here: chromedriver's click() waits for the
        # navigation with a script of its own, which hangs when scripts are off.
        self.driver.find_element(By.CSS_SELECTOR, "#login-form button").send_keys(Keys.ENTER)
        self.wait_for_page("/verify")
        code = self.server.last_code()
        # Without the script the cursor does not advance: tap each box, then press Verify.
        wrong = self.wrong_code()
        for index, digit in enumerate(wrong, start=1):
            self.box(index).send_keys(digit)
        self.driver.find_element(By.ID, "verify-button").send_keys(Keys.ENTER)
        self.wait.until(lambda d: "Incorrect verification code" in d.find_element(By.ID, "otp-error").text)
        self.assertEqual(self.values(), [""] * 6)
        for index, digit in enumerate(code, start=1):
            self.box(index).send_keys(digit)
        self.driver.find_element(By.ID, "verify-button").send_keys(Keys.ENTER)
        self.wait_for_page("/home", until=lambda d: "(530) 555-0123" in d.find_element(By.ID, "signed-in-phone").text)
        self.assertIn("(530) 555-0123", self.driver.find_element(By.ID, "signed-in-phone").text)

    def test_accessible_names_touch_targets_and_resend_wait(self):
        self.go_to_verify()
        group = self.driver.find_element(By.CSS_SELECTOR, "fieldset.otp")
        self.assertEqual(group.aria_role, "group")
        self.assertEqual(group.accessible_name, "Enter the 6-digit code we sent to (530) 555-0123")
        self.assertEqual(group.get_attribute("aria-describedby"), "otp-hint otp-error")
        for index in range(1, 7):
            box = self.box(index)
            self.assertEqual(box.accessible_name, "Digit %d of 6" % index)
            self.assertEqual(box.get_attribute("inputmode"), "numeric")
            self.assertIsNone(box.get_attribute("maxlength"))  # would cut autofill off
        self.assertEqual(self.box(1).get_attribute("autocomplete"), "one-time-code")
        # Touch targets at least 44 CSS px tall; the sixth box clear of the card's right edge,
        # where password managers put their badge.
        for element in self.driver.find_elements(By.CSS_SELECTOR, "button, .otp-boxes input, .back a"):
            self.assertGreaterEqual(element.size["height"], 44, element.get_attribute("outerHTML")[:80])
        last = self.box(6).rect
        boxes = self.driver.find_element(By.CSS_SELECTOR, ".otp-boxes").rect
        self.assertGreaterEqual(boxes["x"] + boxes["width"] - (last["x"] + last["width"]), 24)
        # The resend button is there from the start and shows the cooldown.
        resend = self.driver.find_element(By.ID, "resend-button")
        self.assertTrue(resend.is_displayed())
        self.assertRegex(resend.text, r"Resend code \(0:(30|29|28)\)")
        self.assertIsNotNone(resend.get_attribute("disabled"))
        # A visible focus ring, reached with the keyboard: Tab from the boxes to Verify.
        for _ in range(4):
            if self.active() == "verify-button":
                break
            engines.tab(self.driver)
        self.assertEqual(self.active(), "verify-button")
        outline = self.driver.execute_script(
            "return getComputedStyle(document.activeElement).outlineStyle")
        self.assertEqual(outline, "solid")

    def test_text_contrast_passes_wcag_aa_in_light_and_dark(self):
        for scheme in ["light", "dark"]:
            if scheme == "dark":
                self.use(browser(scheme="dark"))
                self.go_to_verify(phone="4155550199")
            else:
                self.go_to_verify()
            self.assertEqual(self.driver.execute_script(
                "return matchMedia('(prefers-color-scheme: dark)').matches"), scheme == "dark")
            self.driver.execute_script(
                "document.getElementById('otp-error').textContent = 'Incorrect verification code'")
            ratios = self.driver.execute_script(CONTRAST_SCRIPT)
            self.assertTrue(ratios, "no text measured")
            for selector, ratio in ratios:
                self.assertGreaterEqual(ratio, 4.5, "%s in %s mode: %.2f" % (selector, scheme, ratio))
            self.screenshot("verify-%s.png" % scheme)

    def test_login_button_is_busy_and_cannot_submit_twice(self):
        self.driver.get(self.server.url + "/login")
        self.driver.find_element(By.ID, "phone").send_keys("5305550123")
        state = self.driver.execute_script(
            """
            const form = document.getElementById('login-form');
            const button = form.querySelector('button[type=submit]');
            let submits = 0;
            form.addEventListener('submit', event => { if (!event.defaultPrevented) submits++; });
            form.requestSubmit();
            const first = [button.disabled, button.getAttribute('aria-busy'), button.textContent];
            form.requestSubmit();  // a second press while the first request runs
            return first.concat([submits]);
            """)
        self.assertEqual(state, [True, "true", "Sending\u2026", 1])
        self.wait_for_page("/verify")
        self.assertEqual(len(self.server.outbox()), 1)

    @unittest.skipIf(WEBKIT, "WebOTP is Chrome on Android's API alone (Safari fills the code by autofill from "
                     "Messages instead, which test_autofill_fills_all_six_and_submits_once and "
                     "test_the_code_autofilled_into_whichever_box_has_the_cursor_fills_all_six_and_is_sent_once "
                     "check in WebKit), and the stand-in is "
                     "installed through Chromium's DevTools")
    def test_webotp_fills_and_submits_and_is_aborted_by_typing(self):
        # A stand-in for Chrome on Android's WebOTP, installed before any page script runs.
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WEBOTP_STUB})
        self.go_to_verify()
        calls = self.driver.execute_script("return window.__otp")
        self.assertEqual(calls["calls"], 1)
        self.assertEqual(calls["transport"], ["sms"])
        self.driver.execute_script("window.__otp.resolve(arguments[0])", self.server.last_code())
        self.wait_for_page("/home")

        # Next sign-in: the person types the code instead; the WebOTP request is aborted.
        self.driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        self.wait_for_page("/login")
        self.wait.until(lambda d: d.find_element(By.ID, "phone").get_attribute("value") == "")
        self.driver.find_element(By.ID, "phone").send_keys("4155550199")
        self.driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        self.wait_for_page("/verify")
        self.type_code()
        self.assertEqual(self.driver.execute_script("return sessionStorage.getItem('otpAborted')"), "1")


# Defines OTPCredential and a navigator.credentials.get that records its call, resolves when
# the test says so, and notes an abort in sessionStorage (which outlives the page).
WEBOTP_STUB = """
window.OTPCredential = function () {};
window.__otp = {calls: 0};
navigator.credentials.get = function (options) {
  window.__otp.calls += 1;
  window.__otp.transport = options.otp.transport;
  options.signal.addEventListener('abort', function () { sessionStorage.setItem('otpAborted', '1'); });
  return new Promise(function (resolve) { window.__otp.resolve = function (code) { resolve({code: code}); }; });
};
"""


# Contrast ratio (WCAG 2.x) of each text element against the nearest opaque background.
CONTRAST_SCRIPT = """
function rgb(text) { return (text.match(/[\\d.]+/g) || []).map(Number); }
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function background(element) {
  for (let e = element; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c;
  }
  return rgb(getComputedStyle(document.body).backgroundColor);
}
const selectors = ["h1", "legend", "label", ".lead", ".error", "button", ".back a", ".otp-boxes input"];
const out = [];
for (const selector of selectors) {
  for (const e of document.querySelectorAll(selector)) {
    if (!e.offsetParent) continue;
    const a = luminance(rgb(getComputedStyle(e).color)), b = luminance(background(e));
    out.push([selector, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]);
  }
}
return out;
"""


if __name__ == "__main__":
    unittest.main(verbosity=2)
