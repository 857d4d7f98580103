"""The abuse run's app and how it is reached (bench/abuse.py): one `webapp` process on loopback with
its own data folder and SMS outbox (`Server`: its port, its resident memory, the texts it sent), and
`Connection`, one keep-alive HTTP/1.1 connection that reads each answer in full. Standard library
only.
"""

import asyncio
import json
import os
import re
import shutil
import subprocess
import tempfile
import time


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
