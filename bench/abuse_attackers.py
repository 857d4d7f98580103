"""The attackers of the abuse run (bench/abuse.py), all at once, bounded in count and time, in a
process of their own (`attack`, run as `abuse.py BINARY --attack-port PORT`): clients that
pipeline requests and never read, idle connections, slow headers, pipelined floods, SMS pumping
from rotating IPv4 and IPv6 addresses, and wrong-code floods at the real people's numbers.
Standard library only.
"""

import asyncio
import json
import os
import random
import signal

from abuse_people import EXCHANGES
from abuse_server import Connection

RNG = random.Random(20261123)


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
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 10)
                await writer.drain()
                data = b""
                while data.count(b"HTTP/1.1 ") < 10:
                    chunk = await reader.read(65536)
                    if not chunk:
                        raise ConnectionError
                    data += chunk
                counts["flood"] += 10
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


async def attack(port, seconds):
    """Every attacker at once for `seconds`, then their counts as JSON on stdout (or at SIGTERM)."""
    stop = asyncio.Event()
    counts = {"flood": 0}
    loop = asyncio.get_running_loop()
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
