"""The pages the account issues added, each against GET /home, side by side in one run (issue 42,
item 2): Your account (/account), Recent activity (/account/activity) and the console's glance
(/admin), for one signed-in person who is also an operator, so every page reads the same person.

One release binary, SMS test mode, passkeys on (--public-url http://localhost:PORT), the person in
--admins. Before the first round: the person's passkey is made through the API (on a first start
without --admins: an operator's account takes a new passkey only from a passkey session), then
the server is started again with --admins, the person signs in with the passkey through the pages
and opens /admin once; 300 other people sign in by text (the glance's hours and the activity
have rows) and the person opens two wallet accounts. Then, for ROUNDS rounds, each page in turn is
loaded by wrk (64 connections, DURATION seconds after a 2 s warm-up); the server's CPU comes from
/proc/PID/stat around each load. The result is CPU per request, and each page's ratio to Home's in
the same round (this VM's speed drifts; ratios within a round do not).

    .venv/bin/python bench/account_pages.py BINARY      (ROUNDS=3 DURATION=6 CONNECTIONS=64)

With a second binary (`bench/account_pages.py OLD NEW`), both servers are prepared and each round
loads every page on one, then on the other: a table for each, and each page's CPU per request on
NEW over OLD's within its round (for a change measured against the commit before it).
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from passkey_cpu import Authenticator, api, cookie, cpu_seconds, free_port, request  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "6"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
PAGES = ["/home", "/account", "/account/activity", "/admin"]
OPERATOR = "+14155550100"


def start(binary, port, data, admins):
    limit = "1000000"
    arguments = [binary, "--port", str(port), "--data-dir", data, "--sms", "test", "--log-level", "error",
                 "--public-url", "http://localhost:%d" % port, "--max-codes-per-client", limit,
                 "--max-sign-ins-per-client", limit, "--max-texts-per-hour", limit, "--max-texts-per-day", limit,
                 "--max-texts-per-exchange", limit, "--max-connections-per-client", "1000"]
    if admins:
        arguments += ["--admins", OPERATOR]
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if "Listening on" not in process.stdout.readline():
        process.terminate()
        raise SystemExit("the server did not start")
    return process


def stop(process):
    """SIGTERM, and SIGKILL if the graceful shutdown outlasts wrk's idle connections' drain."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def form(connection, path, fields, cookies):
    body = urllib.parse.urlencode(fields)
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Cookie": "; ".join("%s=%s" % pair for pair in cookies.items())}
    return request(connection, "POST", path, body, headers)


def get(connection, path, cookies):
    return request(connection, "GET", path, None, {"Cookie": "; ".join("%s=%s" % pair for pair in cookies.items())})


def prepare(binary, port, data):
    """The person (an operator with a passkey), signed in by it with the console open: the cookies."""
    origin = "http://localhost:%d" % port
    first = start(binary, port, data, admins=False)
    try:
        sent = api(port, "POST", "/verifications", {"phone_number": OPERATOR})
        token = api(port, "POST", "/verifications/check", {
            "phone_number": OPERATOR, "verification_id": sent["verification_id"], "code": "123456"})["auth_token"]
        authenticator = Authenticator("localhost", origin)
        options = api(port, "POST", "/passkeys/registration/options", token=token)
        api(port, "POST", "/passkeys", authenticator.register(options), token=token)
    finally:
        stop(first)
    server = start(binary, port, data, admins=True)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    response, _ = request(connection, "GET", "/login")
    cookies = {"csrf": cookie(response, "csrf")}
    response, answer = form(connection, "/login/passkey/options", {"csrf": cookies["csrf"]}, cookies)
    challenge = cookie(response, "passkey-challenge")
    credential = json.dumps(authenticator.sign_in(json.loads(answer)["challenge"]))
    response, _ = form(connection, "/login/passkey", {"csrf": cookies["csrf"], "credential": credential},
                       dict(cookies, **{"passkey-challenge": challenge}))
    if response.status != 303:
        raise SystemExit("the passkey sign-in failed: %d" % response.status)
    cookies["session"] = cookie(response, "session")
    # Other people's texts for the glance, and lines for the activity.
    other = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for n in range(300):
        response, _ = form(other, "/login", {"csrf": cookies["csrf"], "phone": "530220%04d" % n},
                           {"csrf": cookies["csrf"]})
        session = cookie(response, "session")
        form(other, "/verify", {"csrf": cookies["csrf"], "code": "123456"},
             {"csrf": cookies["csrf"], "session": session})
    for name in ["Everyday", "Savings"]:
        _, home = get(connection, "/home", cookies)
        key = re.search(rb'name="key" value="([^"]*)"', home).group(1).decode()
        form(connection, "/accounts", {"csrf": cookies["csrf"], "key": key, "name": name}, cookies)
    response, body = get(connection, "/admin", cookies)
    for name in ["console"]:
        value = cookie(response, name)
        if value:
            cookies[name] = value
    if response.status != 200:
        raise SystemExit("the console did not open: %d %s" % (response.status, body[:200]))
    for page in PAGES:
        response, _ = get(connection, page, cookies)
        if response.status != 200:
            raise SystemExit("%s answered %d" % (page, response.status))
    connection.close()
    other.close()
    return server, cookies


def load(port, pid, page, cookies, seconds):
    """requests/s and µs of server CPU per request for `page` under wrk."""
    header = ["-H", "Cookie: " + "; ".join("%s=%s" % pair for pair in cookies.items())]
    url = "http://127.0.0.1:%d%s" % (port, page)
    subprocess.run(["wrk", "-t2", "-c%d" % CONNECTIONS, "-d2s", *header, url], capture_output=True, check=True)
    before = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t2", "-c%d" % CONNECTIONS, "-d%ds" % seconds, *header, url],
                         capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(pid) - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    if "Non-2xx" in out:
        raise SystemExit("%s: answers other than 200 under load:\n%s" % (page, out))
    return requests / seconds, cpu * 1e6 / max(1, requests)


def table(results):
    """The page table of one binary's rounds."""
    print("| page | req/s | µs CPU per request | CPU / Home's | within 2× Home |")
    print("| --- | ---: | ---: | ---: | --- |")
    for page in PAGES:
        ratios = [cpu / results["/home"][i][1] for i, (_, cpu) in enumerate(results[page])]
        ratio = statistics.median(ratios)
        print("| GET %s | %s | %s | %.2f× (%.2f–%.2f) | %s |" % (
            page, "{:,.0f}".format(statistics.median(r for r, _ in results[page])),
            "{:,.0f}".format(statistics.median(c for _, c in results[page])), ratio, min(ratios), max(ratios),
            "✅" if ratio <= 2 else "❌"))


def main(binaries):
    servers = []
    try:
        for binary in binaries:
            port = free_port()
            data = subprocess.run(["mktemp", "-d"], capture_output=True, text=True, check=True).stdout.strip()
            server, cookies = prepare(binary, port, data)
            servers.append((binary, port, data, server, cookies, {page: [] for page in PAGES}))
        for round_number in range(1, ROUNDS + 1):
            for binary, port, _, server, cookies, results in servers:
                for page in PAGES:
                    rate, cpu = load(port, server.pid, page, cookies, DURATION)
                    results[page].append((rate, cpu))
                    print("round %d  %s  GET %-18s %7.0f req/s  %5.0f µs CPU per request" % (
                        round_number, binary, page, rate, cpu), file=sys.stderr, flush=True)
    finally:
        for _, _, data, server, _, _ in servers:
            stop(server)
            subprocess.run(["rm", "-rf", data])
    print("ROUNDS=%d DURATION=%d, %d connections; medians over the rounds, ratios taken within each round." % (
        ROUNDS, DURATION, CONNECTIONS))
    for binary, _, _, _, _, results in servers:
        print()
        if len(servers) > 1:
            print("%s:" % binary)
            print()
        table(results)
    if len(servers) == 2:
        (old, _, _, _, _, before), (new, _, _, _, _, after) = servers
        print()
        print("CPU per request, %s over %s, within each round:" % (new, old))
        print()
        print("| page | new / old | rounds |")
        print("| --- | ---: | --- |")
        for page in PAGES:
            ratios = [after[page][i][1] / before[page][i][1] for i in range(ROUNDS)]
            print("| GET %s | %.2f× | %s |" % (
                page, statistics.median(ratios), ", ".join("%.2f" % r for r in ratios)))


if __name__ == "__main__":
    if not 2 <= len(sys.argv) <= 3:
        raise SystemExit("usage: bench/account_pages.py BINARY [NEW_BINARY]")
    main(sys.argv[1:])
