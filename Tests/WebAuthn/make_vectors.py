"""Registration and sign-in vectors judged by python-fido2 (the reference, issue 27): a software
authenticator (an EC P-256 key from `cryptography`, structures from `fido2.webauthn`) makes valid
ceremonies and tampered ones, and fido2's own Fido2Server says which it accepts. The Swift tests
(Tests/WebAuthnCoreTests/ReferenceVectorTests.swift) check that ours says the same, case by case.

Run to refresh Tests/WebAuthn/vectors.json (needs `pip install -r Tests/WebAuthn/requirements.txt`),
or to write fresh ones elsewhere (./scripts/test does, with new keys each run):
    .venv/bin/python Tests/WebAuthn/make_vectors.py [PATH]
"""

import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives.asymmetric import ec
from fido2.cose import ES256
from fido2.server import Fido2Server
from fido2.utils import websafe_encode
from fido2.webauthn import (AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData,
                            PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity)

ORIGIN = "http://localhost:8080"
RP = PublicKeyCredentialRpEntity(id="localhost", name="Phone Login")
FLAGS_UP_UV = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV


def server():
    return Fido2Server(RP, attestation="none", verify_origin=lambda origin: origin == ORIGIN)


def b64(data):
    return websafe_encode(bytes(data))


def registration_cases(key, cose, credential_id):
    cases = []
    variants = {
        "valid": {},
        "user not verified": {"flags": AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.AT},
        "user not present": {"flags": AuthenticatorData.FLAG.UV | AuthenticatorData.FLAG.AT},
        "another origin": {"origin": "https://evil.example"},
        "another challenge": {"challenge": b"another challenge, 32 bytes long"},
        "another RP ID": {"rp_id": "evil.example"},
        "a get, not a create": {"type": "webauthn.get"},
    }
    for name, change in variants.items():
        srv = server()
        options, state = srv.register_begin(
            PublicKeyCredentialUserEntity(id=b"user-1", name="+15305550123", display_name="+15305550123"),
            user_verification="required")
        challenge = options.public_key.challenge
        client = CollectedClientData.create(
            type=change.get("type", "webauthn.create"), challenge=change.get("challenge", challenge),
            origin=change.get("origin", ORIGIN))
        credential = AttestedCredentialData.create(b"\0" * 16, credential_id, cose)
        auth = AuthenticatorData.create(
            hashlib.sha256(change.get("rp_id", "localhost").encode()).digest(),
            change.get("flags", FLAGS_UP_UV | AuthenticatorData.FLAG.AT), 0, credential)
        attestation = AttestationObject.create("none", auth, {})
        response = {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
                    "response": {"clientDataJSON": b64(client), "attestationObject": b64(attestation)}}
        try:
            srv.register_complete(state, response)
            accepted = True
        except Exception:
            accepted = False
        cases.append({"ceremony": "registration", "name": name, "challenge": b64(challenge),
                      "clientDataJSON": b64(client), "attestationObject": b64(attestation),
                      "referenceAccepts": accepted})
    return cases


def assertion_cases(key, cose, credential_id):
    cases = []
    other = ec.generate_private_key(ec.SECP256R1())
    variants = {
        "valid": {},
        "user not verified": {"flags": AuthenticatorData.FLAG.UP},
        "another origin": {"origin": "http://localhost:8081"},
        "another challenge": {"challenge": b"another challenge, 32 bytes long"},
        "another RP ID": {"rp_id": "evil.example"},
        "another key's signature": {"signer": other},
        "a tampered signature": {"tamper": True},
        "a create, not a get": {"type": "webauthn.create"},
    }
    stored = AttestedCredentialData.create(b"\0" * 16, credential_id, cose)
    for name, change in variants.items():
        srv = server()
        options, state = srv.authenticate_begin([stored], user_verification="required")
        challenge = options.public_key.challenge
        client = CollectedClientData.create(
            type=change.get("type", "webauthn.get"), challenge=change.get("challenge", challenge),
            origin=change.get("origin", ORIGIN))
        auth = AuthenticatorData.create(
            hashlib.sha256(change.get("rp_id", "localhost").encode()).digest(), change.get("flags", FLAGS_UP_UV), 7)
        signer = change.get("signer", key)
        from cryptography.hazmat.primitives import hashes
        signature = signer.sign(bytes(auth) + client.hash, ec.ECDSA(hashes.SHA256()))
        if change.get("tamper"):
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        response = {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
                    "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth),
                                 "signature": b64(signature), "userHandle": b64(b"user-1")}}
        try:
            srv.authenticate_complete(state, [stored], response)
            accepted = True
        except Exception:
            accepted = False
        cases.append({"ceremony": "assertion", "name": name, "challenge": b64(challenge),
                      "clientDataJSON": b64(client), "authenticatorData": b64(auth), "signature": b64(signature),
                      "credentialPublicKey": b64(__import__("fido2.cbor", fromlist=["encode"]).encode(cose)),
                      "storedSignCount": 0, "referenceAccepts": accepted})
    return cases


def main():
    key = ec.generate_private_key(ec.SECP256R1())
    cose = ES256.from_cryptography_key(key.public_key())
    credential_id = os.urandom(16)
    cases = registration_cases(key, cose, credential_id) + assertion_cases(key, cose, credential_id)
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
    with open(path, "w") as out:
        json.dump({"origin": ORIGIN, "rpId": "localhost", "cases": cases}, out, indent=1)
        out.write("\n")
    for case in cases:
        print("%-13s %-26s %s" % (case["ceremony"], case["name"], "accepted" if case["referenceAccepts"] else "refused"))


if __name__ == "__main__":
    main()
