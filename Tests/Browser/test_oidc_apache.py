"""Sign in with your phone in another app (issue 28), as a person meets it, in both engines: Apache
httpd with Debian's mod_auth_openidc protects a page; opening it leads to our Login ("Sign in to Intranet"), Verify, the consent page once ("Intranet wants your phone number"), and
back to the protected page, which shows the claims mod_auth_openidc took from our ID token.
A second visit goes straight through; after Log out here, Apache's own session is ended by a
logout token (Back-Channel Logout), and the page asks to sign in again.

Apache runs as a plain process on a config of the test's own (127.0.0.1 only); the app is the
real binary with --oidc-clients and --public-url http://localhost:PORT.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from selenium.webdriver.common.by import By

import base
from base import free_port
from engines import browser

MODULES = "/usr/lib/apache2/modules"
SECRET = "apache-secret-" + "y" * 32



class Apache:
    """httpd on 127.0.0.1, its /protected/ behind mod_auth_openidc, showing the claims."""

    def __init__(self, port, provider):
        self.folder = tempfile.mkdtemp(prefix="apache-oidc-")
        os.chmod(self.folder, 0o755)
        www = os.path.join(self.folder, "www", "protected")
        os.makedirs(www)
        for path in [os.path.join(self.folder, "www"), www]:
            os.chmod(path, 0o755)
        with open(os.path.join(www, "index.html"), "w") as page:
            page.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Intranet</title></head>'
                       '<body><main><h1>Intranet</h1>'
                       '<p id="phone"><!--#echo var="OIDC_CLAIM_phone_number" --></p>'
                       '<p id="verified"><!--#echo var="OIDC_CLAIM_phone_number_verified" --></p>'
                       '<p id="amr"><!--#echo var="OIDC_CLAIM_amr" --></p>'
                       '<p id="sub"><!--#echo var="OIDC_CLAIM_sub" --></p></main></body></html>')
        os.chmod(os.path.join(www, "index.html"), 0o644)
        self.config = os.path.join(self.folder, "httpd.conf")
        user = "User www-data\nGroup www-data\n" if os.getuid() == 0 else ""
        with open(self.config, "w") as config:
            config.write(f"""ServerRoot /etc/apache2
ServerName localhost
PidFile {self.folder}/httpd.pid
ErrorLog {self.folder}/error.log
LogLevel warn auth_openidc:info
Listen 127.0.0.1:{port}
{user}LoadModule mpm_event_module {MODULES}/mod_mpm_event.so
LoadModule authz_core_module {MODULES}/mod_authz_core.so
LoadModule authn_core_module {MODULES}/mod_authn_core.so
LoadModule authz_user_module {MODULES}/mod_authz_user.so
LoadModule include_module {MODULES}/mod_include.so
LoadModule mime_module {MODULES}/mod_mime.so
LoadModule dir_module {MODULES}/mod_dir.so
LoadModule auth_openidc_module {MODULES}/mod_auth_openidc.so
TypesConfig /etc/mime.types
DocumentRoot {self.folder}/www
DirectoryIndex index.html
OIDCProviderMetadataURL {provider}/.well-known/openid-configuration
OIDCClientID intranet
OIDCClientSecret {SECRET}
OIDCRedirectURI http://localhost:{port}/protected/redirect_uri
OIDCCryptoPassphrase {os.urandom(16).hex()}
OIDCScope "openid phone"
OIDCPKCEMethod S256
OIDCSessionInactivityTimeout 600
<Location /protected>
    AuthType openid-connect
    Require valid-user
    Options +Includes
    SetOutputFilter INCLUDES
</Location>
""")
        subprocess.run(["apache2", "-f", self.config, "-k", "start"], check=True, capture_output=True)
        self.url = "http://localhost:%d" % port

    def log(self):
        with open(os.path.join(self.folder, "error.log")) as log:
            return log.read()

    def stop(self):
        subprocess.run(["apache2", "-f", self.config, "-k", "stop"], capture_output=True)
        pid_file = os.path.join(self.folder, "httpd.pid")
        for _ in range(50):
            if not os.path.exists(pid_file):
                break
            time.sleep(0.1)
        shutil.rmtree(self.folder, ignore_errors=True)


class ApacheSignInTests(base.BrowserTestCase):
    WAIT_SECONDS = 15

    def setUp(self):
        apache_port, app_port = free_port(), free_port()
        handle, clients = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w") as file:
            json.dump({"clients": [{
                "client_id": "intranet", "name": "Intranet",
                "redirect_uris": ["http://localhost:%d/protected/redirect_uri" % apache_port],
                # mod_auth_openidc takes logout tokens at its redirect URI.
                "backchannel_logout_uri": "http://localhost:%d/protected/redirect_uri?logout=backchannel" % apache_port,
                "client_secret_sha256": hashlib.sha256(SECRET.encode()).hexdigest()}]}, file)
        self.addCleanup(os.unlink, clients)
        self.server = self.start_server(
            ["--public-url", "http://localhost:%d" % app_port, "--oidc-clients", clients], port=app_port)
        self.app = "http://localhost:%d" % app_port
        self.apache = Apache(apache_port, self.app)
        self.addCleanup(self.apache.stop)
        self.use(browser())

    def test_login_verify_consent_then_the_protected_page_shows_the_claims(self):
        try:
            self.driver.get(self.apache.url + "/protected/")
            self.wait_for_page(self.app + "/login", prefix=True,
                               until=lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sign in to Intranet")
            self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Sign in to Intranet")
            self.assert_accessible("oidc-login.png")
            self.enter_phone(enter=True)
            self.wait_for_page("/verify", until=lambda d: "signing in to Intranet"
                               in d.find_element(By.ID, "signing-in-to").text)
            self.assertIn("signing in to Intranet", self.driver.find_element(By.ID, "signing-in-to").text)
            self.type_code(then=None)
            self.wait_for_page("/oidc/consent", prefix=True, until=lambda d: d.find_element(By.TAG_NAME, "h1").text
                               == "Intranet wants your phone number")
            self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text,
                             "Intranet wants your phone number")
            self.assert_accessible("oidc-consent.png")
            self.driver.find_element(By.ID, "consent-allow").click()
            self.wait_for_page(self.apache.url + "/protected/", prefix=True,
                               until=lambda d: d.find_element(By.ID, "phone").text == "+15305550123")
            self.assertEqual(self.driver.find_element(By.ID, "phone").text, "+15305550123")
            self.assertEqual(self.driver.find_element(By.ID, "verified").text, "1")
            self.assertNotIn("5305550123", self.driver.find_element(By.ID, "sub").text)
            self.screenshot("oidc-protected.png")
        except Exception:
            print(self.driver.current_url, self.driver.find_element(By.TAG_NAME, "body").text[:500])
            print(self.apache.log()[-3000:])
            raise

        # The app's own session is gone (a new browser profile would be); ours stays: a new
        # Apache session goes straight through, with no page of ours.
        self.driver.delete_cookie("mod_auth_openidc_session")
        self.driver.get(self.apache.url + "/protected/")
        self.wait.until(lambda d: d.find_elements(By.ID, "phone"))
        self.assertEqual(self.driver.find_element(By.ID, "phone").text, "+15305550123")
        self.assertEqual(len(self.server.outbox()), 1)

        # Log out here: the app is told (a logout token naming this session), and its page,
        # with its own session cookie still in the browser, asks to sign in again.
        self.driver.get(self.app + "/home")
        self.log_out()
        deadline = time.monotonic() + 15
        while True:
            self.driver.get(self.apache.url + "/protected/")
            if self.driver.current_url.startswith(self.app + "/login"):
                break
            self.assertLess(time.monotonic(), deadline, "Apache's session outlived Log out:\n" + self.apache.log()[-3000:])
            time.sleep(0.5)
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h1").text, "Sign in to Intranet")
        # Apache took the logout token (a 2xx): the app's address has no failure on our side.
        status = subprocess.run([base.BINARY, "webhooks", *self.server.database_options], capture_output=True,
                                text=True, check=True).stdout.splitlines()
        [intranet] = [json.loads(line) for line in status if json.loads(line)["url"] == "oidc:intranet"]
        self.assertEqual((intranet["kind"], intranet["failures"], intranet.get("last_error")),
                         ("backchannel_logout", 0, None))


if __name__ == "__main__":
    unittest.main()
