"""What the OpenID Connect tests share (issue 28): the real binary as the provider (`Provider`:
SMS test mode, so every code is 123456, and three registered clients: Grafana, confidential; the
CLI, public; Legacy, public and signed with RS256), started once per test class, and the steps of
a reference client's sign-in (`ProviderTestCase`): authlib's OAuth2Session (PKCE S256,
client_secret_basic and client_secret_post) through the real Login, Verify and consent pages, then
the code exchanged.

With OIDC_DATABASE_URL (postgres://...) the app runs on PostgreSQL.
"""

import hashlib
import html
import json
import os
import re
import secrets
import sys
import tempfile
import unittest
import urllib.parse

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from jws_parts import decode_part, encode_part  # noqa: E402,F401 (decode_part, encode_part: for the tests)
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


class ProviderTestCase(unittest.TestCase):
    """A test class with a provider of its own (`cls.provider`, `cls.base`), its discovery document
    and its keys, and the reference client's steps."""

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
