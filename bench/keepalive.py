"""Sends N GET requests to URL one after another on one keep-alive connection, for callgrind
(bench/callgrind): the server's instructions per request are its counts over N.
    python3 bench/keepalive.py URL N [COOKIE]
"""
import http.client
import sys
import urllib.parse

url, count = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
headers = {"Cookie": sys.argv[3]} if len(sys.argv) > 3 else {}
connection = http.client.HTTPConnection(url.hostname, url.port)
statuses = {}
for _ in range(count):
    connection.request("GET", url.path, headers=headers)
    response = connection.getresponse()
    response.read()
    statuses[response.status] = statuses.get(response.status, 0) + 1
print(f"{url.path}: {statuses}", file=sys.stderr)
