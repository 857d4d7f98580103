"""The steps most browser tests take (`SignInSteps`, mixed into base.BrowserTestCase): Login, a
number, Verify's six boxes, the code from the server's outbox, Log out; each waits for the page it
leads to.
"""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

# The number most tests sign in with, as typed.
PHONE = "5305550123"


class SignInSteps:
    """On the test's browser (`self.driver`) or, where a step takes `driver`, any other window."""

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
