"""Gateway mode end to end: a real nginx (`auth_request`) and a real Caddy (`forward_auth`) in
front of a tiny upstream, with Phone Login deciding who passes (issue 17, part 4). This module:
signing in from a protected address and back to it (by a code, in headless Chromium, with a
remembered phone), what the app learns (Remote-User, the assertion, checked with the docs' own
code), and signing out. What is refused: test_gateway_access.py; the docs' commands and Swift
code: test_gateway_docs.py.

Each proxy runs the configuration of docs/GATEWAY.md (see proxies.py), on 127.0.0.1 and a free
port, with the protected hosts app.example.test (anyone signed in), staff.example.test (one
number), family.example.test (one area code) and outside.other.test (outside the gateway
domain), and Phone Login itself on login.example.test. The names resolve to 127.0.0.1 in this
process and, through --host-resolver-rules, in headless Chromium, so the cookie's Domain is
really example.test. Run by ./scripts/gateway-tests.
"""

import json
import unittest
import urllib.parse

import jwt
from selenium.common.exceptions import (
    NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import gateway
import proxies
from clients import Browser, chromium, form
from doc_blocks import DOC_APP_HOST, DOC_PUBLIC_URL, replace, tested_block
from gateway import APP_HOST, FAMILY_HOST
from gateway_case import GatewayBehaviour, decode_part, new_number


def verify_with_the_docs_snippet(stack, token, host):
    """Runs docs/GATEWAY.md's Python block, with this stack's names, on `token`: the number."""
    source = tested_block("python")
    source = replace(source, '"%s"' % DOC_PUBLIC_URL, json.dumps(stack.public_url), "python")
    source = replace(source, '"%s"' % DOC_APP_HOST, json.dumps(host), "python")
    namespace = {}
    exec(compile(source, "docs/GATEWAY.md (python block)", "exec"), namespace)
    return namespace["signed_in_phone"]({"Phone-Login-Assertion": token})


class SignInBehaviour(GatewayBehaviour):
    """Signing in through the gateway and out again, for any proxy."""

    # Signed out

    def test_signed_out_is_sent_to_login_with_the_original_address_encoded(self):
        original = self.url(APP_HOST, "/signed-out/only?tag=a&sort=new%20first")
        answer = Browser().get(original)
        self.assertEqual(answer.status, 302, answer.body[:500])
        login, query = answer.location.split("?", 1)
        self.assertEqual(login, self.login_url("/login"))
        self.assertEqual(urllib.parse.parse_qs(query), {"rd": [original]})
        self.assertFalse([r for r in self.stack.upstream.requests() if r["path"].startswith("/signed-out/")],
                         "the app is not reached signed out")
        page = Browser().get(urllib.parse.urljoin(original, answer.location))
        self.assertEqual(page.status, 200)
        self.assertIn('id="login-form"', page.body)

    # Signing in and back

    def wait_for_url(self, driver, wait, url):
        try:
            wait.until(lambda d: d.current_url == url)
        except TimeoutException:
            self.fail("Chromium stayed at %s instead of %s:\n%s" % (
                driver.current_url, url, driver.find_element(By.TAG_NAME, "body").text[:1000]))

    def test_in_headless_chromium_from_the_app_to_login_and_back_then_logout(self):
        driver = chromium()
        self.addCleanup(driver.quit)
        wait = WebDriverWait(driver, 15, ignored_exceptions=[
            StaleElementReferenceException, NoSuchElementException, WebDriverException])
        original = self.url(APP_HOST, "/browser/page?x=1&y=two")
        driver.get(original)
        wait.until(lambda d: d.current_url.startswith(self.login_url("/login?rd=")))
        phone = new_number(area="530")  # family.example.test admits area code 530
        since = len(self.stack.webapp.outbox())
        driver.find_element(By.ID, "phone").send_keys(phone[2:])
        driver.find_element(By.ID, "next-button").click()
        wait.until(lambda d: d.current_url == self.login_url("/verify"))
        code = self.stack.webapp.code_for(phone, since)
        wait.until(lambda d: d.switch_to.active_element.get_attribute("id") == "d1")
        for digit in code:  # verify.js sends the form at the sixth digit
            driver.switch_to.active_element.send_keys(digit)
        self.wait_for_url(driver, wait, original)
        seen = json.loads(driver.find_element(By.TAG_NAME, "pre").text)
        headers = {name.lower(): value for name, value in seen["headers"]}
        self.assertEqual(seen["path"], "/browser/page?x=1&y=two")
        self.assertEqual(headers["remote-user"], phone)
        self.assertEqual(verify_with_the_docs_snippet(self.stack, headers["phone-login-assertion"], APP_HOST), phone)
        session = [c for c in driver.get_cookies() if c["name"] == "session"]
        self.assertEqual([c["domain"].lstrip(".") for c in session], [gateway.DOMAIN])
        self.assertTrue(session[0]["httpOnly"])
        # Another protected app on the domain: no second sign-in.
        driver.get(self.url(FAMILY_HOST, "/second"))
        self.assertEqual(json.loads(driver.find_element(By.TAG_NAME, "pre").text)["path"], "/second")
        # Log out on Home; the app sends the browser to Login again.
        driver.get(self.login_url("/home"))
        driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        wait.until(lambda d: d.current_url.startswith(self.login_url("/login")))
        driver.get(original)
        wait.until(lambda d: d.current_url.startswith(self.login_url("/login?rd=")))

    def test_sign_in_with_a_code_returns_to_the_original_address_and_the_app_learns_who(self):
        browser = Browser()
        original = self.url(APP_HOST, "/notes/2026?tag=a&sort=new%20first")
        answer, phone = self.sign_in(browser, original)
        self.assertEqual(urllib.parse.urljoin(self.login_url("/verify"), answer.location), original)
        cookie = browser.cookie("session")
        self.assertIsNotNone(cookie, [c.name for c in browser.jar])
        self.assertEqual(cookie.domain.lstrip("."), gateway.DOMAIN)
        self.assertTrue(cookie.domain_specified)

        # A client's own Remote-User and assertion never reach the app.
        seen, headers = self.seen_by_upstream(browser.get(original, headers={
            "Remote-User": "+12125550000", "Phone-Login-Assertion": "forged.forged.forged"}))
        self.assertEqual(seen["path"], "/notes/2026?tag=a&sort=new%20first")
        self.assertEqual(headers["remote-user"], [phone])
        self.assertEqual(len(headers["phone-login-assertion"]), 1)
        self.assertNotIn("remote-name", headers, "no name given: none passed on")
        token = headers["phone-login-assertion"][0]

        # The docs' own verification code accepts it for this host and refuses it for another.
        self.assertEqual(verify_with_the_docs_snippet(self.stack, token, APP_HOST), phone)
        with self.assertRaises(jwt.InvalidAudienceError):
            verify_with_the_docs_snippet(self.stack, token, FAMILY_HOST)

        # Its header and claims, against the JWKS.
        header = decode_part(token.split(".")[0])
        claims = decode_part(token.split(".")[1])
        self.assertEqual(header["alg"], "ES256")
        jwks = browser.get(self.login_url("/.well-known/jwks.json"))
        self.assertEqual(jwks.status, 200)
        self.assertIn("json", jwks.headers.get("Content-Type", ""))
        keys = jwks.json()["keys"]
        key = next(k for k in keys if k["kid"] == header["kid"])
        self.assertEqual({k: key[k] for k in ("kty", "crv", "alg", "use")},
                         {"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig"})
        self.assertNotIn("d", key)
        verified = jwt.decode(token, jwt.PyJWK(key).key, algorithms=["ES256"], audience=APP_HOST,
                              issuer=self.stack.public_url)
        self.assertEqual(verified, claims)
        self.assertEqual(claims["phone_number"], phone)
        self.assertIsInstance(claims["sub"], str)
        self.assertLessEqual(claims["exp"] - claims["iat"], 300)
        self.assertGreater(claims["exp"], claims["iat"])
        # A signature that is not Phone Login's does not verify.
        tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
        with self.assertRaises(jwt.PyJWTError):
            verify_with_the_docs_snippet(self.stack, tampered, APP_HOST)

        # Home on the login host says who, and is not sent anywhere else.
        home = browser.get(self.login_url("/home"))
        self.assertEqual(home.status, 200)
        self.assertIn(phone[-4:], home.body)

    def test_a_name_given_on_home_reaches_the_app_in_the_assertion_and_remote_name(self):
        browser, phone = self.signed_in_browser()
        name = "Jos\u00e9 N\u00fa\u00f1ez"
        home = browser.get(self.login_url("/home"))
        fields = form(home.body, "/home/name")
        fields["name"] = name
        self.assertEqual(browser.post(self.login_url("/home/name"), fields).status, 303)
        seen, headers = self.seen_by_upstream(browser.get(self.url(APP_HOST, "/named")))
        claims = decode_part(headers["phone-login-assertion"][0].split(".")[1])
        self.assertEqual(claims.get("name"), name)
        # nginx hands Remote-Name on; the docs' Caddyfile leaves it out (see docs/GATEWAY.md).
        if self.proxy_class is proxies.Nginx:
            self.assertEqual(headers.get("remote-name"), [name])
        else:
            self.assertNotIn("remote-name", headers)
        # Forged by a client: never passed on.
        seen, headers = self.seen_by_upstream(browser.get(self.url(APP_HOST, "/named"), headers={
            "Remote-Name": "Mallory"}))
        self.assertNotIn("Mallory", headers.get("remote-name", []))

    def test_a_query_with_several_parameters_survives_the_round_trip(self):
        browser = Browser()
        original = self.url(APP_HOST, "/search?q=a%26b&page=2&sort=new")
        answer, _ = self.sign_in(browser, original)
        self.assertEqual(urllib.parse.urljoin(self.login_url("/verify"), answer.location), original)
        seen, _ = self.seen_by_upstream(browser.get(original))
        self.assertEqual(seen["path"], "/search?q=a%26b&page=2&sort=new")

    def test_a_remembered_phone_returns_to_the_original_address(self):
        browser, phone = self.signed_in_browser()
        browser.forget("session")  # the session ends (expired, say); the remembered phone stays
        original = self.url(APP_HOST, "/after/remembered?x=1")
        answer = browser.get(original)
        self.assertEqual(answer.status, 302)
        login, login_url = browser.follow(answer, original)
        since = len(self.stack.webapp.outbox())
        # "Continue as (•••) •••-0123", the one way in without a code (Next would send one).
        self.assertIn("Continue as (•••) •••-" + phone[-4:], login.body)
        fields = form(login.body, "/login/remembered")
        answer = browser.post(urllib.parse.urljoin(login_url, "/login/remembered"), fields)
        self.assertEqual(answer.status, 303, answer.body[:500])
        self.assertEqual(urllib.parse.urljoin(login_url, answer.location), original)
        self.assertEqual(len(self.stack.webapp.outbox()), since, "a remembered phone is sent no code")
        seen, headers = self.seen_by_upstream(browser.get(original))
        self.assertEqual(headers["remote-user"], [phone])

    def test_signed_in_login_with_rd_goes_straight_there(self):
        browser, _ = self.signed_in_browser()
        target = self.url(APP_HOST, "/straight?there=1")
        answer = browser.get(self.login_url("/login?rd=" + urllib.parse.quote(target, safe="")))
        self.assertIn(answer.status, (302, 303), answer.body[:500])
        self.assertEqual(answer.location, target)

    # Signing out

    def test_logout_signs_out_at_the_app_too(self):
        browser, phone = self.signed_in_browser()
        app = self.url(APP_HOST, "/private")
        self.assertEqual(browser.get(app).status, 200)
        stolen = browser.cookie("session").value
        home = browser.get(self.login_url("/home"))
        answer = browser.post(self.login_url("/logout"), form(home.body, "/logout"))
        self.assertEqual(answer.status, 303, answer.body[:500])
        answer = browser.get(app)
        self.assertEqual(answer.status, 302)
        self.assertTrue(answer.location.startswith(self.login_url("/login?rd=")), answer.location)
        # A copy of the old cookie is dead on the server, not just forgotten by the browser.
        replay = Browser().get(app, headers={"Cookie": "session=" + stolen})
        self.assertEqual(replay.status, 302)
        self.assertTrue(replay.location.startswith(self.login_url("/login?rd=")), replay.location)

    def test_get_logout_shows_a_sign_out_button(self):
        browser, _ = self.signed_in_browser()
        page = browser.get(self.login_url("/logout"))
        self.assertEqual(page.status, 200)
        form(page.body, "/logout")
        self.assertEqual(browser.get(self.url(APP_HOST, "/still")).status, 200, "a GET signs nobody out")


class NginxGatewayTests(SignInBehaviour, unittest.TestCase):
    """nginx auth_request, configured as docs/GATEWAY.md says."""

    proxy_class = proxies.Nginx


class CaddyGatewayTests(SignInBehaviour, unittest.TestCase):
    """Caddy forward_auth, configured as docs/GATEWAY.md says."""

    proxy_class = proxies.Caddy


if __name__ == "__main__":
    unittest.main()
