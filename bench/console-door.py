#!/usr/bin/env python3
"""Whether /admin can be told from an unknown page by its answer (issue 40): status, size and
time of GET /admin and GET /no-such-page, alternating on one keep-alive connection, signed out
and signed in as someone who is no operator.

Usage: bench/console-door.py [BINARY]   (default .build/debug/webapp; 300 requests of each)
"""
import http.client, json, os, re, statistics, subprocess, sys, tempfile, time, urllib.parse

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/webapp"
data = tempfile.mkdtemp(prefix="console-door-")
server = subprocess.Popen(
    [binary, "--port", "0", "--data-dir", data, "--public-url", "http://localhost:8080", "--admins", "2125550100",
     "--log-level", "error"], stdout=subprocess.PIPE, text=True)
port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))


def call(conn, method, path, jar, body=None):
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=headers)
    answer = conn.getresponse()
    payload = answer.read()
    for name, value in answer.getheaders():
        if name.lower() == "set-cookie":
            key, val = value.split(";")[0].split("=", 1)
            jar[key] = val
    return answer.status, payload


try:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    jar = {}
    _, page = call(conn, "GET", "/login", jar)
    csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
    call(conn, "POST", "/login", jar, urllib.parse.urlencode({"phone": "5305550123", "csrf": csrf}))
    with open(os.path.join(data, "outbox.jsonl")) as outbox:
        code = json.loads(outbox.read().splitlines()[-1])["body"].split("#")[-1]
    call(conn, "POST", "/verify", jar, urllib.parse.urlencode({"code": code, "csrf": csrf}))
    for label, cookies in (("signed out", {}), ("signed in, no operator", jar)):
        times = {"/admin": [], "/no-such-page": []}
        seen = {}
        for i in range(300):
            for path in ("/admin", "/no-such-page") if i % 2 == 0 else ("/no-such-page", "/admin"):
                start = time.perf_counter()
                status, payload = call(conn, "GET", path, dict(cookies))
                times[path].append(time.perf_counter() - start)
                seen[path] = (status, len(payload))
        for path, spent in times.items():
            spent.sort()
            print(f"{label:24} {path:14} {seen[path][0]} {seen[path][1]} bytes  "
                  f"median {statistics.median(spent) * 1e6:.0f} µs  p90 {spent[int(len(spent) * 0.9)] * 1e6:.0f} µs")
finally:
    server.terminate()
    server.wait()
