"""A stand-in for Twilio on 127.0.0.1, for the Python tests: it speaks the two REST calls the app
makes as Twilio's API answers them, and posts status callbacks signed by the reference, PyPI
twilio's RequestValidator (`compute_signature`), exactly as Twilio signs X-Twilio-Signature.

- POST /2010-04-01/Accounts/{AccountSid}/Messages.json and .../Calls.json, HTTP basic auth (401
  and Twilio's error JSON, code 20003, otherwise), form fields To, From or MessagingServiceSid,
  Body (a message) or Twiml (a call). Answer: 201, {"sid": "SM..." or "CA...", "status": "queued"}.
- report(send, status, error_code) posts Twilio's callback fields to the send's StatusCallback.
- As Twilio in an outage: `failing[resource]` = a status (its error JSON), or "hang" (answers after
  `hang_seconds`, then counts the hang in `hangs_ended`, whether or not anyone still listened);
  refuse() closes the port (connections refused) until listen() opens it again.
  `attempts[resource]` counts every request, failed ones too.
"""

import base64
import http.server
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from twilio.request_validator import RequestValidator

ACCOUNT_SID = "AC" + "0123456789abcdef" * 2
AUTH_TOKEN = "fake-twilio-auth-token-for-tests"
FROM_NUMBER = "+15005550006"


class Send:
    def __init__(self, resource, sid, fields):
        self.resource = resource  # "Messages" or "Calls"
        self.sid = sid
        self.fields = fields  # [(name, value)], as posted

    def field(self, name):
        values = [value for key, value in self.fields if key == name]
        return values[-1] if values else None

    def code(self):
        """The six digits a text carries (its last line) or a call reads out (its first six Says)."""
        if self.resource == "Messages":
            return self.field("Body").split("#")[-1]
        return "".join(re.findall(r"<Say>(\d)</Say>", self.field("Twiml"))[:6])


class FakeTwilio:
    def __init__(self):
        self.sends = []
        self.lock = threading.Lock()
        self.failing = {}
        self.attempts = {"Messages": 0, "Calls": 0}
        self.hang_seconds = 30
        self.hangs_ended = 0
        self.port = 0
        self.listen()

    def listen(self):
        """Opens the fake's port (the same one again after refuse())."""
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def error(self, status, code, message):
                self.answer(status, {"code": code, "message": message, "status": status,
                                     "more_info": "https://www.twilio.com/docs/errors/%d" % code})

            def do_POST(self):
                match = re.fullmatch(r"/2010-04-01/Accounts/([^/]+)/(Messages|Calls)\.json", self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode()
                resource = match.group(2) if match else None
                with fake.lock:
                    if resource:
                        fake.attempts[resource] += 1
                    failure = fake.failing.get(resource)
                if failure == "hang":
                    time.sleep(fake.hang_seconds)
                    with fake.lock:
                        fake.hangs_ended += 1
                    try:
                        return self.error(504, 20504, "Gateway Timeout")
                    except (BrokenPipeError, ConnectionResetError):
                        return None  # the app gave up long before, as it should
                if failure:
                    return self.error(failure, 20500, "Internal Server Error")
                if not match or match.group(1) != ACCOUNT_SID:
                    return self.error(404, 20404, "The requested resource was not found")
                expected = "Basic " + base64.b64encode(("%s:%s" % (ACCOUNT_SID, AUTH_TOKEN)).encode()).decode()
                if self.headers.get("Authorization") != expected:
                    return self.error(401, 20003, "Authenticate")
                fields = urllib.parse.parse_qsl(body, keep_blank_values=True)
                names = {name for name, _ in fields}
                resource = match.group(2)
                if "To" not in names:
                    return self.error(400, 21604, "A 'To' phone number is required.")
                if "From" not in names and not (resource == "Messages" and "MessagingServiceSid" in names):
                    return self.error(400, 21603, "A 'From' phone number is required.")
                if ("Body" if resource == "Messages" else "Twiml") not in names:
                    return self.error(400, 21602, "Message body is required.")
                sid = ("SM" if resource == "Messages" else "CA") + uuid.uuid4().hex
                with fake.lock:
                    fake.sends.append(Send(resource, sid, fields))
                self.answer(201, {"sid": sid, "status": "queued", "to": dict(fields)["To"]})

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def refuse(self):
        """Closes the port: every connection is refused until listen()."""
        self.stop()

    def environment(self, messaging_service=False):
        """What the app needs in its environment to send through this fake (--sms twilio)."""
        env = {"TWILIO_ACCOUNT_SID": ACCOUNT_SID, "TWILIO_AUTH_TOKEN": AUTH_TOKEN, "TWILIO_API_BASE": self.url}
        if messaging_service:
            env["TWILIO_MESSAGING_SERVICE_SID"] = "MG" + "0" * 32
        else:
            env["TWILIO_FROM_NUMBER"] = FROM_NUMBER
        return env

    def last(self):
        with self.lock:
            return self.sends[-1] if self.sends else None

    def callback_fields(self, send, status, error_code=None):
        if send.resource == "Messages":
            fields = {"AccountSid": ACCOUNT_SID, "ApiVersion": "2010-04-01", "From": send.field("From") or "",
                      "MessageSid": send.sid, "MessageStatus": status, "SmsSid": send.sid, "SmsStatus": status,
                      "To": send.field("To")}
        else:
            fields = {"AccountSid": ACCOUNT_SID, "ApiVersion": "2010-04-01", "CallSid": send.sid,
                      "CallStatus": status, "Direction": "outbound-api", "From": send.field("From"),
                      "To": send.field("To")}
        if error_code:
            fields["ErrorCode"] = error_code
        return fields

    def report(self, send, status, error_code=None, token=AUTH_TOKEN, fields=None, url=None, signature=True):
        """Posts Twilio's status callback for `send`, signed by the reference validator under
        `token`; `fields` and `url` replace what is posted (the signature is still over the
        callback address and the fields Twilio would send, so a change shows). Returns the HTTP status."""
        callback = send.field("StatusCallback")
        signed = self.callback_fields(send, status, error_code)
        posted = signed if fields is None else fields
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if signature:
            headers["X-Twilio-Signature"] = RequestValidator(token).compute_signature(callback, signed)
        request = urllib.request.Request(url or callback, data=urllib.parse.urlencode(posted).encode(),
                                         headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
