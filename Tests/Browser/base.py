"""What every browser test shares: the real `webapp` binary on a free port (`Server`, server.py), the
engine's browser at the phone's size (engines.py), waits that look again while a page is being
replaced (waiting.py), the steps most tests take: Login, a number, the code (steps.py), and
axe-core, the overflow check and screenshots in test-artifacts/ENGINE/ (page_checks.py).

`BrowserTestCase` gives each test a server and a browser of its own; `wait_for_page` is how a
test waits for a navigation: it watches the new document itself, never only the address bar
(waiting.py says why).
"""

import unittest

from engines import browser
from page_checks import OVERFLOW_SCRIPT, PageChecks  # noqa: F401 (OVERFLOW_SCRIPT: for the tests)
from server import BINARY, ROOT, Server, free_port  # noqa: F401 (BINARY, ROOT, free_port: for the tests)
from steps import PHONE, SignInSteps  # noqa: F401 (PHONE: for the tests)
from waiting import PageWaits, settle  # noqa: F401 (settle: for the tests)


class BrowserTestCase(PageWaits, SignInSteps, PageChecks, unittest.TestCase):
    """A test with a server (`self.server`) and a browser (`self.driver`, the engine's phone:
    390 x 844 in Chromium, 447 x 844 in WebKit) of its own, both stopped when it ends.

    `self.wait` waits on `self.driver`; `waiter(driver)` on any other window. Navigations are
    waited for with `wait_for_page`; the common steps (`go_to_verify`, `type_code`, `sign_in`,
    `log_out`) wait for the page they lead to."""

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
