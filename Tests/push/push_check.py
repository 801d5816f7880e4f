#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks one of the server's Web Push messages with implementations that are not ours:

    push_check.py decrypt RECEIVER_PRIVATE AUTH BODY     # http-ece (RFC 8188/8291) decrypts it
    push_check.py vapid AUTHORIZATION AUDIENCE           # py-vapid and PyJWT verify the VAPID token

Values are base64url; RECEIVER_PRIVATE may also be a PEM text. `decrypt` prints the plaintext; `vapid` prints the token's claims
as JSON. Either exits 1, saying why, when the check fails.
"""

import base64
import json
import sys
import time

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02


def b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def decrypt(private: str, auth: str, body: str) -> None:
    if private.startswith("-----"):
        key = serialization.load_pem_private_key(private.encode(), password=None)
    else:
        key = ec.derive_private_key(int.from_bytes(b64(private), "big"), ec.SECP256R1())
    plaintext = http_ece.decrypt(b64(body), private_key=key, auth_secret=b64(auth), version="aes128gcm")
    sys.stdout.write(plaintext.decode("utf-8"))


def vapid(authorization: str, audience: str) -> None:
    scheme, _, rest = authorization.partition(" ")
    if scheme != "vapid":
        raise SystemExit(f"not a vapid Authorization: {authorization[:40]}")
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    # py-vapid's parser splits at the last space, so it is handed the parameters without
    # the space RFC 8292's example puts after the comma.
    if not Vapid02.verify(f"vapid t={parts['t']},k={parts['k']}"):
        raise SystemExit("py-vapid: the signature does not verify with k")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(parts["k"]))
    claims = jwt.decode(parts["t"], key=public, algorithms=["ES256"], audience=audience)
    if not claims["exp"] <= time.time() + 24 * 3600:
        raise SystemExit("exp is more than 24 hours ahead")
    if not (claims["sub"].startswith("mailto:") or claims["sub"].startswith("https:")):
        raise SystemExit("sub is neither mailto: nor https:")
    sys.stdout.write(json.dumps(claims, sort_keys=True))


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    {"decrypt": decrypt, "vapid": vapid}[command](*arguments)
