#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a session holding push subscriptions at the caps costs, as a visitor would fill
one: the release server, Web Push on (loopback endpoints taken, nothing is sent), and
SESSIONS sessions made over HTTP. Measured on the memory store as the server's resident
memory grows (VmRSS), and on SQLite as the database's size once the server stopped
and its WAL is checkpointed, divided by the count, for four shapes:

  plain        a session with a tab selected (no subscription), the reference;
  browser      an anonymous visitor's session at its caps (two subscriptions, the bytes
               cap filled by two long endpoints);
  user-many    a signed-in user's record at its count cap (five short endpoints);
  user-long    a user's record at its bytes cap (two endpoints of about 1 KiB).

    bench/push_memory.py [sessions]     (default 20000; .build/release/tabserver)

Everything binds 127.0.0.1 and is stopped by pid."""
import base64
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_arguments, sys.argv = sys.argv, sys.argv[:1]  # bench.py reads its duration from argv
from bench import free_port, rss_kib  # noqa: E402

sys.argv = _arguments

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("TABSERVER_BINARY", os.path.join(ROOT, ".build/release/tabserver"))
SESSIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
WARM_UP = 200
# A valid P-256 public key (the curve's generator, uncompressed) and a 16-byte secret: the
# server checks the point, not whose key it is.
P256DH = base64.urlsafe_b64encode(bytes.fromhex(
    "04" "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296"
    "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5")).rstrip(b"=").decode()
AUTH = base64.urlsafe_b64encode(b"0123456789abcdef").rstrip(b"=").decode()


class Connection:
    """One kept-alive connection that carries a cookie of its own when asked."""

    def __init__(self, port):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(self, method, path, headers, body=None):
        self.http.request(method, path, body=body, headers=headers)
        response = self.http.getresponse()
        return response.status, response.getheaders(), response.read()


def endpoint(index, number, length):
    base = f"https://push{index % 97}.example.net/{index}/{number}/"
    return base + "x" * max(0, length - len(base))


def fill(connection, index, shape):
    """One session of `shape`: its cookie and token from a page, then its subscriptions."""
    user = [("X-Forwarded-User", f"user{index}")] if shape.startswith("user") else []
    status, headers, body = connection.send("GET", "/more", dict(user))
    token = re.search(rb'data-csrf="([^"]+)"', body).group(1).decode()
    cookie = None
    if shape == "plain":
        form = f"csrf={token}&tab=movies"
        status, headers, _ = connection.send(
            "POST", "/select", {"Content-Type": "application/x-www-form-urlencoded"}, form)
        assert status == 303, status
        return
    lengths = {"browser": [929, 929], "user-many": [300] * 5, "user-long": [1024, 1024]}[shape]
    for number, length in enumerate(lengths):
        subscription = {"endpoint": endpoint(index, number, length), "expirationTime": None,
                        "keys": {"p256dh": P256DH, "auth": AUTH}}
        request_headers = dict(user)
        request_headers.update({"Content-Type": "application/json", "X-CSRF-Token": token})
        if cookie:
            request_headers["Cookie"] = cookie
        status, headers, body = connection.send("POST", "/push/subscribe", request_headers, json.dumps(subscription))
        assert status == 200, (status, body)
        token = json.loads(body)["csrf"]
        for name, value in headers:
            if name.lower() == "set-cookie":
                cookie = value.split(";")[0]


def database_bytes(path):
    """The database's size once its WAL is checkpointed into it (the server has stopped)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        return pages * connection.execute("PRAGMA page_size").fetchone()[0]
    finally:
        connection.close()


def measure(shape, store):
    """Bytes a session of `shape` adds: to the resident memory ("memory") or on disk ("sqlite")."""
    work = tempfile.mkdtemp(prefix="push-memory-")
    database = os.path.join(work, "sessions.sqlite")
    port = free_port()
    sessions = "memory" if store == "memory" else f"sqlite:{database}"
    proc = subprocess.Popen(
        [BINARY, "--port", str(port), "--sessions", sessions, "--access-log", "off", "--new-session-rate", "0",
         "--memory-sessions", str(SESSIONS * 2), "--vapid-key", os.path.join(work, "vapid.pem"),
         "--push-allow-loopback", "on", "--identity-header", "X-Forwarded-User"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
        # Warm up the allocator and the rendered pages with sessions of the same shape.
        for index in range(WARM_UP):
            fill(Connection(port), SESSIONS + index, shape)
        before = rss_kib(proc.pid) * 1024
        for index in range(SESSIONS):
            fill(Connection(port), index, shape)
        if store == "memory":
            return (rss_kib(proc.pid) * 1024 - before) / SESSIONS
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        # Every visitor's rows (the warm-up's too), with the schema's few pages.
        return database_bytes(database) / (SESSIONS + WARM_UP)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


def main():
    if not os.path.exists(BINARY):
        raise SystemExit(f"{BINARY} is missing: swift build -c release --product tabserver")
    print(f"| shape | memory a session, bytes | SQLite a session, bytes ({SESSIONS:,} sessions) |")
    print("|---|---|---|")
    for shape in ["plain", "browser", "user-many", "user-long"]:
        print(f"| {shape} | {measure(shape, 'memory'):,.0f} | {measure(shape, 'sqlite'):,.0f} |", flush=True)


if __name__ == "__main__":
    main()
