"""The browser engine the tests drive, and how each is asked to do what a phone does.

BROWSER_ENGINE picks the engine (./scripts/browser-tests runs the suite once with each):
- `chromium`: Debian's headless Chromium through chromedriver, emulating a 390 x 844 phone with
  touch. Dark mode, narrow screens and JavaScript off go through Chromium's DevTools protocol.
- `webkit`: WebKitGTK's MiniBrowser (Safari's engine) through Debian's WebKitWebDriver, on an
  Xvfb display (`xvfb-run`). Its toolbar keeps the window at least 447 px wide, so its narrowest
  is 447 x 844 with a mouse, not touch. Dark mode is GTK's dark theme (set when the browser
  starts), narrow screens are WebKit's own page zoom (Ctrl and + on the window, through xdotool),
  JavaScript off is MiniBrowser's setting, and held-back scripts are a content-blocker rule.

Each capability is asked for by what it means (`browser(scheme="dark")`, `zoomed(driver, 2)`),
never by an engine's protocol, so one test checks the same promise in both engines.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import SessionNotCreatedException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.options import Options as ChromiumOptions
from selenium.webdriver.chrome.service import Service as ChromiumService
from selenium.webdriver.webkitgtk.options import Options as WebKitOptions
from selenium.webdriver.webkitgtk.service import Service as WebKitService

ENGINE = os.environ.get("BROWSER_ENGINE", "chromium")
if ENGINE not in ("chromium", "webkit"):
    raise SystemExit("BROWSER_ENGINE must be chromium or webkit, not %r" % ENGINE)
WEBKIT = ENGINE == "webkit"

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
MINIBROWSER = next(
    (path for path in ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                       "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser") if os.path.exists(path)),
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")

# The phone the tests are: an iPhone 14's screen in CSS pixels.
PHONE_WIDTH, PHONE_HEIGHT = 390, 844


def browser(scheme="light", javascript=True, hold_back=(), proxy=None, test_certificate=False,
            performance_log=False):
    """A new browser window as a phone.

    `scheme`: "light" or "dark" (prefers-color-scheme, for the whole session).
    `javascript`: False runs the pages with scripts off, as a person who turned them off.
    `hold_back`: names of our scripts (`"verify"`) whose content-hashed files never load, so a
    test sees the page before its script arrives (it can load the plain name itself later).
    `proxy`: "http://127.0.0.1:PORT", an HTTP proxy for every request (the gateway tests map
    their host names to this machine with it).
    `test_certificate`: accept the tests' own self-signed certificate (proxy.py's HTTPS front).
    `performance_log`: Chromium only, CDP's Network events for `get_log("performance")`.
    """
    if WEBKIT:
        # WebKitWebDriver sometimes fails to open MiniBrowser's window when two cores are busy
        # ("failed to create a new browsing context", seen once in CI, and twice in a row with
        # Swift builds beside the suite): each try is a new one, after a longer pause.
        for pause in (1, 3, None):
            try:
                driver = _webkit(scheme, javascript, hold_back, proxy, test_certificate)
                break
            except SessionNotCreatedException:
                if pause is None:
                    raise
                time.sleep(pause)
    else:
        driver = _chromium(scheme, javascript, hold_back, proxy, test_certificate, performance_log)
    driver.engine = ENGINE
    driver.scheme = scheme
    return driver


def _chromium(scheme, javascript, hold_back, proxy, test_certificate, performance_log):
    options = ChromiumOptions()
    options.accept_insecure_certs = test_certificate
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    if proxy:
        options.add_argument("--proxy-server=" + proxy)
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": PHONE_WIDTH, "height": PHONE_HEIGHT, "pixelRatio": 1}})
    if performance_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=ChromiumService(CHROMEDRIVER))
    # DevTools settings set before the first page: they hold for the whole tab.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})
    if not javascript:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    if hold_back:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {
            "urls": ["*/public/%s.*.js" % name for name in hold_back]})
    return driver


def _webkit(scheme, javascript, hold_back, proxy, test_certificate):
    options = WebKitOptions()
    options.accept_insecure_certs = test_certificate
    options.binary_location = MINIBROWSER
    # With a binary named, WebKitWebDriver passes only these arguments: --automation is the one
    # that lets it drive the browser.
    options.add_argument("--automation")
    if not javascript:
        options.add_argument("--enable-javascript=false")
    if proxy:
        options.add_argument("--proxy=" + proxy)
    if hold_back:
        # A content-blocker list, the format Safari's content blockers use.
        rules = [{"trigger": {"url-filter": r"/public/%s\.[0-9a-f]+\.js" % name}, "action": {"type": "block"}}
                 for name in hold_back]
        handle, path = tempfile.mkstemp(prefix="webkit-blocker-", suffix=".json")
        with os.fdopen(handle, "w") as file:
            json.dump(rules, file)
        options.add_argument("--content-filter=" + path)
    environment = dict(os.environ)
    # WebKitGTK answers prefers-color-scheme from GTK's theme.
    environment["GTK_THEME"] = "Adwaita:dark" if scheme == "dark" else "Adwaita"
    driver = webdriver.WebKitGTK(options=options, service=WebKitService(WEBKIT_DRIVER, env=environment))
    driver.set_window_size(PHONE_WIDTH, PHONE_HEIGHT)  # MiniBrowser widens it to about 447
    # The window has the display's focus, as a browser in front of a person does: otherwise
    # document.hasFocus() is false and the focus ring (:focus-visible) never shows.
    _focus_window(driver)
    return driver


def width(driver):
    """The layout viewport's width in CSS pixels."""
    return driver.execute_script("return document.documentElement.clientWidth")


def narrowed(driver, css_width):
    """Makes the page at most `css_width` CSS pixels wide; returns the width it got.

    Chromium: an emulated screen of exactly that width. WebKit: its own page zoom, stepped up
    until the page is no wider (so the page is tested a little narrower, never wider)."""
    if not WEBKIT:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": css_width, "height": 700, "deviceScaleFactor": 1, "mobile": True})
        # Laid out again at the new width (at once, in practice): looked for, not slept on.
        deadline = time.time() + 2
        while width(driver) > css_width and time.time() < deadline:
            time.sleep(0.02)
        return width(driver)
    for _ in range(12):
        if width(driver) <= css_width:
            break
        _webkit_keys(driver, "ctrl+plus")
    got = width(driver)
    if got > css_width:
        raise AssertionError("WebKit's zoom stopped at %d CSS px, not %d or less" % (got, css_width))
    return got


def zoomed(driver, factor):
    """The page at `factor` times its size on the phone: Chromium emulates the phone's width
    divided by it (a 390 px phone at 200% is 195 CSS px); WebKit zooms its window until its width
    is at most the window's divided by it. Returns the width it got."""
    return narrowed(driver, int((width(driver) if WEBKIT else PHONE_WIDTH) / factor))


def unzoomed(driver):
    """Back to the phone's own size after `narrowed` or `zoomed`."""
    if not WEBKIT:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE_WIDTH, "height": PHONE_HEIGHT, "deviceScaleFactor": 1, "mobile": True})
    else:
        _webkit_keys(driver, "ctrl+0")


def tab(driver):
    """Presses Tab as a keyboard does. In WebKit, WebDriver's keys move focus but are not counted
    as keyboard use, so :focus-visible (the focus ring) never matches after them; a key pressed
    on the window's display is."""
    if WEBKIT:
        _webkit_keys(driver, "Tab", relayout=False)
    else:
        driver.switch_to.active_element.send_keys(Keys.TAB)


def _xdotool(*arguments):
    """xdotool's output; never waits more than 10 s (a window that never takes focus fails the
    test instead of hanging the suite)."""
    return subprocess.run(["xdotool", *arguments], check=True, capture_output=True, text=True, timeout=10).stdout


def _focus_window(driver):
    """Gives this driver's MiniBrowser window the display's focus."""
    browsers = subprocess.run(["pgrep", "-P", str(driver.service.process.pid)],
                              capture_output=True, text=True, timeout=10).stdout.split()
    windows = []
    for pid in browsers:
        windows += subprocess.run(
            ["xdotool", "search", "--all", "--onlyvisible", "--pid", pid, "--class", "MiniBrowser"],
            capture_output=True, text=True, timeout=10).stdout.split()
    if not windows:
        raise RuntimeError("no MiniBrowser window found for WebKitWebDriver %d" % driver.service.process.pid)
    _xdotool("windowfocus", "--sync", windows[-1])


def _webkit_keys(driver, keys, relayout=True):
    """Presses `keys` on this driver's MiniBrowser window, as a person at the keyboard would
    (WebDriver's own keys reach only the page, never the browser's zoom). `relayout`: wait until
    the page's width has changed (zoom)."""
    before = width(driver)
    _focus_window(driver)
    _xdotool("key", "--clearmodifiers", keys)
    # Zoom lays the page out again: wait until the width has moved (or a moment has passed).
    deadline = time.time() + (2 if relayout else 0)
    while time.time() < deadline and width(driver) == before:
        time.sleep(0.05)
