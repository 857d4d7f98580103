"""The phone's view of sign-in, measured (issue 16, part 5): headless Chromium at 390 x 844 with
mobile emulation, on an emulated 400 ms / 400 kbit/s connection (CDP
Network.emulateNetworkConditions), against the release webapp in SMS test mode.

Each run starts a fresh browser (an empty cache) and reports:
  Login, first visit   requests and bytes on the wire (CDP Network events' encodedDataLength:
                       headers and body as received) of the page and what it loads, the
                       load event's time, and apart from them Login's prefetch of verify.js
  Login, repeat visit  the same in the same browser; fails if any CSS or JS came from the network
  Next -> Verify       from the tap on Next to Verify's load event, checking verify.js has run
                       (the boxes' roving tabindex) and came from the prefetch, not the network
  sixth digit -> Home  from the key press of the sixth digit to Home's load event
then prints the medians over the runs. Not a test: bench/phone builds and runs it.

    .venv/bin/python bench/phone.py --binary .build/release/webapp [--runs 5]
"""

import argparse
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
os.environ["BROWSER_ENGINE"] = "chromium"  # the network emulation is Chromium's DevTools protocol
import engines  # noqa: E402  the browser tests' phone-sized browser

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LATENCY_MS = 400
THROUGHPUT = 400_000 // 8  # bytes per second, each way

# The tap on Next and the key press of a digit, kept across the navigation they cause.
MARK_TAP = """
document.getElementById('next-button').addEventListener('click',
    () => sessionStorage.setItem('tapAt', String(Date.now())), {capture: true});
"""
MARK_KEY = """
document.addEventListener('keydown',
    () => sessionStorage.setItem('tapAt', String(Date.now())), {capture: true});
"""
# Milliseconds from the mark to this page's load event, once it has ended.
SINCE_MARK = """
const nav = performance.getEntriesByType('navigation')[0];
if (!nav || nav.loadEventEnd === 0) return null;
return performance.timeOrigin + nav.loadEventEnd - Number(sessionStorage.getItem('tapAt'));
"""
LOAD_TIME = """
const nav = performance.getEntriesByType('navigation')[0];
return nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null;
"""


# What a phone set to each language asks for (Chromium's own header for an en-US or es-US phone).
LANGUAGES = {"en": "en-US,en;q=0.9", "es": "es-US,es;q=0.9"}

# Issue 42's budget for Login's first visit, and for Verify after Next.
FIRST_VISIT_BYTES, FIRST_VISIT_REQUESTS, VERIFY_MS = 6_000, 3, 1_000


def browser(language):
    """The browser tests' phone-sized Chromium, keeping its Network events, on a slow network,
    asking for pages in `language` ("en" or "es")."""
    driver = engines.browser(performance_log=True)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": LANGUAGES[language]}})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": THROUGHPUT, "uploadThroughput": THROUGHPUT})
    return driver


class Traffic:
    """What went over the (emulated) network since the last call, from CDP's Network events."""

    def __init__(self, driver):
        self.driver = driver
        self.requests = {}

    def drain(self):
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method"), message.get("params", {})
            request = self.requests.setdefault(params.get("requestId"), {
                "url": None, "bytes": 0, "done": False, "cached": False, "prefetch": False, "redirects": 0})
            if method == "Network.requestWillBeSent":
                if params.get("redirectResponse"):
                    # The redirect's own answer (a 303) crossed the wire too.
                    request["bytes"] += params["redirectResponse"].get("encodedDataLength", 0)
                    request["redirects"] += 1
                request["url"] = params["request"]["url"]
                headers = {k.lower(): v for k, v in params["request"].get("headers", {}).items()}
                request["prefetch"] = "prefetch" in (headers.get("sec-purpose", "") + headers.get("purpose", ""))
                request["method"] = params["request"].get("method")
            elif method == "Network.requestServedFromCache":
                request["cached"] = True
            elif method == "Network.responseReceived":
                response = params["response"]
                if response.get("fromDiskCache") or response.get("fromPrefetchCache") or response.get("fromServiceWorker"):
                    request["cached"] = True
            elif method == "Network.loadingFinished":
                request["bytes"] += params.get("encodedDataLength", 0)
                request["done"] = True

    def take(self):
        """The requests since the last take, finished or not, and forgets them."""
        self.drain()
        taken = [r for r in self.requests.values() if r["url"]]
        self.requests = {}
        return taken


def network(requests):
    """The requests that went to the network (not answered by the cache)."""
    return [r for r in requests if not r["cached"] and r["bytes"] > 0]


def wait_for(driver, script, timeout=30):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: d.execute_script(script))


def one_run(server, phone, language):
    driver = browser(language)
    traffic = Traffic(driver)
    try:
        result = {}
        # Login, first visit (an empty cache). driver.get returns after the load event.
        traffic.take()
        driver.get(server.url + "/login")
        load_ms = wait_for(driver, "return (" + "function(){" + LOAD_TIME + "})()")
        result["lang"] = driver.execute_script("return document.documentElement.lang;")
        prefetch_link = driver.execute_script(
            "const l = document.querySelector('link[rel=prefetch]'); return l ? l.href : null;")
        # The prefetch may run before the load event or after it: wait for it to finish, then
        # count it apart from the page's own requests.
        deadline = time.time() + 15
        while prefetch_link and time.time() < deadline:
            traffic.drain()
            if any(r["url"] == prefetch_link and r["done"] for r in traffic.requests.values()):
                break
            time.sleep(0.05)
        everything = network(traffic.take())
        after_load = [r for r in everything if r["prefetch"] or r["url"] == prefetch_link]
        until_load = [r for r in everything if r not in after_load]
        prefetched = [r for r in after_load if r["url"] == prefetch_link]
        result["first"] = {
            "requests": len(until_load), "bytes": sum(r["bytes"] for r in until_load), "ms": load_ms,
            "prefetch_requests": len(after_load), "prefetch_bytes": sum(r["bytes"] for r in after_load),
            "prefetched": bool(prefetched), "urls": [r["url"].replace(server.url, "") for r in until_load],
        }

        # Login, repeat visit: a new navigation in the same browser.
        driver.get(server.url + "/login")
        load_ms = wait_for(driver, "return (" + "function(){" + LOAD_TIME + "})()")
        repeat = network(traffic.take())
        fetched_assets = [r["url"] for r in repeat if re.search(r"\.(css|js)(\?|$)", r["url"])]
        # The same from the page's side: every script and style sheet had a transferSize of 0.
        transferred = driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => /\\.(css|js)$/.test(e.name)"
            " && e.transferSize > 0).map(e => e.name);")
        result["repeat"] = {
            "requests": len(repeat), "bytes": sum(r["bytes"] for r in repeat), "ms": load_ms,
            "assets_fetched": fetched_assets + transferred,
        }

        # Next -> Verify usable.
        driver.find_element(By.ID, "phone").send_keys(phone)
        driver.execute_script(MARK_TAP)
        traffic.take()
        driver.find_element(By.ID, "next-button").click()
        WebDriverWait(driver, 30, poll_frequency=0.02).until(lambda d: d.current_url.endswith("/verify"))
        verify_ms = wait_for(driver, "return (function(){" + SINCE_MARK + "})()")
        script_ran = driver.execute_script("const d = document.getElementById('d2'); return !!d && d.tabIndex === -1;")
        to_verify = traffic.take()
        on_wire = network(to_verify)
        result["verify"] = {
            "requests": len(on_wire), "bytes": sum(r["bytes"] for r in on_wire), "ms": verify_ms,
            "script_ran": script_ran,
            "verify_js_from_network": any("/verify." in r["url"] and r["url"].endswith(".js") for r in on_wire),
            "round_trips": [f'{r.get("method")} {r["url"].replace(server.url, "")} ({r["redirects"]} redirect)'
                            for r in on_wire],
        }

        # The sixth digit -> Home.
        for digit in "12345":
            driver.switch_to.active_element.send_keys(digit)
        driver.execute_script(MARK_KEY)
        traffic.take()
        driver.switch_to.active_element.send_keys("6")
        WebDriverWait(driver, 30, poll_frequency=0.02).until(lambda d: d.current_url.endswith("/home"))
        home_ms = wait_for(driver, "return (function(){" + SINCE_MARK + "})()")
        on_wire = network(traffic.take())
        result["home"] = {"requests": len(on_wire), "bytes": sum(r["bytes"] for r in on_wire), "ms": home_ms}
        return result
    finally:
        driver.quit()


def median(runs, step, key):
    return statistics.median(run[step][key] for run in runs)


def spread(runs, step, key):
    values = sorted(run[step][key] for run in runs)
    return "%s (%s–%s)" % (fmt(statistics.median(values)), fmt(values[0]), fmt(values[-1]))


def fmt(value):
    return "{:,}".format(round(value))


def report(runs, language):
    lines = [
        "### Accept-Language: %s (pages in `%s`)" % (LANGUAGES[language], runs[0]["lang"]),
        "",
        "| step | requests | bytes on the wire | ms |",
        "| --- | ---: | ---: | ---: |",
        "| Login, first visit (to its load event) | %s | %s | %s |"
        % (fmt(median(runs, "first", "requests")), spread(runs, "first", "bytes"), spread(runs, "first", "ms")),
        "| … and Login's prefetch of verify.js (not counted above) | %s | %s | |"
        % (fmt(median(runs, "first", "prefetch_requests")), spread(runs, "first", "prefetch_bytes")),
        "| Login, repeat visit | %s | %s | %s |"
        % (fmt(median(runs, "repeat", "requests")), spread(runs, "repeat", "bytes"), spread(runs, "repeat", "ms")),
        "| tap Next → Verify usable (load event, verify.js ran) | %s | %s | %s |"
        % (fmt(median(runs, "verify", "requests")), spread(runs, "verify", "bytes"), spread(runs, "verify", "ms")),
        "| sixth digit → Home (load event) | %s | %s | %s |"
        % (fmt(median(runs, "home", "requests")), spread(runs, "home", "bytes"), spread(runs, "home", "ms")),
        "",
        "First visit fetched: " + ", ".join(runs[0]["first"]["urls"]),
        "Next → Verify went over the wire as: " + "; ".join(runs[0]["verify"]["round_trips"]),
        "",
        targets(runs),
        "",
    ]
    return "\n".join(lines)


def targets(runs):
    first_bytes, first_requests = median(runs, "first", "bytes"), median(runs, "first", "requests")
    verify_ms = median(runs, "verify", "ms")
    checks = [
        (first_bytes <= FIRST_VISIT_BYTES, "Login's first visit ≤ %s bytes on the wire (%s)" % (fmt(FIRST_VISIT_BYTES), fmt(first_bytes))),
        (first_requests <= FIRST_VISIT_REQUESTS, "… in ≤ %d requests (%s)" % (FIRST_VISIT_REQUESTS, fmt(first_requests))),
        (verify_ms <= VERIFY_MS, "Verify usable ≤ %s ms after Next (%s)" % (fmt(VERIFY_MS), fmt(verify_ms))),
        (not any(run["repeat"]["assets_fetched"] for run in runs), "a repeat visit fetches no CSS or JS"),
    ]
    return "\n".join("- %s %s" % ("✅" if ok else "❌", text) for ok, text in checks)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="also write every run here")
    arguments = parser.parse_args()
    # The browser tests' server (the real binary on a free port) runs WEBAPP_BINARY from the
    # repository's root, which holds Templates/ and Public/.
    os.environ["WEBAPP_BINARY"] = os.path.abspath(arguments.binary)
    import base  # noqa: E402  read WEBAPP_BINARY at import
    server = base.Server(
        ["--sms", "test", "--max-codes-per-client", "1000", "--max-sign-ins-per-client", "1000"])
    runs, problems = {language: [] for language in LANGUAGES}, []
    try:
        for index in range(arguments.runs * len(LANGUAGES)):
            # The languages in turn, so both see the machine as it is then.
            language = list(LANGUAGES)[index % len(LANGUAGES)]
            run = one_run(server, "530555%04d" % (110 + index), language)
            runs[language].append(run)
            print("run %d (%s): first %d B / %d ms (+%d B prefetch), repeat %d B, verify %d ms, home %d ms"
                  % (index + 1, language, run["first"]["bytes"], run["first"]["ms"], run["first"]["prefetch_bytes"],
                     run["repeat"]["bytes"], run["verify"]["ms"], run["home"]["ms"]), file=sys.stderr)
            if run["repeat"]["assets_fetched"]:
                problems.append("run %d: the repeat visit fetched %s" % (index + 1, run["repeat"]["assets_fetched"]))
            if not run["first"]["prefetched"]:
                problems.append("run %d: Login did not prefetch verify.js" % (index + 1))
            if not run["verify"]["script_ran"]:
                problems.append("run %d: verify.js had not run at Verify's load event" % (index + 1))
            if run["verify"]["verify_js_from_network"]:
                problems.append("run %d: Verify fetched verify.js again" % (index + 1))
    finally:
        server.stop()
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump(runs, out, indent=1)
    print("Emulated %d ms latency, %d kbit/s down and up, Chromium at 390 x 844; %d runs per language, "
          "medians (range)." % (LATENCY_MS, THROUGHPUT * 8 // 1000, arguments.runs))
    print()
    for language in LANGUAGES:
        print(report(runs[language], language))
    for problem in problems:
        print("FAILED: " + problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
