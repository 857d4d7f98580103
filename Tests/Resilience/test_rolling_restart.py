"""Deploys without a dropped request (issue 41): two instances of the real binary on one
PostgreSQL database behind nginx (an upstream of both, keep-alive connections, as
docs/DEPLOY.md gives it), a steady load of whole sign-ins (Login, the code, Verify) and Home,
and each instance restarted in turn the way docs/DEPLOY.md gives it for nginx: marked `down`
and nginx reloaded, SIGTERM (which drains), started again on its port, back in and reloaded. Not one request fails, and every sign-in that was answered still works afterwards.
Run by ./scripts/outage-tests (in ./scripts/test); about a minute.
"""

import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "PythonSupport"))
from webapp_process import BINARY, eventually, free_port, psql  # noqa: E402

POSTGRES = os.path.join(ROOT, "scripts", "postgres")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


class Instance:
    """One `webapp` on a fixed port, all instances on one schema and one outbox file."""

    def __init__(self, port, database, outbox, folder):
        self.port, self.database, self.outbox, self.folder = port, database, outbox, folder
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [BINARY, "--port", str(self.port), "--data-dir", self.folder, "--db", self.database,
             "--sms-outbox", self.outbox, "--shutdown-delay", "2", "--log-level", "error",
             "--max-codes-per-client", "100000", "--max-sign-ins-per-client", "100000",
             "--max-texts-per-exchange", "100000", "--max-codes-per-phone", "100000",
             "--max-texts-per-hour", "100000", "--max-texts-per-day", "100000"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        assert "Listening on" in line, line

    def restart(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.exit_status = self.process.returncode
        self.process.stdout.close()
        self.start()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        if self.process:
            self.process.stdout.close()


class RollingRestartTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="phonelogin-rolling-")
        os.chmod(self.folder, 0o755)  # PostgreSQL runs as its own user under root
        url = subprocess.run([POSTGRES, "start", os.path.join(self.folder, "pg")], check=True,
                             capture_output=True, text=True).stdout.strip()
        self.addCleanup(subprocess.run, [POSTGRES, "stop", os.path.join(self.folder, "pg")], capture_output=True)
        self.addCleanup(shutil.rmtree, self.folder, True)
        psql(url, "CREATE SCHEMA rolling")
        database = url + "?schema=rolling"
        self.outbox = os.path.join(self.folder, "outbox.jsonl")
        self.instances = []
        for n in range(2):
            data = os.path.join(self.folder, "data%d" % n)
            os.makedirs(data)
            if n == 1:  # one secret for both, as instances of one service share it
                shutil.copy(os.path.join(self.folder, "data0", "secret"), data)
            instance = Instance(free_port(), database, self.outbox, data)
            instance.start()
            self.addCleanup(instance.stop)
            self.instances.append(instance)
        self.port = free_port()
        self.nginx_folder = os.path.join(self.folder, "nginx")
        os.makedirs(self.nginx_folder)
        self.conf = conf = os.path.join(self.nginx_folder, "nginx.conf")
        place = lambda name: os.path.join(self.nginx_folder, name)  # noqa: E731
        self.template = """
worker_processes 1;
daemon off;
pid %(pid)s;
error_log %(error)s notice;
events { worker_connections 512; }
http {
    access_log %(access)s;
    client_body_temp_path %(body)s;
    proxy_temp_path %(proxy)s;
    fastcgi_temp_path %(body)s;
    uwsgi_temp_path %(body)s;
    scgi_temp_path %(body)s;
    upstream phone_login {
        server 127.0.0.1:%(one)d max_fails=3 fail_timeout=10s%(one_down)s;
        server 127.0.0.1:%(two)d max_fails=3 fail_timeout=10s%(two_down)s;
        keepalive 32;
    }
    server {
        listen 127.0.0.1:%(port)d;
        location / {
            proxy_pass http://phone_login;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
        }
    }
}
"""
        self.values = {"pid": place("nginx.pid"), "error": place("error.log"), "access": place("access.log"),
                       "body": place("body"), "proxy": place("proxy"), "port": self.port,
                       "one": self.instances[0].port, "two": self.instances[1].port}
        self.configure(down=None)
        self.nginx = subprocess.Popen([NGINX, "-p", self.nginx_folder, "-c", conf, "-e", place("error.log")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(lambda: (self.nginx.send_signal(signal.SIGQUIT), self.nginx.wait(timeout=10)))
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.base = "http://127.0.0.1:%d" % self.port

    def configure(self, down):
        """Writes nginx's configuration with the instance `down` (0, 1 or None) out of the upstream."""
        with open(self.conf, "w") as file:
            file.write(self.template % dict(self.values, one_down=" down" if down == 0 else "",
                                            two_down=" down" if down == 1 else ""))

    def reload(self, down):
        """nginx takes the configuration again: its old workers finish what they hold, and new
        requests go by the new upstream."""
        self.configure(down)
        self.nginx.send_signal(signal.SIGHUP)
        time.sleep(2)

    def code_for(self, e164):
        with open(self.outbox) as outbox:
            for line in reversed(outbox.read().splitlines()):
                text = json.loads(line)
                if text["to"] == e164:
                    return text["body"].split("#")[-1]
        raise AssertionError("no code for %s" % e164)

    def test_each_instance_restarted_in_turn_under_load_drops_no_request(self):
        failures, signed_in, counts = [], [], {"requests": 0}
        lock = threading.Lock()
        stop = threading.Event()

        def person(n):
            sequence = 0
            while not stop.is_set() and sequence < 200:
                jar = http.cookiejar.CookieJar()
                opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirects)
                phone = "530555%d%03d" % (n, sequence)
                sequence += 1

                def request(path, form=None):
                    data = urllib.parse.urlencode(form).encode() if form is not None else None
                    try:
                        with opener.open(self.base + path, data=data, timeout=30) as response:
                            body, status = response.read().decode(), response.status
                    except urllib.error.HTTPError as error:
                        body, status = error.read().decode(), error.code
                    except OSError as error:
                        body, status = str(error), 0
                    with lock:
                        counts["requests"] += 1
                    if status not in (200, 303):
                        title = re.search(r"<title>([^<]*)</title>", body)
                        with lock:
                            failures.append((path, status, title.group(1) if title else body[:200]))
                    return body

                page = request("/login")
                csrf = re.search(r'name="csrf" value="([^"]+)"', page)
                if not csrf:
                    continue
                request("/login", {"phone": phone, "csrf": csrf.group(1)})
                try:
                    code = self.code_for("+1" + phone)
                except AssertionError:
                    continue  # its Login failed, and is counted
                request("/verify", {"code": code, "csrf": csrf.group(1)})
                home = request("/home")
                if "Log out" in home:
                    with lock:
                        signed_in.append(opener)

        def more_sign_ins(than):
            """Whether more than `than` sign-ins reach Home (waited for, within two minutes)."""
            def reached():
                with lock:
                    return len(signed_in) > than
            return eventually(reached, within=120)

        workers = [threading.Thread(target=person, args=(n,), daemon=True) for n in range(4)]
        for worker in workers:
            worker.start()
        # The load under way (people signing in), then the deploy as docs/DEPLOY.md gives it for
        # nginx: out of the upstream, restarted, back in; after each instance, more sign-ins.
        signing_in = [more_sign_ins(5)]
        try:
            for n, instance in enumerate(self.instances):
                self.reload(down=n)
                instance.restart()
                self.reload(down=None)
                with lock:
                    done = len(signed_in)
                signing_in.append(more_sign_ins(done + 5))
        finally:
            stop.set()
            for worker in workers:
                worker.join(timeout=60)
        print("\n%d requests, %d sign-ins, %d failed; exit statuses %s"
              % (counts["requests"], len(signed_in), len(failures), [i.exit_status for i in self.instances]))
        with open(os.path.join(self.nginx_folder, "error.log")) as log:
            errors = [line for line in log.read().splitlines() if "[error]" in line]
        self.assertEqual(failures, [], "\n".join(errors[-10:]))
        self.assertEqual([i.exit_status for i in self.instances], [0, 0])
        self.assertEqual(signing_in, [True, True, True], "sign-ins before the deploy and after each instance's restart")
        # Every sign-in that was answered is valid afterwards, on whichever instance.
        for opener in signed_in:
            with opener.open(self.base + "/home", timeout=30) as response:
                self.assertIn("Log out", response.read().decode())


if __name__ == "__main__":
    unittest.main()
