"""The tables bench/run prints: ours against the Hummingbird peer (each ratio taken within its
round, then the median and range), ours against our own static file, and the issue's checks.
    python3 bench/report.py RESULTS.jsonl PEAK_MB DURATION ROUNDS SIZES
"""
import datetime
import json
import statistics
import subprocess
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
peak, duration, rounds = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
sizes = [line.split() for line in open(sys.argv[5])]
names = list(dict.fromkeys(row["name"] for row in rows))
pages = names[:3]
signin_name = next(name for name in names if name.startswith("full sign-in"))
check_name = next((name for name in names if "/auth/request" in name), None)


def runs(name, server="ours"):
    return [row for row in rows if row["name"] == name and row.get("server", "ours") == server]


def by_round(name, server):
    return {row["round"]: row["result"] for row in runs(name, server)}


def spread(values, fmt="{:,.0f}"):
    return f" ({fmt.format(min(values))}–{fmt.format(max(values))})" if len(values) > 1 else ""


cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                     text=True).stdout.strip()
cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
print(f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on {cores} cores ({cpu}), "
      f"release builds, wrk {duration} s per scenario and server after a 2 s warm-up, 64 connections; the page "
      f"scenarios in {rounds} rounds, ours then the Hummingbird peer's (bench/peer) in each (median shown, range "
      f"in brackets; each ratio is taken within its round).\n")

print("| Scenario | ours req/s | peer req/s | ours / peer | ours p99 ms | peer p99 ms | errors (ours, peer) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
versus = {}
for name in pages:
    ours, peer = by_round(name, "ours"), by_round(name, "peer")
    ratios = [ours[r]["rps"] / peer[r]["rps"] for r in ours if r in peer]
    ours_rps, peer_rps = [r["rps"] for r in ours.values()], [r["rps"] for r in peer.values()]
    ours_p99 = statistics.median(r["p99_ms"] for r in ours.values())
    peer_p99 = statistics.median(r["p99_ms"] for r in peer.values())
    errors = (sum(r["errors"] for r in ours.values()), sum(r["errors"] for r in peer.values()))
    versus[name] = (statistics.median(ratios), ours_p99, peer_p99)
    print(f"| {name} | {statistics.median(ours_rps):,.0f}{spread(ours_rps)} | "
          f"{statistics.median(peer_rps):,.0f}{spread(peer_rps)} | **{statistics.median(ratios):.2f}×**"
          f"{spread(ratios, '{:.2f}')} | {ours_p99:.2f} | {peer_p99:.2f} | {errors[0]}, {errors[1]} |")
floor = by_round(pages[0], "floor")
if floor:
    floor_rps = [r["rps"] for r in floor.values()]
    ours_static, peer_static = by_round(pages[0], "ours"), by_round(pages[0], "peer")
    of_floor = lambda results: statistics.median(results[r]["rps"] / floor[r]["rps"] for r in floor if r in results)
    print(f"\nThe floor for the static file (bench/floor: NIO's HTTP/1.1 codec answering the same bytes and "
          f"nothing else): {statistics.median(floor_rps):,.0f}{spread(floor_rps)} req/s, p99 "
          f"{statistics.median(r['p99_ms'] for r in floor.values()):.2f} ms. Ours reaches {of_floor(ours_static):.0%} "
          f"of it, the peer {of_floor(peer_static):.0%}; 1.5× the peer would be {1.5 * of_floor(peer_static):.0%}.")
print("\nResponse bodies (bytes, ours / peer): " + ", ".join(f"`{p}` {a} / {b}" for p, a, b in sizes) + ".\n")

static_by_round = {r: result["rps"] for r, result in by_round(pages[0], "ours").items()}
print("| Scenario (ours) | Requests/s | vs static | p50 ms | p99 ms | errors | RSS after (MB) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
summary = {}
for name in names:
    mine = runs(name)
    results = [row["result"] for row in mine]
    rps = statistics.median(r["rps"] for r in results)
    ratio = statistics.median(row["result"]["rps"] / static_by_round.get(row["round"], static_by_round[1])
                              for row in mine)
    p50 = statistics.median(r["p50_ms"] for r in results)
    p99 = statistics.median(r["p99_ms"] for r in results)
    summary[name] = {"ratio": ratio, "p99": p99, "result": results[0]}
    label = name
    r = results[0]
    if "signins" in r:
        label += (f" — **{r['signins'] / r['seconds']:,.0f} sign-ins/s** ({r['signins']:,} signed in, "
                  f"{r['failed_steps']} failed steps)")
    print(f"| {label} | {rps:,.0f}{spread([r['rps'] for r in results])} | {ratio:.0%} | {p50:.2f} | {p99:.2f} | "
          f"{sum(r['errors'] for r in results)} | {mine[-1]['rss_mb']} |")
print(f"\nPeak RSS of our server over the whole run (VmHWM): **{peak} MB**.\n")

login, home = summary[pages[1]], summary[pages[2]]
signin = summary[signin_name]["result"]
checks = [(f"{name}: ≥ 1.5× the peer's requests/s ({versus[name][0]:.2f}×)", versus[name][0] >= 1.5)
          for name in pages]
checks += [(f"{name}: p99 no higher than the peer's ({versus[name][1]:.2f} against {versus[name][2]:.2f} ms)",
            versus[name][1] <= versus[name][2]) for name in pages]
# The pages against our own static file (≥ 70% and ≥ 60%) were targets while that file was read
# from disk per request; served from memory (issue 16) it is about twice as fast, so the pages are
# held to the Hummingbird peer instead (above), and the column stays for reading.
checks += [
    ("p99 < 10 ms for /login and /home", login["p99"] < 10 and home["p99"] < 10),
    ("≥ 1,000 full sign-ins/s", signin["signins"] / signin["seconds"] >= 1000),
    ("peak RSS < 80 MB", peak < 80),
]
if check_name:
    homes, checks_by_round = by_round(pages[2], "ours"), by_round(check_name, "ours")
    ratio = statistics.median(checks_by_round[r]["rps"] / homes[r]["rps"] for r in checks_by_round if r in homes)
    checks.append((f"GET /auth/request at least as fast as GET /home ({ratio:.2f}×)", ratio >= 1.0))
for label, ok in checks:
    print(f"- {'✅' if ok else '❌'} {label}")
