"""What a browser test checks on a whole page and keeps of it (`PageChecks`, mixed into
base.BrowserTestCase): axe-core's audit, nothing reaching past the right edge (OVERFLOW_SCRIPT),
and screenshots in test-artifacts/ENGINE/.
"""

import os

from selenium_axe_python import Axe

import engines

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "test-artifacts")

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


def save_screenshot(driver, name):
    """test-artifacts/ENGINE/name: each engine's screenshots side by side."""
    folder = os.path.join(ARTIFACTS, engines.ENGINE)
    os.makedirs(folder, exist_ok=True)
    driver.save_screenshot(os.path.join(folder, name))


class PageChecks:
    """On the test's browser (`self.driver`) or the window given."""

    def screenshot(self, name, driver=None):
        """test-artifacts/ENGINE/name."""
        save_screenshot(driver or self.driver, name)

    def axe_violations(self, driver=None):
        """axe-core's violations on the page: (rule, the first three elements) each."""
        axe = Axe(driver or self.driver)
        axe.inject()
        return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe.run()["violations"]]

    def assert_accessible(self, screenshot, driver=None):
        """No axe-core violation on the page; then a screenshot of it."""
        self.assertEqual(self.axe_violations(driver), [])
        self.screenshot(screenshot, driver)
