"""The OpenID Connect provider (issue 28) against a reference client: authlib's OAuth2Session
(PKCE S256, client_secret_basic and client_secret_post) signs a person in through the real
binary's Login and Verify (SMS test mode: every code is 123456), exchanges the code, checks the
ID token's signature against the JWKS with authlib.jose, calls userinfo, refreshes. Then each
attack of the issue: a code used twice (which revokes what it issued), a redirect URI with an
extra path or query, a PKCE downgrade, a changed or missing state, a token for another client,
`alg: none` and HS256 tokens at userinfo, an open redirect through the post-logout redirect.

With OIDC_DATABASE_URL (postgres://...) the app runs on PostgreSQL.
    .venv/bin/python -m unittest discover --start-directory Tests/OIDC -v
"""

import base64
import hashlib
import html
import json
import os
import re
import secrets
import sys
import tempfile
import time
import unittest
import urllib.parse

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import WebappProcess, free_port  # noqa: E402

DATABASE_URL = os.environ.get("OIDC_DATABASE_URL") or None
SECRET = "grafana-secret-" + "x" * 32
GRAFANA_CALLBACK = "https://grafana.example.com/login/generic_oauth"
CLI_CALLBACK = "http://127.0.0.1:8765/callback"



class Provider(WebappProcess):
    def __init__(self):
        clients = {"clients": [
            {"client_id": "grafana", "name": "Grafana", "redirect_uris": [GRAFANA_CALLBACK],
             "client_secret_sha256": hashlib.sha256(SECRET.encode()).hexdigest(),
             "post_logout_redirect_uris": ["https://grafana.example.com/"]},
            {"client_id": "cli", "name": "The CLI", "redirect_uris": [CLI_CALLBACK], "public": True,
             "first_party": True},
            {"client_id": "legacy", "name": "Legacy", "redirect_uris": [CLI_CALLBACK], "public": True,
             "first_party": True, "id_token_signed_response_alg": "RS256"},
        ]}
        handle, self.clients_path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w") as file:
            json.dump(clients, file)
        port = free_port()
        super().__init__(
            # The suite asks for more codes from 127.0.0.1 than one client may in an hour (20).
            ["--sms", "test", "--public-url", "http://localhost:%d" % port, "--oidc-clients", self.clients_path,
             "--max-codes-per-client", "200"],
            port=port, database_url=DATABASE_URL, prefix="webapp-oidc-")
        self.issuer = "http://localhost:%d" % port

    def stop(self):
        super().stop()
        os.unlink(self.clients_path)


class OIDCTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.provider = Provider()
        cls.base = cls.provider.url
        cls.discovery = requests.get(cls.base + "/.well-known/openid-configuration").json()
        cls.keys = JsonWebKey.import_key_set(requests.get(cls.base + "/.well-known/jwks.json").json())

    @classmethod
    def tearDownClass(cls):
        cls.provider.stop()

    def local(self, url):
        """The provider's own addresses (named by its issuer, localhost) reached on 127.0.0.1."""
        return url.replace(self.provider.issuer, self.base)

    def client(self, client_id="grafana", **extra):
        if client_id == "grafana":
            return OAuth2Session(client_id, SECRET, scope="openid phone offline_access", redirect_uri=GRAFANA_CALLBACK,
                                 code_challenge_method="S256", **extra)
        return OAuth2Session(client_id, scope="openid phone offline_access", redirect_uri=CLI_CALLBACK,
                             code_challenge_method="S256", token_endpoint_auth_method="none", **extra)

    def browse(self, url, phone="5305550123", allow=True, browser=None):
        """A browser that follows the provider's redirects, signs in by text and answers the
        consent page; returns the redirect to the client (its Location) and the browser."""
        browser = browser or requests.Session()
        url = self.local(url)
        for _ in range(12):
            response = browser.get(url, allow_redirects=False) if not isinstance(url, tuple) else browser.post(
                url[0], data=url[1], allow_redirects=False)
            location = response.headers.get("Location")
            if response.status_code in (302, 303) and location:
                if location.startswith(("https://grafana.example.com", CLI_CALLBACK)):
                    return location, browser
                url = self.local(urllib.parse.urljoin(self.base + "/", location))
                continue
            page = response.text
            csrf = browser.cookies.get("csrf")
            if 'action="/logout"' in page and 'id="login-form"' not in page:
                # prompt=login or max_age: "Sign out?" first, then Login.
                url = (self.base + "/logout", {"csrf": csrf})
            elif 'id="login-form"' in page:
                self.assertIn("Sign in to", page)
                url = (self.base + "/login", {"csrf": csrf, "phone": phone})
            elif 'action="/confirm/send"' in page or 'action="/confirm/code"' in page:
                # "Confirm it's you": a new code to the signed-in number, the person stays signed in.
                next_path = html.unescape(re.search(r'name="next" value="([^"]*)"', page).group(1))
                if 'action="/confirm/code"' in page:
                    url = (self.base + "/confirm/code", {"csrf": csrf, "next": next_path, "code": "123456"})
                else:
                    browser.steps = getattr(browser, "steps", []) + ["confirm"]
                    url = (self.base + "/confirm/send", {"csrf": csrf, "next": next_path})
            elif 'name="d1"' in page or "/verify" in response.url:
                browser.steps = getattr(browser, "steps", []) + ["verify"]
                url = (self.base + "/verify", {"csrf": csrf, "code": "123456", "remember": "on"})
            elif 'action="/oidc/consent"' in page:
                self.assertIn("Grafana wants", page)
                request = re.search(r'name="request" value="([^"]*)"', page).group(1)
                request = request.replace("&amp;", "&").replace("&#x3D;", "=").replace("&#61;", "=")
                url = (self.base + "/oidc/consent",
                       {"csrf": csrf, "request": request, "decision": "allow" if allow else "deny"})
            else:
                self.fail("unexpected page %s: %s" % (response.url, page[:300]))
        self.fail("too many redirects")

    def sign_in(self, session, pkce=True, extra=None, **browse):
        """Through the provider with PKCE S256 (authlib adds the challenge when given a verifier,
        kept on the session for `fetch`)."""
        verifier = secrets.token_urlsafe(48) if pkce else None
        session.verifier = verifier
        url, state = session.create_authorization_url(
            self.provider.issuer + "/oidc/authorize", nonce="n-0S6", code_verifier=verifier, **(extra or {}))
        location, browser = self.browse(url, **browse)
        return location, state, browser

    def fetch(self, session, location):
        """The code in `location` exchanged by authlib, with the verifier when there was one."""
        extra = {"code_verifier": session.verifier} if session.verifier else {}
        return session.fetch_token(self.base + "/oidc/token", authorization_response=location,
                                   grant_type="authorization_code", **extra)

    def test_discovery_names_the_endpoints_and_s256(self):
        self.assertEqual(self.discovery["issuer"], self.provider.issuer)
        self.assertEqual(self.discovery["code_challenge_methods_supported"], ["S256"])
        self.assertTrue(self.discovery["authorization_response_iss_parameter_supported"])
        # OpenID Connect Discovery 1.0 §3: RS256 MUST be listed.
        self.assertEqual(self.discovery["id_token_signing_alg_values_supported"], ["ES256", "RS256"])

    def test_a_client_registered_for_rs256_gets_rs256_id_tokens_authlib_verifies(self):
        session = self.client("legacy")
        location, _, _ = self.sign_in(session)
        token = self.fetch(session, location)
        header = json.loads(base64.urlsafe_b64decode(token["id_token"].split(".")[0] + "=="))
        self.assertEqual(header["alg"], "RS256")
        self.assertIn(header["kid"], [key["kid"] for key in requests.get(self.base + "/.well-known/jwks.json").json()["keys"]])
        claims = jwt.decode(token["id_token"], self.keys)
        claims.validate()
        self.assertEqual(claims["aud"], "legacy")
        # A token whose RS256 signature is bent is refused by the same check.
        head, body, signature = token["id_token"].split(".")
        bent = head + "." + body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
        with self.assertRaises(Exception):
            jwt.decode(bent, self.keys)

    def test_code_flow_id_token_userinfo_refresh_with_authlib(self):
        session = self.client()
        location, state, _ = self.sign_in(session)
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        self.assertEqual(query["state"], state)
        self.assertEqual(query["iss"], self.provider.issuer)  # RFC 9207
        token = self.fetch(session, location)
        claims = jwt.decode(token["id_token"], self.keys)
        claims.validate()
        self.assertEqual(claims["iss"], self.provider.issuer)
        self.assertEqual(claims["aud"], "grafana")
        self.assertEqual(claims["nonce"], "n-0S6")
        self.assertEqual(claims["phone_number"], "+15305550123")
        self.assertIs(claims["phone_number_verified"], True)
        self.assertEqual(claims["amr"], ["sms"])
        self.assertNotIn("5305550123", claims["sub"])
        userinfo = session.get(self.base + "/oidc/userinfo").json()
        self.assertEqual(userinfo, {"sub": claims["sub"], "phone_number": "+15305550123",
                                    "phone_number_verified": True})
        # POST userinfo too.
        self.assertEqual(requests.post(self.base + "/oidc/userinfo", headers={
            "Authorization": "Bearer " + token["access_token"]}).json()["sub"], claims["sub"])
        refreshed = session.refresh_token(self.base + "/oidc/token", refresh_token=token["refresh_token"])
        self.assertNotEqual(refreshed["refresh_token"], token["refresh_token"])
        # The old refresh token again: refused, and the new one dies with its family.
        again = requests.post(self.base + "/oidc/token", data={
            "grant_type": "refresh_token", "refresh_token": token["refresh_token"]}, auth=("grafana", SECRET))
        self.assertEqual((again.status_code, again.json()["error"]), (400, "invalid_grant"))
        dead = requests.post(self.base + "/oidc/token", data={
            "grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"]}, auth=("grafana", SECRET))
        self.assertEqual(dead.json()["error"], "invalid_grant")

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

    def test_a_narrower_refresh_keeps_the_grant_and_unknown_scopes_cost_nothing(self):
        session = self.client()
        location, _, _ = self.sign_in(session, phone="4155550113")
        token = self.fetch(session, location)
        narrow = requests.post(self.base + "/oidc/token", data={
            "grant_type": "refresh_token", "refresh_token": token["refresh_token"], "scope": "openid email"},
            auth=("grafana", SECRET)).json()
        self.assertEqual(narrow["scope"], "openid")
        wide = requests.post(self.base + "/oidc/token", data={
            "grant_type": "refresh_token", "refresh_token": narrow["refresh_token"]}, auth=("grafana", SECRET)).json()
        self.assertEqual(wide["scope"], "openid phone offline_access")
        self.assertIn("refresh_token", wide)

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

    def test_a_public_client_with_pkce_and_a_code_used_twice(self):
        session = self.client("cli")
        location, _, _ = self.sign_in(session, phone="4155550103")
        token = self.fetch(session, location)
        self.assertIn("id_token", token)
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]
        replay = requests.post(self.base + "/oidc/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": CLI_CALLBACK, "client_id": "cli",
            "code_verifier": session.verifier})
        self.assertEqual((replay.status_code, replay.json()["error"]), (400, "invalid_grant"))
        # What the code issued is revoked: the access token no longer works.
        response = requests.get(self.base + "/oidc/userinfo", headers={"Authorization": "Bearer " + token["access_token"]})
        self.assertEqual(response.status_code, 401)
        self.assertIn("invalid_token", response.headers["WWW-Authenticate"])

    def test_bent_redirect_uris_and_unknown_clients_get_a_page_never_a_redirect(self):
        for redirect in [GRAFANA_CALLBACK + "/extra", GRAFANA_CALLBACK + "?next=https://evil.example",
                         "https://evil.example/cb", GRAFANA_CALLBACK.upper()]:
            url = self.base + "/oidc/authorize?" + urllib.parse.urlencode({
                "client_id": "grafana", "redirect_uri": redirect, "response_type": "code", "scope": "openid",
                "state": "s"})
            response = requests.get(url, allow_redirects=False)
            self.assertEqual(response.status_code, 400, redirect)
            self.assertNotIn("Location", response.headers)
        response = requests.get(self.base + "/oidc/authorize?client_id=nobody&redirect_uri=" + CLI_CALLBACK,
                                allow_redirects=False)
        self.assertEqual(response.status_code, 400)

    def test_pkce_is_required_of_public_clients_and_plain_is_refused(self):
        base = {"client_id": "cli", "redirect_uri": CLI_CALLBACK, "response_type": "code", "scope": "openid",
                "state": "st"}
        for extra in [{}, {"code_challenge": "a" * 43, "code_challenge_method": "plain"},
                      {"code_challenge": "a" * 43}]:
            response = requests.get(self.base + "/oidc/authorize?" + urllib.parse.urlencode({**base, **extra}),
                                    allow_redirects=False)
            query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(response.headers["Location"]).query))
            self.assertEqual((query["error"], query["state"]), ("invalid_request", "st"), extra)

    def test_a_verifier_for_a_code_without_a_challenge_is_a_downgrade(self):
        session = OAuth2Session("grafana", SECRET, scope="openid", redirect_uri=GRAFANA_CALLBACK)
        location, _, _ = self.sign_in(session, pkce=False, phone="4155550104")
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]
        response = requests.post(self.base + "/oidc/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": GRAFANA_CALLBACK,
            "code_verifier": "v" * 43}, auth=("grafana", SECRET))
        self.assertEqual(response.json()["error"], "invalid_grant")

    def test_a_changed_state_is_caught_by_the_client_and_another_clients_code_is_refused(self):
        session = self.client()
        location, _, _ = self.sign_in(session, phone="4155550105")
        with self.assertRaises(Exception):
            session.fetch_token(self.base + "/oidc/token", authorization_response=location, state="something-else",
                                grant_type="authorization_code", code_verifier=session.verifier)
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]
        response = requests.post(self.base + "/oidc/token", data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": CLI_CALLBACK, "client_id": "cli",
            "code_verifier": "v" * 43})
        self.assertEqual(response.json()["error"], "invalid_grant")

    def test_wrong_secrets_and_forged_tokens(self):
        response = requests.post(self.base + "/oidc/token", data={"grant_type": "refresh_token", "refresh_token": "x"},
                                 auth=("grafana", "wrong"))
        self.assertEqual((response.status_code, response.json()["error"]), (401, "invalid_client"))
        self.assertIn("Basic", response.headers["WWW-Authenticate"])
        session = self.client()
        location, _, _ = self.sign_in(session, phone="4155550106")
        token = self.fetch(session, location)
        header, payload, _ = token["access_token"].split(".")

        def b64(data):
            return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

        none = b64({"alg": "none", "typ": "at+jwt"}) + "." + payload + "."
        hs256 = jwt.encode({"alg": "HS256"}, json.loads(base64.urlsafe_b64decode(payload + "==")),
                           secrets.token_bytes(32)).decode()
        for forged in [none, hs256, header + "." + b64({"sub": "someone"}) + "." + token["access_token"].split(".")[2]]:
            response = requests.get(self.base + "/oidc/userinfo", headers={"Authorization": "Bearer " + forged})
            self.assertEqual(response.status_code, 401)

    def test_end_session_only_to_registered_addresses(self):
        session = self.client()
        location, _, browser = self.sign_in(session, phone="4155550107")
        token = self.fetch(session, location)
        evil = browser.get(self.base + "/oidc/logout?" + urllib.parse.urlencode({
            "id_token_hint": token["id_token"], "post_logout_redirect_uri": "https://evil.example/"}),
            allow_redirects=False)
        self.assertEqual(evil.headers["Location"], "/login")
        session = self.client()
        location, _, browser = self.sign_in(session, phone="4155550107", browser=browser)
        token = self.fetch(session, location)
        good = browser.get(self.base + "/oidc/logout?" + urllib.parse.urlencode({
            "id_token_hint": token["id_token"], "post_logout_redirect_uri": "https://grafana.example.com/",
            "state": "bye"}), allow_redirects=False)
        self.assertEqual(good.headers["Location"], "https://grafana.example.com/?state=bye")
        self.assertEqual(browser.get(self.base + "/home", allow_redirects=False).headers["Location"], "/login")
        # No hint: the "Sign out?" page asks first.
        self.assertEqual(requests.get(self.base + "/oidc/logout", allow_redirects=False).headers["Location"],
                         "/logout")


if __name__ == "__main__":
    unittest.main()
