"""The real people of the abuse run (bench/abuse.py): each from an address of their own (through
X-Forwarded-For, as behind the documented proxy) loads Login, asks for a code, reads it from the SMS
outbox, types it, opens Home and adds an account; each step must answer as it should, and its
time is kept. Standard library only.
"""

import asyncio
import re
import time

from abuse_server import Connection

# The real people's numbers, in exchanges of their own (the attackers aim at the same ones).
EXCHANGES = [f"{npa}{ex}" for npa in ("530", "415", "212", "312", "646", "206", "303", "617") for ex in range(250, 290)]


class Person:
    """A real person: Login, code, Verify, Home, a new account."""

    def __init__(self, server, index, timings):
        self.server, self.index, self.timings = server, index, timings
        self.cookies = {}
        self.address = f"100.64.{index // 250}.{index % 250 + 1}"
        self.phone = "+1" + EXCHANGES[index % len(EXCHANGES)] + f"{1000 + index:04d}"

    def headers(self, extra=None):
        headers = {"X-Forwarded-For": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers.update(extra or {})
        return headers

    def keep(self, set_cookies):
        for cookie in set_cookies:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            if "Max-Age=0" in cookie:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value

    async def step(self, connection, name, expected, method, path, form=None):
        body = "&".join(f"{k}={v}" for k, v in (form or {}).items()).encode()
        extra = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
        started = time.perf_counter()
        status, fields, cookies, content = await connection.request(method, path, self.headers(extra), body)
        self.timings.setdefault(name, []).append(time.perf_counter() - started)
        self.keep(cookies)
        if status != expected:
            raise RuntimeError(f"{name}: {status} (expected {expected}): {content[:200]!r}")
        return fields, content

    async def run(self):
        connection = Connection(self.server.port)
        try:
            _, page = await self.step(connection, "GET /login", 200, "GET", "/login")
            csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
            await self.step(connection, "POST /login", 303, "POST", "/login", {"csrf": csrf, "phone": self.phone[2:]})
            code = None
            for _ in range(100):
                sent = [t for t in self.server.texts() if t["to"] == self.phone]
                if sent:
                    code = re.match(r"\d{6}", sent[-1]["body"]).group(0)
                    break
                await asyncio.sleep(0.05)
            if code is None:
                raise RuntimeError("no text arrived")
            await self.step(connection, "POST /verify", 303, "POST", "/verify", {"csrf": csrf, "code": code})
            _, home = await self.step(connection, "GET /home", 200, "GET", "/home")
            csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
            key = re.search(r'name="key" value="([^"]+)"', home).group(1)
            await self.step(connection, "POST /accounts", 303, "POST", "/accounts", {"csrf": csrf, "key": key, "name": "Savings"})
            await self.step(connection, "GET /home", 200, "GET", "/home")
            return None
        except Exception as error:  # noqa: BLE001 - any failure is a failed person
            return str(error) or type(error).__name__
        finally:
            connection.close()
