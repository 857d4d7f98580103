"""An abuse run: real people sign in and use their wallet at a steady rate while attackers run
alongside, against one `webapp` process on loopback. Standard library only.

Real people: a new person every 0.5 s (from an address of their own, through X-Forwarded-For as
behind the documented proxy) loads Login, asks for a code, reads it from the SMS outbox, types it,
opens Home and adds an account. Each step must answer as it should.

Attackers, all at once, bounded in count and time:
  - 50 clients that pipeline requests for the 48 KB OpenAPI document and never read;
  - 1,000 idle connections (reopened as the server closes them);
  - 100 slow-header clients (one byte a second);
  - 20 pipelined floods (10 health checks per write, read back; deeper than 16 is cut off);
  - SMS pumping from 10 rotating IPv4 addresses and 3 IPv6 /64s (a new address in the /64 each
    time) to random valid US numbers;
  - wrong-code floods: the API's check with made-up verification ids, for the real people's numbers.

Reported: real people's success rate and p50/p99 latency per step, the server's peak RSS, texts
sent against the budget, connections and requests refused.

Usage: python3 bench/abuse.py BINARY [--seconds 60] [--check]   (--check: exit 1 unless every real
person succeeded and the peak RSS stayed under 150 MB)

This file runs it and reports; the app and its connections: abuse_server.py; the real people:
abuse_people.py; the attackers: abuse_attackers.py.
"""

import argparse
import asyncio
import json
import sys
import time

from abuse_attackers import attack
from abuse_people import Person
from abuse_server import Connection, Server


def metric(text, name, labels=""):
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and labels in line and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


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
