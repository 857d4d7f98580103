"""The proxies of the gateway tests: nginx (`auth_request`) and Caddy (`forward_auth`), as this
user, on the configurations of docs/GATEWAY.md (doc_blocks.py) with only test names, ports and
plain HTTP put in, on 127.0.0.1, stopped at the end. `gateway.Stack` starts one of them.
"""

import getpass
import grp
import os
import re
import shutil
import signal
import subprocess

from doc_blocks import DOC_APP_HOST, DOC_LOGIN_HOST, DOC_UPSTREAM, DOC_WEBAPP, block_containing, replace, tested_block
from gateway import LOGIN_HOST, PROTECTED_HOSTS, stop, wait_for_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy")


class Nginx:
    """nginx, as this user, on the docs' configuration with test names and ports."""

    name = "nginx"

    @staticmethod
    def available():
        return os.path.exists(NGINX)

    def __init__(self, folder, port, webapp_port, upstream_port):
        self.folder = os.path.join(folder, "nginx")
        os.makedirs(self.folder)
        self.port = port
        block = tested_block("nginx")
        block = re.sub(r"(?m)^\s*ssl_certificate(_key)?\s.*\n", "", block)
        block = replace(block, "listen 443 ssl http2;", "listen 127.0.0.1:%d;" % port, "nginx")
        block = replace(block, DOC_WEBAPP, "127.0.0.1:%d" % webapp_port, "nginx")
        block = replace(block, DOC_UPSTREAM, "127.0.0.1:%d" % upstream_port, "nginx")
        block = replace(block, DOC_LOGIN_HOST, LOGIN_HOST, "nginx")
        protected = block_containing(block, "server_name %s;" % DOC_APP_HOST)
        block = block.replace(protected, "".join(
            protected.replace("server_name %s;" % DOC_APP_HOST, "server_name %s;" % host) for host in PROTECTED_HOSTS))
        self.gateway_conf = block
        with open(os.path.join(self.folder, "gateway.conf"), "w") as conf:
            conf.write(block)
        temp = lambda name: os.path.join(self.folder, name)  # noqa: E731
        main = """
user %(user)s %(group)s;
worker_processes 1;
daemon off;
pid %(pid)s;
error_log %(error)s notice;
events { worker_connections 256; }
http {
    access_log %(access)s;
    client_body_temp_path %(body)s;
    proxy_temp_path %(proxy)s;
    fastcgi_temp_path %(fastcgi)s;
    uwsgi_temp_path %(uwsgi)s;
    scgi_temp_path %(scgi)s;
    include %(gateway)s;
}
""" % {
            "user": getpass.getuser(), "group": grp.getgrgid(os.getgid()).gr_name,
            "pid": temp("nginx.pid"), "error": temp("error.log"), "access": temp("access.log"),
            "body": temp("body"), "proxy": temp("proxy"), "fastcgi": temp("fastcgi"),
            "uwsgi": temp("uwsgi"), "scgi": temp("scgi"), "gateway": temp("gateway.conf"),
        }
        self.conf = temp("nginx.conf")
        with open(self.conf, "w") as conf:
            conf.write(main)
        command = [NGINX, "-p", self.folder, "-c", self.conf, "-e", temp("error.log")]
        checked = subprocess.run(command + ["-t", "-q"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError("nginx -t refused the docs' configuration:\n%s%s" % (checked.stderr, block))
        self.output = open(temp("stderr.log"), "w")
        self.process = subprocess.Popen(command, stdout=self.output, stderr=subprocess.STDOUT)
        wait_for_port(port, self.process, "nginx")

    def stop(self):
        stop(self.process, signal.SIGQUIT)
        self.output.close()

    def log_text(self):
        with open(os.path.join(self.folder, "error.log")) as log:
            return log.read()


class Caddy:
    """Caddy, as this user, on the docs' Caddyfile with test names, ports and plain HTTP."""

    name = "caddy"

    @staticmethod
    def available():
        return CADDY is not None

    def __init__(self, folder, port, webapp_port, upstream_port):
        self.folder = os.path.join(folder, "caddy")
        os.makedirs(self.folder)
        self.port = port
        block = tested_block("caddy")
        block = replace(block, DOC_WEBAPP, "127.0.0.1:%d" % webapp_port, "caddy")
        block = replace(block, DOC_UPSTREAM, "127.0.0.1:%d" % upstream_port, "caddy")
        block = replace(block, "\n%s {" % DOC_LOGIN_HOST, "\nhttp://%s:%d {" % (LOGIN_HOST, port), "caddy")
        protected = block_containing(block, "%s {" % DOC_APP_HOST)
        block = block.replace(protected, "".join(
            protected.replace("%s {" % DOC_APP_HOST, "http://%s:%d {" % (host, port)) for host in PROTECTED_HOSTS))
        # Test-only global options: no admin endpoint, no certificates, loopback only, and
        # Caddy's own files in the test's folder.
        caddyfile = "{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n\tstorage file_system %s\n}\n\n%s" % (
            os.path.join(self.folder, "storage"), block)
        self.gateway_conf = caddyfile
        self.conf = os.path.join(self.folder, "Caddyfile")
        with open(self.conf, "w") as conf:
            conf.write(caddyfile)
        environment = dict(os.environ, HOME=self.folder, XDG_DATA_HOME=self.folder, XDG_CONFIG_HOME=self.folder)
        self.log_path = os.path.join(self.folder, "caddy.log")
        self.output = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [CADDY, "run", "--config", self.conf, "--adapter", "caddyfile"],
            stdout=self.output, stderr=subprocess.STDOUT, env=environment, cwd=self.folder)
        wait_for_port(port, self.process, "caddy")

    def stop(self):
        stop(self.process)
        self.output.close()

    def log_text(self):
        with open(self.log_path) as log:
            return log.read()
