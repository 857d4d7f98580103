"""Each attack of issue 28 on the OpenID Connect provider, with authlib as the client
(oidc_support.py): a code used twice (which revokes what it issued), a redirect URI with an extra
path or query and an unknown client, PKCE missing or plain, a PKCE downgrade, a changed state and
another client's code, a wrong secret, `alg: none`, HS256 and tampered tokens at userinfo, and an
open redirect through the post-logout redirect.

With OIDC_DATABASE_URL (postgres://...) the app runs on PostgreSQL.
"""

import secrets
import unittest
import urllib.parse

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import jwt

from oidc_support import CLI_CALLBACK, GRAFANA_CALLBACK, SECRET, ProviderTestCase, decode_part, encode_part


class OIDCAttackTests(ProviderTestCase):
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
        none = encode_part({"alg": "none", "typ": "at+jwt"}) + "." + payload + "."
        hs256 = jwt.encode({"alg": "HS256"}, decode_part(payload), secrets.token_bytes(32)).decode()
        for forged in [none, hs256,
                       header + "." + encode_part({"sub": "someone"}) + "." + token["access_token"].split(".")[2]]:
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
