"""The two ways the gateway tests reach the proxies: `Browser`, an HTTP client with a cookie jar
that follows no redirect by itself (each is checked), with `form` to read a page's form; and
`chromium()`, headless Chromium with the test host names resolving to 127.0.0.1.
"""

import json
import shutil
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from http.cookiejar import CookieJar

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


class Answer:
    def __init__(self, response):
        self.status = response.status
        self.headers = response.headers
        self.body = response.read().decode("utf-8", "replace")
        response.close()

    @property
    def location(self):
        return self.headers.get("Location")

    def json(self):
        return json.loads(self.body)


class _KeepEveryAnswer(urllib.request.HTTPErrorProcessor):
    """3xx, 4xx and 5xx are answers to look at, not errors, and redirects are not followed."""

    def http_response(self, request, response):
        return response

    https_response = http_response


class Browser:
    """An HTTP client with a cookie jar, as a browser without JavaScript: follows nothing by
    itself, so each redirect can be checked."""

    def __init__(self):
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar), _KeepEveryAnswer)

    def get(self, url, headers=None):
        return Answer(self.opener.open(urllib.request.Request(url, headers=headers or {}), timeout=20))

    def post(self, url, fields, headers=None):
        parts = urllib.parse.urlsplit(url)
        request = urllib.request.Request(
            url, data=urllib.parse.urlencode(fields).encode(), method="POST",
            headers={"Origin": "%s://%s" % (parts.scheme, parts.netloc), **(headers or {})})
        return Answer(self.opener.open(request, timeout=20))

    def follow(self, answer, url, limit=10):
        """Follow `answer`'s redirects with GETs; the last answer and its address."""
        for _ in range(limit):
            if answer.status not in (301, 302, 303, 307, 308):
                return answer, url
            url = urllib.parse.urljoin(url, answer.location)
            answer = self.get(url)
        raise AssertionError("more than %d redirects" % limit)

    def cookie(self, name):
        return next((c for c in self.jar if c.name == name), None)

    def forget(self, name):
        for cookie in list(self.jar):
            if cookie.name == name:
                self.jar.clear(cookie.domain, cookie.path, cookie.name)


class _Forms(HTMLParser):
    """Every form of a page: its action and its named inputs' values."""

    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        if tag == "form":
            self.forms.append({"id": attributes.get("id"), "action": attributes.get("action"), "fields": {}})
        elif tag == "input" and self.forms and attributes.get("name"):
            if attributes.get("type") == "checkbox" and "checked" not in attributes:
                return
            self.forms[-1]["fields"][attributes["name"]] = attributes.get("value") or ""


def form(page, action):
    parser = _Forms()
    parser.feed(page)
    for found in parser.forms:
        if found["action"] == action:
            return found["fields"]
    raise AssertionError("no form posting to %s on the page:\n%s" % (action, page[:2000]))


def chromium():
    """Headless Chromium (Debian's, as in Tests/Browser) with *.example.test and *.other.test
    resolving to 127.0.0.1, so the pages and cookies have their real host names."""
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--host-resolver-rules=MAP *.example.test 127.0.0.1, MAP *.other.test 127.0.0.1",
                     "--disable-features=HttpsUpgrades", "--no-proxy-server"]:
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
