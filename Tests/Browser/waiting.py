"""How a browser test waits (`PageWaits`, mixed into base.BrowserTestCase): for a navigation,
by the new document itself, never only the address bar (WebKit moves `current_url` to the next
address before the next page replaces the old one, so a test that waited for the address once
read Home's HTML after clicking "Your devices"); for a page to be still; for Back. And `settle`,
the one fixed wait, for something that must not happen.
"""

import time

from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException,
                                        TimeoutException, WebDriverException)
from selenium.webdriver.support.ui import WebDriverWait

# A page being replaced by the next one makes found elements stale: a wait just looks again.
# chromedriver sometimes reports that same race as a plain WebDriverException ("Node with given id
# does not belong to the document", seen in CI on the no-JavaScript test); a real failure still
# ends the wait with a TimeoutException carrying the last error.
IGNORED = (StaleElementReferenceException, NoSuchElementException, WebDriverException)

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


def settle(seconds=SETTLE_SECONDS):
    """Gives something that must NOT happen the time it would take if it did: a second submit of
    the same code, a passkey offer shown by a late script.

    A wait needs something to wait for, and here there is none: when the test is right, nothing
    changes, so no condition can end the wait early, and looking until a timeout would only make
    every passing run slow. So it is a fixed time, long next to what the thing would take here
    (a request to the server on this machine, a script's next turn), and the assertion after it
    is the test. Never use it before an assertion of something that does happen: wait for that."""
    time.sleep(seconds)


class PageWaits:
    """Waits on the test's browser (`self.driver`) or any other window."""

    # How long a wait may take before the test fails (some pages wait on a fake SMS provider or
    # a relying party, and the two cores are shared by the browser, the app and the test).
    WAIT_SECONDS = 10

    def waiter(self, driver=None, timeout=None):
        """A WebDriverWait on `driver` (the test's own by default) that looks again while a page
        is being replaced (IGNORED)."""
        return WebDriverWait(driver or self.driver, timeout or self.WAIT_SECONDS, ignored_exceptions=IGNORED)

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
