"""The server's CPU time per full sign-in by passkey against per full sign-in by text, side by
side in one run (issue 27: a passkey sign-in must cost no more than an SMS sign-in).

One release binary, with passkeys on (--public-url http://localhost:PORT) and SMS test mode.
CLIENTS threads, each on its own keep-alive connection, sign in over and over through the pages
for DURATION seconds, the two flows taking turns (text, passkey, text, passkey, ...):
- by text: POST /login (a new number each time), POST /verify with the code;
- by passkey: POST /login/passkey/options, then POST /login/passkey with an assertion signed by
  a software authenticator (a P-256 key from `cryptography`, structures from python-fido2), one
  passkey per thread, registered through the API before the first round.
Each turn runs on a fresh server (see main). The server's CPU is read from /proc/PID/stat (user +
system) around each turn; the result is its CPU per completed sign-in. Both flows run through the same Python client, so the client's
own speed changes the sign-ins per second of both alike, not the server's CPU per sign-in.

    .venv/bin/python bench/passkey_cpu.py BINARY     (ROUNDS=5 DURATION=5 CLIENTS=16)
"""

import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fido2.cose import ES256
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData)

ROUNDS = int(os.environ.get("ROUNDS", "5"))
DURATION = float(os.environ.get("DURATION", "5"))
CLIENTS = int(os.environ.get("CLIENTS", "16"))
UP_UV = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV
TICKS = os.sysconf("SC_CLK_TCK")


class Authenticator:
    """One passkey: its key, id, counter and the user handle it was made for."""

    def __init__(self, rp_id, origin):
        self.rp_id, self.origin = rp_id, origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0
        self.user_handle = b""

    def register(self, options):
        self.user_handle = websafe_decode(options["user"]["id"])
        client = CollectedClientData.create(
            type="webauthn.create", challenge=websafe_decode(options["challenge"]), origin=self.origin)
        credential = AttestedCredentialData.create(
            b"\0" * 16, self.credential_id, ES256.from_cryptography_key(self.key.public_key()))
        auth = AuthenticatorData.create(
            hashlib.sha256(self.rp_id.encode()).digest(), UP_UV | AuthenticatorData.FLAG.AT, 0, credential)
        return {"id": websafe_encode(self.credential_id), "rawId": websafe_encode(self.credential_id),
                "type": "public-key",
                "response": {"clientDataJSON": websafe_encode(client),
                             "attestationObject": websafe_encode(AttestationObject.create("none", auth, {}))}}

    def sign_in(self, challenge):
        self.count += 1
        client = CollectedClientData.create(
            type="webauthn.get", challenge=websafe_decode(challenge), origin=self.origin)
        auth = AuthenticatorData.create(hashlib.sha256(self.rp_id.encode()).digest(), UP_UV, self.count)
        signature = self.key.sign(bytes(auth) + client.hash, ec.ECDSA(hashes.SHA256()))
        return {"id": websafe_encode(self.credential_id), "rawId": websafe_encode(self.credential_id),
                "type": "public-key",
                "response": {"clientDataJSON": websafe_encode(client), "authenticatorData": websafe_encode(auth),
                             "signature": websafe_encode(signature),
                             "userHandle": websafe_encode(self.user_handle)}}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(connection, method, path, body=None, headers=None):
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    return response, data


def cookie(response, name):
    for header, value in response.getheaders():
        if header.lower() == "set-cookie" and value.startswith(name + "="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


class Client(threading.Thread):
    """One connection signing in by `flow` until `stop` is set."""

    def __init__(self, port, index, csrf, authenticator, flow, stop):
        super().__init__(daemon=True)
        self.port, self.index, self.csrf, self.authenticator = port, index, csrf, authenticator
        self.flow, self.stop, self.signed_in, self.failed, self.n = flow, stop, 0, 0, 0

    def form(self, fields, cookies):
        return urllib.parse.urlencode(fields), {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join("%s=%s" % pair for pair in cookies.items())}

    def by_text(self, connection):
        self.n += 1
        phone = "530%03d%04d" % (220 + self.index, self.n % 10000)
        body, headers = self.form({"csrf": self.csrf, "phone": phone}, {"csrf": self.csrf})
        response, _ = request(connection, "POST", "/login", body, headers)
        session = cookie(response, "session")
        if response.status != 303 or not session:
            return False
        body, headers = self.form({"csrf": self.csrf, "code": "123456"}, {"csrf": self.csrf, "session": session})
        response, _ = request(connection, "POST", "/verify", body, headers)
        return response.status == 303 and response.getheader("Location") == "/home"

    def by_passkey(self, connection):
        body, headers = self.form({"csrf": self.csrf}, {"csrf": self.csrf})
        response, data = request(connection, "POST", "/login/passkey/options", body, headers)
        token = cookie(response, "passkey-challenge")
        if response.status != 200 or not token:
            return False
        answer = json.dumps(self.authenticator.sign_in(json.loads(data)["challenge"]))
        body, headers = self.form({"csrf": self.csrf, "credential": answer},
                                  {"csrf": self.csrf, "passkey-challenge": token})
        response, _ = request(connection, "POST", "/login/passkey", body, headers)
        return response.status == 303 and response.getheader("Location") == "/home"

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        step = self.by_text if self.flow == "text" else self.by_passkey
        while not self.stop.is_set():
            try:
                if step(connection):
                    self.signed_in += 1
                else:
                    self.failed += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.close()


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def api(port, method, path, body=None, token=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    response, data = request(connection, method, "/api/v1" + path, json.dumps(body) if body is not None else None,
                             headers)
    connection.close()
    if response.status >= 300:
        raise SystemExit("%s %s: %d %s" % (method, path, response.status, data[:200]))
    return json.loads(data)


class Server:
    """The binary on a fresh data folder, with the people and passkeys the clients sign in as."""

    def __init__(self, binary):
        self.port = free_port()
        self.origin = "http://localhost:%d" % self.port
        self.data = tempfile.mkdtemp(prefix="bench-passkey-")
        limit = "1000000"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--data-dir", self.data, "--sms", "test", "--log-level", "error",
             "--public-url", self.origin, "--max-codes-per-phone", "1000", "--max-codes-per-client", limit,
             "--max-sign-ins-per-client", limit, "--max-passkey-challenges-per-client", limit,
             "--max-texts-per-hour", limit, "--max-texts-per-day", limit, "--max-texts-per-exchange", limit,
             "--max-connections-per-client", "1000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if "Listening on" not in self.process.stdout.readline():
            self.stop()
            raise SystemExit("the server did not start")
        # One person and one passkey per client thread, made through the API.
        self.authenticators = []
        for index in range(CLIENTS):
            phone = "+1415555%04d" % (100 + index)
            sent = api(self.port, "POST", "/verifications", {"phone_number": phone})
            token = api(self.port, "POST", "/verifications/check", {
                "phone_number": phone, "verification_id": sent["verification_id"], "code": "123456"})["auth_token"]
            authenticator = Authenticator("localhost", self.origin)
            options = api(self.port, "POST", "/passkeys/registration/options", token=token)
            api(self.port, "POST", "/passkeys", authenticator.register(options), token=token)
            self.authenticators.append(authenticator)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        response, _ = request(connection, "GET", "/login")
        self.csrf = cookie(response, "csrf")
        connection.close()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.data, ignore_errors=True)


def main(binary):
    # Each turn on a fresh server: with the limits raised to 10^6 so that none refuses, each limit
    # read walks its whole window (its OFFSET is the limit), so a table grown by earlier turns
    # would make later ones dearer, and one flow's rows would slow the other's turn.
    results = {"text": [], "passkey": []}
    for round_number in range(1, ROUNDS + 1):
        for flow in ["text", "passkey"]:
            server = Server(binary)
            try:
                run(server, flow, 1)  # warm-up
                signed_in, failed, cpu = run(server, flow, DURATION)
            finally:
                server.stop()
            per = cpu * 1e6 / max(1, signed_in)
            results[flow].append(per)
            print("round %d  %-7s  %6d sign-ins (%d failed steps), %5.0f /s, %4.0f µs server CPU each" % (
                round_number, flow, signed_in, failed, signed_in / DURATION, per), flush=True)
    text, passkey = sorted(results["text"])[ROUNDS // 2], sorted(results["passkey"])[ROUNDS // 2]
    print("median: by text %.0f µs, by passkey %.0f µs: passkey / text = %.2f" % (text, passkey, passkey / text))


def run(server, flow, seconds):
    stop = threading.Event()
    clients = [Client(server.port, index, server.csrf, server.authenticators[index], flow, stop)
               for index in range(CLIENTS)]
    pid = server.process.pid
    before = cpu_seconds(pid)
    for client in clients:
        client.start()
    time.sleep(seconds)
    stop.set()
    for client in clients:
        client.join()
    return sum(c.signed_in for c in clients), sum(c.failed for c in clients), cpu_seconds(pid) - before


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
