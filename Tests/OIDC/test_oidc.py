"""The OpenID Connect provider (issue 28) against a reference client: authlib's OAuth2Session
(PKCE S256, client_secret_basic and client_secret_post) signs a person in through the real
binary's Login and Verify (SMS test mode: every code is 123456), exchanges the code, checks the
ID token's signature against the JWKS with authlib.jose (ES256, and RS256 for a client registered
for it), calls userinfo, refreshes (a narrower scope too). When the provider asks the person
again (consent, prompt, max_age, login_hint): test_oidc_prompts.py; each attack of the issue:
test_oidc_attacks.py; the provider and the client's steps: oidc_support.py.

With OIDC_DATABASE_URL (postgres://...) the app runs on PostgreSQL.
    .venv/bin/python -m unittest discover --start-directory Tests/OIDC -v
"""

import unittest
import urllib.parse

import requests
from authlib.jose import jwt

from oidc_support import SECRET, ProviderTestCase, decode_part


class OIDCTests(ProviderTestCase):
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
        header = decode_part(token["id_token"].split(".")[0])
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


if __name__ == "__main__":
    unittest.main()
