"""What a phone's browser does that a desktop one rarely does (issue 25), in both engines: the code
autofilled from Messages into whichever box has the cursor, the zoom into small text on focus,
the back/forward cache, the keyboard's Go key, and a remembered number typed over.

Uses base.BrowserTestCase (the real binary, the browser of engines).
"""

import time
import unittest

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import base
import engines
from engines import browser
from proxy import Proxy

# iOS's "From Messages": the whole code goes into the focused box in one input event, at the
# cursor. Returns the id of the box it went into.
AUTOFILL_SCRIPT = """
const form = document.getElementById('verify-form'), submit = form.submit;
form.submit = function () {  // note what is sent, then send it
  sessionStorage.setItem('sent', Array.from(form.querySelectorAll('.otp-boxes input')).map(b => b.value).join(''));
  submit.call(form);
};
const box = document.activeElement;
box.value = box.value + arguments[0];
box.dispatchEvent(new InputEvent('input', {inputType: 'insertText', data: arguments[0], bubbles: true}));
return box.id;
"""

# The ids (or tag names) of the elements matching arguments[0] that a person can see now.
VISIBLE_SCRIPT = """
return Array.from(document.querySelectorAll(arguments[0]))
  .filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility === 'visible')
  .map(e => e.id || e.tagName);
"""

# Every field a person types into on the page, with its font size in CSS px.
FIELD_SIZES_SCRIPT = """
return Array.from(document.querySelectorAll('input:not([type=hidden]):not([type=checkbox]), select, textarea'))
  .map(e => [e.id || e.name, parseFloat(getComputedStyle(e).fontSize)]);
"""

# On how many lines the text arguments[1] is drawn inside the element with id arguments[0]
# (whatever elements it is split into), or 0 where it is not there.
LINES_SCRIPT = """
const root = document.getElementById(arguments[0]), wanted = arguments[1];
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), nodes = [];
let text = '';
while (walker.nextNode()) { nodes.push([walker.currentNode, text.length]); text += walker.currentNode.data; }
const start = text.indexOf(wanted);
if (start < 0) return 0;
const at = offset => { const [node, base] = nodes.filter(([, b]) => b <= offset).pop(); return [node, offset - base]; };
const range = document.createRange();
range.setStart(...at(start));
range.setEnd(...at(start + wanted.length - 1));
range.setEnd(range.endContainer, range.endOffset + 1);
return new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top))).size;
"""


class PhoneHabitTests(base.BrowserTestCase):
    def go_to_verify(self, *arguments, **options):
        """Verify, with the cursor in box one (where a person's code goes)."""
        super().go_to_verify(*arguments, **options)
        self.wait.until(lambda d: self.active() == "d1")

    def back_and_watch(self, selectors, seconds=1.5):
        """Presses Back and, for `seconds`, notes every element of `selectors` a person could see."""
        self.driver.back()
        seen = set()
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                seen.update(self.driver.execute_script(VISIBLE_SCRIPT, selectors))
            except WebDriverException:
                pass  # between two pages
            time.sleep(0.03)
        return seen

    def test_the_code_autofilled_into_whichever_box_has_the_cursor_fills_all_six_and_is_sent_once(self):
        self.go_to_verify()
        code = self.server.last_code()
        # The person has typed none, two, then five digits when the code is offered.
        for tries, typed in enumerate(["", "12", "12345"], start=1):
            self.type_keys(typed)
            wrong = "%06d" % ((int(code) + tries) % 1000000)
            self.assertEqual(self.driver.execute_script(AUTOFILL_SCRIPT, wrong), "d%d" % (len(typed) + 1))
            self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)
            self.assertEqual(self.driver.execute_script("return sessionStorage.getItem('sent')"), wrong, typed)
            base.settle()  # a second submit would have counted by now
            self.assertEqual(self.server.failed_attempts(), tries, typed)
            self.wait.until(lambda d: self.active() == "d1")
        self.type_keys("98")
        self.assertEqual(self.driver.execute_script(AUTOFILL_SCRIPT, code), "d3")
        self.wait_for_page("/home")

    def test_every_field_is_at_least_16_px_so_focusing_it_does_not_zoom_the_page(self):
        # iOS zooms into a field whose text is smaller than 16 px when it takes focus; the page
        # must also stay zoomable by hand (no maximum-scale, no user-scalable=no).
        small = []

        def check(name):
            for field, size in self.driver.execute_script(FIELD_SIZES_SCRIPT):
                if size < 16:
                    small.append("%s: %s is %.1f px" % (name, field, size))
            meta = self.driver.find_element(By.CSS_SELECTOR, "meta[name=viewport]").get_attribute("content")
            self.assertNotIn("maximum-scale", meta)
            self.assertNotIn("user-scalable", meta)

        self.driver.get(self.server.url + "/login")
        check("login")
        self.go_to_verify()
        check("verify")
        self.type_code()
        check("home")
        self.driver.find_element(By.ID, "account-name").send_keys("Checking")
        self.driver.find_element(By.CSS_SELECTOR, "#add-account-form button").click()
        self.wait_for_page("/accounts/", prefix=True)
        check("account")
        self.assertEqual(small, [])

    def test_after_signing_in_back_never_shows_login_or_verify(self):
        self.sign_in()
        # Back through Verify and Login, the two pages this tab saw before Home.
        for press in range(2):
            seen = self.back_and_watch("#phone, #d1, #login-form, #verify-form")
            self.assertEqual(seen, set(), "Back %d showed %s" % (press + 1, seen))
            self.wait_for_page("/home", until=lambda d: d.find_elements(By.ID, "d1") == [])
            self.assertEqual(self.driver.find_elements(By.ID, "d1"), [])

    def test_after_log_out_back_never_shows_home_or_a_balance(self):
        self.sign_in()
        self.driver.find_element(By.ID, "account-name").send_keys("Checking")
        self.driver.find_element(By.CSS_SELECTOR, "#add-account-form button").click()
        self.wait_for_page("/accounts/", prefix=True)
        self.driver.find_element(By.ID, "deposit-amount").send_keys("12.34")
        self.driver.find_element(By.CSS_SELECTOR, "#deposit-form button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$12.34")
        # Home by its link, as a person goes (a page typed into the address bar is one Chromium
        # keeps out of its back/forward cache, which would hide what this test looks for).
        self.driver.find_element(By.CSS_SELECTOR, "a[href='/home']").click()
        self.wait_for_page("/home")
        self.log_out()
        signed_in = "#signed-in-phone, #total, #balance, form[action='/logout'], .amount"
        for press in range(3):
            seen = self.back_and_watch(signed_in)
            self.assertEqual(seen, set(), "Back %d showed %s" % (press + 1, seen))
            self.wait_for_page("/login", until=lambda d: "12.34" not in d.page_source)
            self.assertNotIn("12.34", self.driver.page_source)

    def test_reload_after_a_wrong_code_spends_no_try(self):
        # WebKit answers Reload on the page a wrong code was answered with by posting the form
        # again (Chromium asks with GET): the same wrong code again is no new try.
        self.go_to_verify()
        wrong = "%06d" % ((int(self.server.last_code()) + 1) % 1000000)
        self.type_keys(wrong)
        self.wait.until(lambda d: "Incorrect" in d.find_element(By.ID, "otp-error").text)
        for _ in range(3):
            self.driver.refresh()
            self.wait.until(lambda d: len(d.find_elements(By.ID, "d1")) == 1)
        base.settle()  # a try counted again would be in by now
        self.assertEqual(self.server.failed_attempts(), 1)

    def test_back_to_a_refused_wallet_form_shows_the_account_as_it_is_now(self):
        self.sign_in()
        self.driver.find_element(By.ID, "account-name").send_keys("Checking")
        self.driver.find_element(By.CSS_SELECTOR, "#add-account-form button").click()
        self.wait_for_page("/accounts/", prefix=True)
        self.driver.find_element(By.ID, "withdraw-amount").send_keys("5")  # more than the balance
        self.driver.find_element(By.CSS_SELECTOR, "#withdraw-form button").click()
        self.wait.until(lambda d: d.title.startswith("Error: "))
        self.driver.find_element(By.ID, "deposit-amount").send_keys("12.34")
        self.driver.find_element(By.CSS_SELECTOR, "#deposit-form button").click()
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$12.34")
        # Back to the refused withdrawal's page: asked for again (WebKit), it is the account now.
        self.driver.back()
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$12.34")
        self.assertNotIn("Method Not Allowed", self.driver.page_source)

    def test_log_out_on_the_home_signing_in_led_to_then_back_shows_no_home(self):
        self.sign_in()
        self.log_out()
        seen = self.back_and_watch("#signed-in-phone, #total, form[action='/logout']")
        self.assertEqual(seen, set(), "Back showed %s" % seen)
        self.wait_for_page("/login")

    def test_over_https_with_javascript_off_back_after_log_out_shows_no_balance(self):
        # As deployed: HTTPS in front (proxy.py), and a person who turned scripts off, so
        # the layout's Back script cannot help. WebKit keeps no no-store page over HTTPS in its
        # back/forward cache (over plain HTTP it does: there the script is what helps).
        self.server = self.start_server(["--https"])
        front = Proxy(self.server.port, tls=True)
        self.addCleanup(front.stop)
        self.use(browser(javascript=False, test_certificate=True))
        self.go_to_login(address=front.url + "/login")
        self.enter_phone(enter=True)
        self.wait_for_page("/verify")
        for index, digit in enumerate(self.server.last_code(), start=1):
            self.driver.find_element(By.ID, "d%d" % index).send_keys(digit)
        self.driver.find_element(By.ID, "verify-button").send_keys(Keys.ENTER)
        self.wait_for_page("/home")
        self.driver.find_element(By.ID, "account-name").send_keys("Checking", Keys.ENTER)
        self.wait_for_page("/accounts/", prefix=True)
        self.driver.find_element(By.ID, "deposit-amount").send_keys("12.34", Keys.ENTER)
        self.wait.until(lambda d: d.find_element(By.ID, "balance").text == "$12.34")
        self.driver.get(front.url + "/home")
        self.driver.find_element(By.XPATH, "//button[normalize-space()='Log out']").send_keys(Keys.ENTER)
        self.wait_for_page("/login")
        for press in range(3):
            seen = self.back_and_watch("#signed-in-phone, #total, #balance, form[action='/logout'], .amount")
            self.assertEqual(seen, set(), "Back %d showed %s" % (press + 1, seen))
            self.wait_for_page("/login")

    def test_the_keyboards_go_key_sends_the_number(self):
        self.go_to_login()
        self.enter_phone(enter=True)
        self.wait_for_page("/verify")
        self.assertEqual(self.server.outbox()[-1]["to"], "+15305550123")

    def test_typing_another_number_over_the_remembered_one_gives_that_number(self):
        self.sign_in()
        # The session ends without Log out (it expired): Login fills in the number that last
        # signed in here (after Log out it would not, on a phone that is not remembered).
        self.driver.delete_cookie("session")
        self.go_to_login()
        field = self.driver.find_element(By.ID, "phone")
        self.assertEqual(field.get_attribute("value"), "(530) 555-0123")
        self.assertEqual(self.driver.find_element(By.ID, "remembered").text,
                         "Welcome back, (530) 555-0123. Not you? Use another number")
        select_all = Keys.COMMAND if self.driver.execute_script("return /Mac/.test(navigator.platform)") else Keys.CONTROL
        # Digits typed wherever the cursor lands (a tap in the middle, the start, the end) start
        # a new number; what replaces the whole value (select all and type, autofill's one input
        # event) is kept whole; deleting, then typing, edits the remembered one.
        cases = [
            ("a tap", lambda f: f.click(), "4155550199", "(415) 555-0199"),
            ("the start", lambda f: f.send_keys(Keys.HOME), "4155550199", "(415) 555-0199"),
            ("the end", lambda f: f.send_keys(Keys.END), "4155550199", "(415) 555-0199"),
            ("select all", lambda f: f.send_keys(select_all, "a"), "4155550199", "(415) 555-0199"),
            ("an edit", lambda f: f.send_keys(Keys.END, *[Keys.BACKSPACE] * 4), "0199", "(530) 555-0199"),
            ("autofill", lambda f: self.driver.execute_script(
                "arguments[0].value = '(415) 555-0199';"
                " arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", f), "", "(415) 555-0199"),
        ]
        for name, before, typed, shown in cases:
            self.driver.refresh()
            field = self.wait.until(lambda d: d.find_element(By.ID, "phone"))
            self.assertEqual(field.get_attribute("value"), "(530) 555-0123", name)
            before(field)
            if typed:
                field.send_keys(typed)
            self.assertEqual(field.get_attribute("value"), shown, name)
            self.assertFalse(self.driver.find_element(By.ID, "remembered").is_displayed(), name)
        # Go sends the number shown, with a code (this browser remembers only the other one).
        field.send_keys(Keys.ENTER)
        self.wait_for_page("/verify", until=lambda d: "(415) 555-0199" in d.find_element(By.ID, "otp-label").text)
        self.assertEqual(self.server.outbox()[-1]["to"], "+14155550199")
        self.assertIn("(415) 555-0199", self.driver.find_element(By.ID, "otp-label").text)

    def test_the_hint_follows_the_boxes_with_no_blank_space_between(self):
        self.go_to_verify()
        gap = self.driver.execute_script(
            "return document.getElementById('otp-hint').getBoundingClientRect().top"
            " - document.querySelector('.otp-boxes').getBoundingClientRect().bottom")
        self.assertLessEqual(gap, 8.5)  # the form's own gap between its parts

    def test_the_number_never_breaks_across_lines(self):
        self.go_to_verify("4155550161")
        # The engine's own width first (WebKit broke the number at its 447 px), then narrower.
        for width in [engines.width(self.driver)] + list(range(440, 190, -20)):
            got = engines.narrowed(self.driver, width)
            lines = self.driver.execute_script(LINES_SCRIPT, "otp-label", "(415) 555-0161")
            self.assertEqual(lines, 1, "at %d CSS px" % got)
            # Nor does a line break there lose the space in what a screen reader says (WebKit
            # drops a space where a line ends just before an element).
            self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "fieldset.otp").accessible_name,
                             "Enter the 6-digit code we sent to (415) 555-0161", "at %d CSS px" % got)
        engines.unzoomed(self.driver)

if __name__ == "__main__":
    unittest.main(verbosity=2)
