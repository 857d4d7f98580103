"""The OpenID Connect provider asking the person again, or not (issue 28), with authlib as the
client (oidc_support.py): consent asked once, again with prompt=consent, "Not you?" on it, and a
refusal; prompt=login and max_age ("Confirm it's you" by a new code, a remembered browser being no
new proof); prompt=none signed out; login_hint, and another person's id_token_hint at logout.

With OIDC_DATABASE_URL (postgres://...) the app runs on PostgreSQL.
"""

import re
import secrets
import time
import unittest
import urllib.parse

import requests
from authlib.jose import jwt

from oidc_support import GRAFANA_CALLBACK, ProviderTestCase


class OIDCPromptTests(ProviderTestCase):
    def test_consent_is_asked_once_and_a_signed_in_person_goes_straight_back(self):
        first, _, browser = self.sign_in(self.client(), phone="4155550101")
        self.assertIn("code=", first)
        # Signed in and agreed: straight back with a code, no page.
        url, _ = self.client().create_authorization_url(self.provider.issuer + "/oidc/authorize")
        response = browser.get(self.local(url), allow_redirects=False)
        self.assertEqual(response.status_code, 302)
        self.assertTrue(response.headers["Location"].startswith(GRAFANA_CALLBACK + "?code="))
        # prompt=none when signed out: login_required, back to the app.
        url, state = self.client().create_authorization_url(self.provider.issuer + "/oidc/authorize", prompt="none")
        response = requests.get(self.local(url), allow_redirects=False)
        self.assertIn("error=login_required", response.headers["Location"])
        self.assertIn("state=" + state, response.headers["Location"])

    def test_prompt_login_and_max_age_sign_in_anew(self):
        session = self.client()
        location, _, browser = self.sign_in(session, phone="4155550108")
        first = jwt.decode(self.fetch(session, location)["id_token"], self.keys)
        for extra in [{"prompt": "login"}, {"max_age": "0"}]:
            time.sleep(1.1)  # auth_time is in whole seconds
            session = self.client()
            session.verifier = secrets.token_urlsafe(48)
            url, _ = session.create_authorization_url(
                self.provider.issuer + "/oidc/authorize", code_verifier=session.verifier, **extra)
            response = browser.get(self.local(url), allow_redirects=False)
            # "Confirm it's you" first, never signed out by the link itself.
            self.assertTrue(response.headers["Location"].startswith("/confirm?next=%2Foidc%2Fauthorize%3F"), extra)
            self.assertEqual(browser.get(self.base + "/home", allow_redirects=False).status_code, 200)
            location, browser = self.browse(url, phone="4155550108", browser=browser)
            again = jwt.decode(self.fetch(session, location)["id_token"], self.keys)
            self.assertGreater(again["auth_time"], first["auth_time"], extra)
            self.assertEqual(again["sub"], first["sub"])

    def test_a_remembered_browser_does_not_pass_prompt_login(self):
        session = self.client("cli")
        location, _, browser = self.sign_in(session, phone="4155550109")
        self.fetch(session, location)
        # The Verify form above remembered this browser (the steps tick the box); an app
        # asking for a new sign-in still gets one by code ("Confirm it's you").
        self.assertTrue(any(c.name == "device" for c in browser.cookies))
        browser.steps = []
        session = self.client("cli")
        location, _, browser = self.sign_in(session, phone="4155550109", browser=browser, extra={"prompt": "login"})
        self.assertEqual(browser.steps, ["confirm"])
        self.assertEqual(jwt.decode(self.fetch(session, location)["id_token"], self.keys)["amr"], ["sms"])

    def test_a_remembered_browser_is_no_new_proof_for_auth_time_or_max_age(self):
        session = self.client("cli")
        location, _, browser = self.sign_in(session, phone="4155550122")
        proved = jwt.decode(self.fetch(session, location)["id_token"], self.keys)["auth_time"]
        time.sleep(2.1)  # auth_time is in whole seconds
        # Log out, then back in by "Continue as" (the remembered phone): no code, no proof.
        browser.post(self.base + "/logout", data={"csrf": browser.cookies.get("csrf")}, allow_redirects=False)
        browser.get(self.base + "/login")
        again = browser.post(self.base + "/login/remembered", data={"csrf": browser.cookies.get("csrf")},
                             allow_redirects=False)
        self.assertEqual(again.headers["Location"], "/home")
        # An app's sign-in now: auth_time is still the code's, not the remembered sign-in's.
        browser.steps = []
        session = self.client("cli")
        location, _, browser = self.sign_in(session, phone="4155550122", browser=browser)
        self.assertEqual(browser.steps, [])
        claims = jwt.decode(self.fetch(session, location)["id_token"], self.keys)
        self.assertEqual(claims["auth_time"], proved)
        # max_age shorter than that proof's age: "Confirm it's you", then a new auth_time.
        session = self.client("cli")
        location, _, browser = self.sign_in(session, phone="4155550122", browser=browser, extra={"max_age": "1"})
        self.assertEqual(browser.steps, ["confirm"])
        self.assertGreater(jwt.decode(self.fetch(session, location)["id_token"], self.keys)["auth_time"], proved)

    def test_login_hint_fills_in_login_and_another_persons_hint_does_not_sign_out(self):
        session = self.client()
        session.verifier = secrets.token_urlsafe(48)
        url, _ = session.create_authorization_url(
            self.provider.issuer + "/oidc/authorize", code_verifier=session.verifier, login_hint="(415) 555-0110")
        browser = requests.Session()
        page = browser.get(self.local(url)).text
        self.assertIn('value="(415) 555-0110"', page)
        # Mallory's ID token, opened in Alice's signed-in browser: "Sign out?" asks first.
        mallory = self.client("cli")
        location, _, _ = self.sign_in(mallory, phone="4155550111")
        hint = self.fetch(mallory, location)["id_token"]
        _, _, alice = self.sign_in(self.client("cli"), phone="4155550112")
        response = alice.get(self.base + "/oidc/logout?id_token_hint=" + hint, allow_redirects=False)
        self.assertEqual(response.headers["Location"], "/logout")
        self.assertEqual(alice.get(self.base + "/home", allow_redirects=False).status_code, 200)

    def test_prompt_consent_asks_again(self):
        _, _, browser = self.sign_in(self.client(), phone="4155550114")
        url, _ = self.client().create_authorization_url(self.provider.issuer + "/oidc/authorize", prompt="consent")
        response = browser.get(self.local(url), allow_redirects=False)
        self.assertIn("/oidc/consent?", response.headers["Location"])

    def test_consent_names_the_number_and_not_you_signs_in_as_someone_else(self):
        first_session = self.client()
        location, _, browser = self.sign_in(first_session, phone="4155550120")
        first = jwt.decode(self.fetch(first_session, location)["id_token"], self.keys)
        session = self.client()
        session.verifier = secrets.token_urlsafe(48)
        url, _ = session.create_authorization_url(
            self.provider.issuer + "/oidc/authorize", prompt="consent", code_verifier=session.verifier)
        response = browser.get(self.local(url), allow_redirects=False)
        page = browser.get(self.local(urllib.parse.urljoin(self.base + "/", response.headers["Location"]))).text
        self.assertIn('You&#39;re signed in as <strong class="nowrap">(415) 555-0120</strong>.', page.replace("'", "&#39;"))
        self.assertIn('id="consent-not-you"', page)
        request = re.search(r'name="request" value="([^"]*)"', page).group(1)
        request = request.replace("&amp;", "&").replace("&#x3D;", "=").replace("&#61;", "=")
        switched = browser.post(self.base + "/oidc/consent", data={
            "csrf": browser.cookies.get("csrf"), "request": request, "decision": "switch"}, allow_redirects=False)
        self.assertEqual(switched.status_code, 303)
        self.assertTrue(switched.headers["Location"].startswith("/oidc/authorize?"), switched.headers["Location"])
        # Signed out here: Home is gone, and the app's sign-in goes on at Login as another number,
        # which neither greets the person who said "Not you?" nor offers to continue as them.
        self.assertEqual(browser.get(self.base + "/home", allow_redirects=False).headers["Location"], "/login")
        login = browser.get(self.base + "/login").text
        self.assertNotIn("555-0120", login)
        self.assertNotIn("Welcome back", login)
        location, browser = self.browse(
            urllib.parse.urljoin(self.base + "/", switched.headers["Location"]), phone="4155550121", browser=browser)
        second = jwt.decode(self.fetch(session, location)["id_token"], self.keys)
        self.assertNotEqual(second["sub"], first["sub"])
        self.assertEqual(second["phone_number"], "+14155550121")

    def test_denied_consent_is_access_denied(self):
        location, _, _ = self.sign_in(self.client(), phone="4155550102", allow=False)
        self.assertIn("error=access_denied", location)


if __name__ == "__main__":
    unittest.main()
