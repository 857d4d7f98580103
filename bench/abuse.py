"""An abuse run: real people sign in and use their wallet at a steady rate while attackers run
alongside, against one `webapp` process on loopback. Standard library only.

Real people: a new person every 0.5 s (from an address of their own, through X-Forwarded-For as
behind the documented proxy) loads Login, asks for a code, reads it from the SMS outbox, types it,
opens Home and adds an account. Each step must answer as it should.

Attackers, all at once, bounded in count and time:
  - 50 clients that pipeline requests for the 48 KB OpenAPI document and never read;
  - 1,000 idle connections (reopened as the server closes them);
  - 100 slow-header clients (one byte a second);
  - 20 pipelined floods (50 health checks per write, read back);
  - SMS pumping from 10 rotating IPv4 addresses and 3 IPv6 /64s (a new address in the /64 each
    time) to random valid US numbers;
  - wrong-code floods: the API's check with made-up verification ids, for the real people's numbers.

Reported: real people's success rate and p50/p99 latency per step, the server's peak RSS, texts
sent against the budget, connections and requests refused.

Usage: python3 bench/abuse.py BINARY [--seconds 60] [--check]   (--check: exit 1 unless every real
person succeeded and the peak RSS stayed under 150 MB)
"""

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

RNG = random.Random(20261123)
EXCHANGES = [f"{npa}{ex}" for npa in ("530", "415", "212", "312", "646", "206", "303", "617") for ex in range(250, 290)]


class Server:
    def __init__(self, binary):
        self.data = tempfile.mkdtemp(prefix="abuse-")
        self.outbox = os.path.join(self.data, "outbox.jsonl")
        out = open(os.path.join(self.data, "out"), "w")
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--data-dir", self.data, "--sms", "outbox", "--trust-proxy",
             "--log-level", "error"], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while time.time() < deadline:
            text = open(os.path.join(self.data, "out")).read()
            match = re.search(r"Listening on http://127\.0\.0\.1:(\d+)", text)
            if match:
                self.port = int(match.group(1))
                return
            time.sleep(0.1)
        raise SystemExit("the server did not start:\n" + open(os.path.join(self.data, "out")).read())

    def rss_kb(self):
        try:
            for line in open(f"/proc/{self.process.pid}/status"):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            return 0
        return 0

    def texts(self):
        try:
            return [json.loads(line) for line in open(self.outbox)]
        except OSError:
            return []

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.data, ignore_errors=True)


class Connection:
    """One keep-alive HTTP/1.1 connection that reads each answer in full."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, headers=None, body=b""):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        fields = {}
        cookies = []
        for line in head.decode("latin-1").split("\r\n")[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
                if name.strip().lower() == "set-cookie":
                    cookies.append(value.strip())
        length = int(fields.get("content-length", "0"))
        content = await self.reader.readexactly(length) if length else b""
        if fields.get("connection", "").lower() == "close":
            self.close()
        return status, fields, cookies, content.decode("utf-8", "replace")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


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


async def non_reader(port, stop):
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n" * 500)
        await asyncio.wait_for(stop.wait(), timeout=None)
        writer.close()
    except (OSError, ConnectionError):
        pass


async def idle_pool(port, stop, size):
    held = []
    while not stop.is_set():
        held = [w for w in held if not w.is_closing() and not w.transport.is_closing()]
        while len(held) < size and not stop.is_set():
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                held.append(writer)
            except OSError:
                await asyncio.sleep(0.1)
                break
        await asyncio.sleep(1)
    for writer in held:
        writer.close()


async def slow_headers(port, stop):
    while not stop.is_set():
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            for byte in b"GET /login HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
                if stop.is_set():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(1)
            writer.close()
        except (OSError, ConnectionError):
            await asyncio.sleep(0.5)


async def pipelined_flood(port, stop, counts):
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            while not stop.is_set():
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 50)
                await writer.drain()
                data = b""
                while data.count(b"HTTP/1.1 ") < 50:
                    chunk = await reader.read(65536)
                    if not chunk:
                        raise ConnectionError
                    data += chunk
                counts["flood"] += 50
                await asyncio.sleep(0.01)
        except (OSError, ConnectionError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.1)


def pumping_address(index):
    if index % 13 < 10:
        return f"203.0.113.{index % 13 + 1}"
    network = index % 13 - 10
    return f"2001:db8:{network}:1:{RNG.randrange(65536):x}:{RNG.randrange(65536):x}::{RNG.randrange(65536):x}"


async def api_call(port, path, payload, address):
    connection = Connection(port)
    try:
        body = json.dumps(payload).encode()
        status, _, _, _ = await connection.request(
            "POST", path, {"Content-Type": "application/json", "X-Forwarded-For": address, "Connection": "close"}, body)
        return status
    except (OSError, ConnectionError, asyncio.IncompleteReadError):
        return 0
    finally:
        connection.close()


async def sms_pumper(port, stop, counts):
    index = 0
    while not stop.is_set():
        phone = "+1" + RNG.choice(EXCHANGES) + f"{RNG.randrange(10000):04d}"
        status = await api_call(port, "/api/v1/verifications", {"phone_number": phone}, pumping_address(index))
        counts[f"pump {status}"] = counts.get(f"pump {status}", 0) + 1
        index += 1
        await asyncio.sleep(0.02)


async def code_burner(port, stop, counts, people_phones):
    while not stop.is_set():
        if people_phones:
            phone = RNG.choice(people_phones)
            made_up = "".join(RNG.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(43))
            status = await api_call(
                port, "/api/v1/verifications/check",
                {"phone_number": phone, "verification_id": made_up, "code": f"{RNG.randrange(10**6):06d}"},
                f"198.18.{RNG.randrange(256)}.{RNG.randrange(256)}")
            counts[f"burn {status}"] = counts.get(f"burn {status}", 0) + 1
        await asyncio.sleep(0.02)


def metric(text, name, labels=""):
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and labels in line and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def attack(port, seconds):
    """Every attacker at once for `seconds`, then their counts as JSON on stdout (or at SIGTERM)."""
    stop = asyncio.Event()
    counts = {"flood": 0}
    loop = asyncio.get_running_loop()
    import signal

    loop.add_signal_handler(signal.SIGTERM, stop.set)
    # The code burner aims at the numbers the real people use (the same list, made the same way).
    people_phones = ["+1" + EXCHANGES[i % len(EXCHANGES)] + f"{1000 + i:04d}" for i in range(int(seconds * 2) + 10)]
    # ABUSE_ONLY=nonread,idle,slow,flood,pump,burn runs only those (to find which one hurts).
    only = set(os.environ.get("ABUSE_ONLY", "nonread,idle,slow,flood,pump,burn").split(","))
    tasks = []
    if "nonread" in only:
        tasks += [asyncio.create_task(non_reader(port, stop)) for _ in range(50)]
    if "idle" in only:
        tasks.append(asyncio.create_task(idle_pool(port, stop, 1000)))
    if "slow" in only:
        tasks += [asyncio.create_task(slow_headers(port, stop)) for _ in range(100)]
    if "flood" in only:
        tasks += [asyncio.create_task(pipelined_flood(port, stop, counts)) for _ in range(20)]
    if "pump" in only:
        tasks += [asyncio.create_task(sms_pumper(port, stop, counts)) for _ in range(2)]
    if "burn" in only:
        tasks += [asyncio.create_task(code_burner(port, stop, counts, people_phones)) for _ in range(2)]
    try:
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    except asyncio.TimeoutError:
        pass
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(counts))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--attack-port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack_port:
        await attack(args.attack_port, args.seconds)
        return

    server = Server(args.binary)
    stop = asyncio.Event()
    timings = {}
    people_phones = []
    peak = [server.rss_kb()]
    start_rss = peak[0]

    async def sample_rss():
        while not stop.is_set():
            peak[0] = max(peak[0], server.rss_kb())
            await asyncio.sleep(0.2)

    # The attackers run in a process of their own, so their load on Python's event loop does not
    # show up as the real people's latency.
    attacker_process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, args.binary, "--seconds", str(args.seconds + 5), "--attack-port", str(server.port),
        stdout=asyncio.subprocess.PIPE)
    attackers = [asyncio.create_task(sample_rss())]
    await asyncio.sleep(2)  # the attack under way before the first person comes

    people = []
    started = time.time()
    index = 0
    while time.time() - started < args.seconds:
        person = Person(server, index, timings)
        people_phones.append(person.phone)
        people.append(asyncio.create_task(person.run()))
        index += 1
        await asyncio.sleep(0.5)
    failures = [f for f in await asyncio.gather(*people) if f]
    metrics_text = (await Connection(server.port).request("GET", "/metrics"))[3]
    stop.set()
    for task in attackers:
        task.cancel()
    await asyncio.gather(*attackers, return_exceptions=True)
    if attacker_process.returncode is None:
        try:
            attacker_process.terminate()
        except ProcessLookupError:
            pass
    counts = json.loads((await attacker_process.communicate())[0] or b"{}")
    texts = len(server.texts())
    peak_mb = peak[0] / 1024
    server.stop()

    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(len(values) * p))] * 1000 if values else 0

    report = {
        "seconds": args.seconds,
        "people": len(people),
        "people_succeeded": len(people) - len(failures),
        "success_rate": (len(people) - len(failures)) / max(1, len(people)),
        "latency_ms": {step: {"p50": round(pct(v, 0.5), 1), "p99": round(pct(v, 0.99), 1)} for step, v in timings.items()},
        "rss_mb": {"start": round(start_rss / 1024, 1), "peak": round(peak_mb, 1)},
        "texts_sent": texts,
        "texts_budget_per_hour": 500,
        "connections_refused": metric(metrics_text, "http_connections_refused_total"),
        "server_refusals": metric(metrics_text, "http_requests_total", 'route="refused"'),
        "attackers": counts,
        "failures": failures[:5],
    }
    print(json.dumps(report, indent=2))
    if args.check and (failures or peak_mb >= 150):
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
