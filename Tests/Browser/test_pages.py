"""The Login and Verify pages in a real browser: Debian's headless Chromium driven by Selenium.

Each test starts the built `webapp` binary on a free port with its own data folder, so the
tests see exactly what a person would. Run by ./scripts/test (see ./scripts/browser-tests).
"""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("WEBAPP_BINARY", os.path.join(ROOT, ".build", "debug", "webapp"))
ARTIFACTS = os.path.join(ROOT, "test-artifacts")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


class Server:
    """The real binary on 127.0.0.1 and a free port."""

    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="webapp-browser-")
        self.process = subprocess.Popen(
            [BINARY, "--port", "0", "--data-dir", self.data, "--log-level", "error"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"Listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError("webapp did not start: %r" % line)
        self.url = match.group(1)

    def last_code(self):
        with open(os.path.join(self.data, "outbox.jsonl")) as outbox:
            return json.loads(outbox.read().splitlines()[-1])["body"].split("#")[-1]

    def failed_attempts(self):
        with sqlite3.connect(os.path.join(self.data, "webapp.sqlite")) as db:
            row = db.execute("SELECT failed_attempts FROM verifications").fetchone()
            return row[0] if row else None

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.data, ignore_errors=True)


def browser(javascript=True):
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    # A phone-sized screen: 390 x 844 CSS pixels, like an iPhone 14.
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1}})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


class PageTests(unittest.TestCase):
    def setUp(self):
        self.server = Server()
        self.addCleanup(self.server.stop)
        self.driver = browser()
        self.addCleanup(self.driver.quit)
        self.wait = WebDriverWait(self.driver, 10)

    def box(self, index):
        return self.driver.find_element(By.ID, "d%d" % index)

    def values(self):
        return [self.box(i).get_attribute("value") for i in range(1, 7)]

    def active(self):
        return self.driver.switch_to.active_element.get_attribute("id")

    def go_to_verify(self, phone="5305550123"):
        self.driver.get(self.server.url + "/login")
        self.driver.find_element(By.ID, "phone").send_keys(phone)
        self.driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        self.wait.until(lambda d: d.current_url.endswith("/verify"))

    def screenshot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.driver.save_screenshot(os.path.join(ARTIFACTS, name))

    def test_login_formats_and_fits_a_phone_screen(self):
        self.driver.get(self.server.url + "/login")
        phone = self.driver.find_element(By.ID, "phone")
        phone.send_keys("5305550123")
        self.assertEqual(phone.get_attribute("value"), "(530) 555-0123")
        self.assertEqual(phone.get_attribute("type"), "tel")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, 390)
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
        wrong = "%06d" % ((int(self.server.last_code()) + 1) % 1000000)
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
        wrong = "%06d" % ((int(self.server.last_code()) + 1) % 1000000)
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
        time.sleep(0.5)
        self.assertEqual(self.server.failed_attempts(), 1)

    def test_wrong_code_clears_boxes_then_right_code_and_back_button(self):
        self.go_to_verify()
        code = self.server.last_code()
        wrong = "%06d" % ((int(code) + 1) % 1000000)
        for digit in wrong:
            self.driver.switch_to.active_element.send_keys(digit)
        self.wait.until(lambda d: "Incorrect verification code" in d.find_element(By.ID, "otp-error").text)
        self.assertEqual(self.values(), [""] * 6)
        self.assertEqual(self.active(), "d1")
        error = self.driver.find_element(By.ID, "otp-error")
        self.assertEqual(error.get_attribute("role"), "alert")
        self.screenshot("verify-error.png")
        for digit in code:
            self.driver.switch_to.active_element.send_keys(digit)
        self.wait.until(lambda d: d.current_url.endswith("/home"))
        self.assertIn("(530) 555-0123", self.driver.find_element(By.ID, "signed-in-phone").text)
        self.screenshot("home.png")
        for _ in range(3):
            self.driver.back()
            time.sleep(0.3)
            self.assertTrue(self.driver.current_url.endswith("/home"), self.driver.current_url)
            self.assertEqual(len(self.driver.find_elements(By.ID, "d1")), 0)
            self.assertEqual(len(self.driver.find_elements(By.ID, "phone")), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
