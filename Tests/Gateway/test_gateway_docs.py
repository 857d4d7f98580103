"""The commands and code of docs/GATEWAY.md that no proxy runs (issue 17, part 4): a signing key
made with the docs' openssl command, rotating it with --rotate-assertion-key, and the Swift
verification type-checked against the jwt-kit the app is built with. The proxies' blocks and the
Python block run in test_gateway.py and test_gateway_access.py. Run by ./scripts/gateway-tests.
"""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
import urllib.request

import jwt
from cryptography.hazmat.primitives.serialization import load_pem_private_key

import gateway
from doc_blocks import DOC, tested_block
from gateway import LOGIN_HOST

gateway.use_loopback_names()  # no HTTP proxy from the environment, as in the other gateway modules


class DocsTests(unittest.TestCase):
    """The code and commands of docs/GATEWAY.md that no proxy runs."""

    OPENSSL = "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt"

    def webapp(self, folder, **options):
        app = gateway.Webapp(folder, "http://%s:8443" % LOGIN_HOST, **options)
        self.addCleanup(app.stop)
        return app

    @staticmethod
    def key_set(app):
        with urllib.request.urlopen(app.url + "/.well-known/jwks.json", timeout=10) as answer:
            return json.load(answer)["keys"]

    def test_a_key_made_as_the_docs_say_is_the_one_the_jwks_lists(self):
        with open(DOC) as doc:
            self.assertIn("`%s`" % self.OPENSSL, doc.read())
        pem = subprocess.run(["bash", "-c", "set -o pipefail; " + self.OPENSSL],
                             capture_output=True, text=True, check=True).stdout
        folder = tempfile.mkdtemp(prefix="webapp-gateway-key-")
        self.addCleanup(shutil.rmtree, folder, True)
        app = self.webapp(folder, environment={"WEBAPP_ASSERTION_KEY": pem})
        [key] = self.key_set(app)
        numbers = load_pem_private_key(pem.encode(), None).public_key().public_numbers()
        self.assertEqual(jwt.PyJWK(key).key.public_numbers(), numbers)
        self.assertFalse(os.path.exists(os.path.join(app.data, "assertion-key.pem")),
                         "a key from the environment is not written to the data folder")

    def test_rotation_lists_the_new_key_and_keeps_the_previous_one(self):
        folder = tempfile.mkdtemp(prefix="webapp-gateway-rotate-")
        self.addCleanup(shutil.rmtree, folder, True)
        app = self.webapp(folder)
        [before] = self.key_set(app)
        app.stop()
        rotated = subprocess.run([gateway.BINARY, "--rotate-assertion-key", "--data-dir", app.data],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(rotated.returncode, 0, rotated.stderr)
        app = self.webapp(folder)
        after = self.key_set(app)
        self.assertEqual(len(after), 2, after)
        self.assertIn(before, after)
        self.assertEqual(len({k["kid"] for k in after}), 2)

    def test_the_swift_verification_type_checks_against_the_apps_jwt_kit(self):
        modules = os.path.join(os.path.dirname(gateway.BINARY), "Modules")
        swiftc = shutil.which("swiftc")
        if not swiftc or not os.path.exists(os.path.join(modules, "JWTKit.swiftmodule")):
            self.skipTest("needs swiftc and a build with JWTKit in %s" % modules)
        with tempfile.TemporaryDirectory(prefix="gateway-docs-") as folder:
            source = os.path.join(folder, "main.swift")
            with open(source, "w") as file:
                file.write(tested_block("swift"))
            checked = subprocess.run([swiftc, "-typecheck", "-I", modules, source],
                                     capture_output=True, text=True, timeout=300)
        self.assertEqual(checked.returncode, 0, checked.stderr)
        self.assertNotIn("warning", checked.stderr)


if __name__ == "__main__":
    unittest.main()
