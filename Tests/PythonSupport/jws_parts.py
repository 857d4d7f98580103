"""The parts of a compact JWS (a JWT, `header.payload.signature`), as the Python tests read and
forge them: the header and the payload are JSON, base64url-encoded without padding.
"""

import base64
import json


def decode_part(part):
    """The JSON value of a header or payload part (padding put back as needed)."""
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def encode_part(value):
    """`value` as a header or payload part: JSON, base64url without padding."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
