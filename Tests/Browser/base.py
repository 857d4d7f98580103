"""What every browser test shares: the real `webapp` binary on a free port (`Server`), the engine's
browser at the phone's size (engines.py), waits that look again while a page is being replaced,
screenshots in test-artifacts/ENGINE/, and the steps most tests take (Login, a number, the code).

`BrowserTestCase` gives each test a server and a browser of its own; `wait_for_page` is how a
test waits for a navigation. It watches the new document itself, never only the address bar:
WebKit moves `current_url` to the next address before the next page replaces the old one, so
a test that waited for the address once read Home's HTML after clicking "Your devices".
"""

import json
import os
import sqlite3
import sys
import time
import unittest

from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException,
                                        TimeoutException, WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from selenium_axe_python import Axe

import engines
from engines import browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "test-artifacts")
# With a PostgreSQL URL (scripts/test's throwaway server), each server gets a schema of its own
# there instead of a SQLite file.
DATABASE_URL = os.environ.get("BROWSER_DATABASE_URL") or None

sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import BINARY, WebappProcess, free_port  # noqa: E402,F401 (free_port, BINARY: for the tests)

# A page being replaced by the next one makes found elements stale: a wait just looks again.
# chromedriver sometimes reports that same race as a plain WebDriverException ("Node with given id
# does not belong to the document", seen in CI on the no-JavaScript test); a real failure still
# ends the wait with a TimeoutException carrying the last error.
IGNORED = (StaleElementReferenceException, NoSuchElementException, WebDriverException)

# The number most tests sign in with, as typed.
PHONE = "5305550123"

# How long a test gives something it has not seen happen to happen anyway (see settle()).
SETTLE_SECONDS = 0.5

# The document now in the window, as the document itself says (never the address bar): its
# path, its whole address, how far it has loaded, and when it began (performance.timeOrigin,
# different for each document, so a page Back brings back is told from the one it replaced).
DOCUMENT_SCRIPT = """
return [location.pathname, location.href, document.readyState, performance.timeOrigin];
"""

# Nothing on the page is still moving: its fonts are in, and no CSS transition or animation runs.
STILL_SCRIPT = """
return document.readyState === 'complete' && (!document.fonts || document.fonts.status === 'loaded')
  && (!document.getAnimations || document.getAnimations().length === 0);
"""

# Every element reaching past the viewport's right edge, except inside a data table's own
# scrolling region (WCAG 1.4.10 exempts two-dimensional tables; the region itself must fit).
OVERFLOW_SCRIPT = """
const width = document.documentElement.clientWidth;
const out = [];
for (const e of document.querySelectorAll('body *')) {
  if (e.parentElement.closest('.table-scroll')) continue;
  const r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > width + 0.5) out.push(e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.right));
}
return [document.documentElement.scrollWidth, width, out.slice(0, 5)];
"""


class Server(WebappProcess):
    """The real binary on 127.0.0.1 and a free port."""

    def __init__(self, options=(), env=None, port=0):
        """`options`: more command-line options (a lower limit, say); `env`: more environment
        (an SMS provider's settings); `port`: a fixed one, for an app whose --public-url names it."""
        super().__init__(options, env=env, port=port, database_url=DATABASE_URL, prefix="webapp-browser-")

    def outbox(self):
        try:
            with open(os.path.join(self.data, "outbox.jsonl")) as outbox:
                return [json.loads(line) for line in outbox.read().splitlines()]
        except FileNotFoundError:
            return []

    def last_code(self):
        """The code of the last text (its last line) or call (the first six digits it reads out)."""
        last = self.outbox()[-1]
        if last.get("channel") == "voice":
            return "".join(c for c in last["body"] if c.isdigit())[:6]
        return last["body"].split("#")[-1]

    def failed_attempts(self):
        if self.schema:
            value = self.psql("SELECT failed_attempts FROM %s.verifications" % self.schema)
            return int(value) if value is not None else None
        with sqlite3.connect(os.path.join(self.data, "webapp.sqlite")) as db:
            row = db.execute("SELECT failed_attempts FROM verifications").fetchone()
            return row[0] if row else None


def save_screenshot(driver, name):
    """test-artifacts/ENGINE/name: each engine's screenshots side by side."""
    folder = os.path.join(ARTIFACTS, engines.ENGINE)
    os.makedirs(folder, exist_ok=True)
    driver.save_screenshot(os.path.join(folder, name))


def settle(seconds=SETTLE_SECONDS):
    """Gives something that must NOT happen the time it would take if it did: a second submit of
    the same code, a passkey offer shown by a late script.

    A wait needs something to wait for, and here there is none: when the test is right, nothing
    changes, so no condition can end the wait early, and looking until a timeout would only make
    every passing run slow. So it is a fixed time, long next to what the thing would take here
    (a request to the server on this machine, a script's next turn), and the assertion after it
    is the test. Never use it before an assertion of something that does happen: wait for that."""
    time.sleep(seconds)


class BrowserTestCase(unittest.TestCase):
    """A test with a server (`self.server`) and a browser (`self.driver`, the engine's phone:
    390 x 844 in Chromium, 447 x 844 in WebKit) of its own, both stopped when it ends.

    `self.wait` waits on `self.driver`; `waiter(driver)` on any other window. Navigations are
    waited for with `wait_for_page`; the common steps (`go_to_verify`, `type_code`, `sign_in`,
    `log_out`) wait for the page they lead to."""

    # How long a wait may take before the test fails (some pages wait on a fake SMS provider or
    # a relying party, and the two cores are shared by the browser, the app and the test).
    WAIT_SECONDS = 10
    # The server each test starts (a subclass of Server, made with no arguments by setUp).
    SERVER = Server

    def setUp(self):
        self.server = self.start_server()
        self.use(browser())

    # --- what a test runs on ---

    def start_server(self, *arguments, **options):
        """A server of this test's own (SERVER with these arguments: for Server, `options`, `env`
        and `port`), stopped when the test ends. setUp's is `self.server`; a test that starts
        another says whether it moves to it."""
        server = self.SERVER(*arguments, **options)
        self.addCleanup(server.stop)
        return server

    def open_browser(self, **options):
        """Another browser window (engines.browser's `options`), closed when the test ends."""
        driver = browser(**options)
        self.addCleanup(driver.quit)
        return driver

    def use(self, driver):
        """Drives `driver` from here on (`self.driver`, `self.wait`); it is closed when the test ends."""
        self.driver = driver
        self.addCleanup(driver.quit)
        self.wait = self.waiter(driver)

    def waiter(self, driver=None, timeout=None):
        """A WebDriverWait on `driver` (the test's own by default) that looks again while a page
        is being replaced (IGNORED)."""
        return WebDriverWait(driver or self.driver, timeout or self.WAIT_SECONDS, ignored_exceptions=IGNORED)

    def screenshot(self, name, driver=None):
        """test-artifacts/ENGINE/name."""
        save_screenshot(driver or self.driver, name)

    # --- waiting for pages ---

    def document(self, driver=None):
        """The document in the window now: (path, address, readyState, timeOrigin), or None while
        the window is between two documents."""
        try:
            now = (driver or self.driver).execute_script(DOCUMENT_SCRIPT)
        except WebDriverException:
            return None
        return tuple(now) if now else None

    def wait_for_page(self, path, until=None, driver=None, prefix=False, left=None):
        """Waits until the window holds the document at `path`, loaded (readyState "complete"),
        as that document itself says (location.pathname): the address bar moves first in WebKit.

        `path`: "/verify", matched against the path alone (a query does not count), or a whole
        address ("http://wiki.example.test:8080/home") matched against the whole address; with
        `prefix`, anything that starts with it ("/accounts/").
        `left`: a document (`document()`) seen before a navigation that may end on the same path
        (Back, a form that answers with the page it is on): the page waited for is another one.
        `until(driver)`: then waits (as long again at most) for what the test is about to check on
        the new page, such as a text a script writes; it returns either way, so the assertion
        after it says what is missing.
        Fails the test, saying where the window is, when the page does not come."""
        driver = driver or self.driver
        whole = path.startswith(("http://", "https://"))

        def arrived(d):
            now = self.document(d)
            if not now or now[2] != "complete" or (left and now[3] == left[3]):
                return False
            where = now[1] if whole else now[0]
            return where.startswith(path) if prefix else where == path

        waiter = self.waiter(driver)
        try:
            waiter.until(arrived)
        except TimeoutException:
            now = self.document(driver)
            self.fail("the page %s did not come in %d s; the window holds %s" % (
                path, self.WAIT_SECONDS,
                "a document at %s, %s%s" % (now[1], now[2], ", the one before" if left and now[3] == left[3] else "")
                if now else "no document that answers"))
        if until:
            try:
                waiter.until(until)
            except TimeoutException:
                pass  # the test's own assertion says what is missing

    def wait_until_still(self, driver=None):
        """Waits until the page has loaded and nothing on it moves (fonts in, no transition or
        animation running): before an audit or a measurement of the whole page."""
        self.waiter(driver).until(lambda d: d.execute_script(STILL_SCRIPT))

    def back(self, stays=None, driver=None):
        """Presses Back and waits for the page it leads to: another document than the one shown,
        loaded, at a path for which `stays(path)` holds (a page brought back from WebKit's
        back/forward cache asks the server again first: the layout's inline script). Returns whether it came
        in time; the test's own assertions say what it saw if not."""
        driver = driver or self.driver
        before = self.document(driver)
        driver.back()

        def arrived(d):
            now = self.document(d)
            return bool(now) and now[2] == "complete" and (not before or now[3] != before[3]) \
                and (stays is None or stays(now[0]))

        try:
            self.waiter(driver).until(arrived)
            return True
        except TimeoutException:
            return False

    # --- the steps most tests take ---

    def go_to_login(self, driver=None, address=None):
        """Opens Login (`address`: another one, such as Login with a place to return to)."""
        (driver or self.driver).get(address or self.server.url + "/login")

    def enter_phone(self, phone=PHONE, driver=None, enter=False):
        """Types `phone` into Login's field over what is in it and presses Next (`enter`: the
        keyboard's Go key instead of a tap)."""
        driver = driver or self.driver
        field = driver.find_element(By.ID, "phone")
        field.clear()
        if enter:
            field.send_keys(phone, Keys.ENTER)
        else:
            field.send_keys(phone)
            driver.find_element(By.ID, "next-button").click()

    def go_to_verify(self, phone=PHONE, driver=None, enter=False, address=None):
        """Login, the number, Next: waits for Verify."""
        self.go_to_login(driver, address)
        self.enter_phone(phone, driver, enter)
        self.wait_for_page("/verify", driver=driver)

    def type_keys(self, keys, driver=None):
        """Each key into whatever has the focus, one at a time, as a person types."""
        driver = driver or self.driver
        for key in keys:
            driver.switch_to.active_element.send_keys(key)

    def type_code(self, code=None, driver=None, then="/home"):
        """Types the code (the last one sent by default) into the boxes, from the focused one, and
        waits for the page it leads to (`then`; None: no page, as for a wrong code)."""
        self.type_keys(code if code is not None else self.server.last_code(), driver)
        if then:
            self.wait_for_page(then, driver=driver)

    def sign_in(self, phone=PHONE, driver=None, enter=False):
        """Signs in by text, from Login to Home."""
        self.go_to_verify(phone, driver, enter)
        self.type_code(driver=driver)

    def wrong_code(self):
        """A code that is not the last one sent."""
        return "%06d" % ((int(self.server.last_code()) + 1) % 1000000)

    def log_out(self, then="/login", driver=None):
        """Presses Log out on a signed-in page and waits for the page it leads to (`then`)."""
        driver = driver or self.driver
        before = self.document(driver)
        driver.find_element(By.XPATH, "//button[normalize-space()='Log out']").click()
        self.wait_for_page(then, driver=driver, left=before)

    def active(self, driver=None):
        """The id of the element with the focus."""
        return (driver or self.driver).switch_to.active_element.get_attribute("id")

    def box(self, index):
        """Verify's box `index` (1 to 6)."""
        return self.driver.find_element(By.ID, "d%d" % index)

    def values(self):
        """What the six boxes hold."""
        return [self.box(i).get_attribute("value") for i in range(1, 7)]

    def axe_violations(self, driver=None):
        """axe-core's violations on the page: (rule, the first three elements) each."""
        axe = Axe(driver or self.driver)
        axe.inject()
        return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe.run()["violations"]]

    def assert_accessible(self, screenshot, driver=None):
        """No axe-core violation on the page; then a screenshot of it."""
        self.assertEqual(self.axe_violations(driver), [])
        self.screenshot(screenshot, driver)
