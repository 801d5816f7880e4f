#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A stranger's flood of new sessions against returning visitors, as an attacker would run
it: one client (wrk -t1 -c32) sends cookieless GETs of /tabs/music, each of which would
store a new session, for DURATION seconds, while 50 returning visitors, each with a tab of
their own selected, come back every 0.5 s. Measured for each store (SQLite capped at
20,000 sessions, memory capped at 20,000, Redis under maxmemory with volatile-ttl), with the
per-client budget of new sessions off (admission alone) and on (the defaults).

    bench/flood.py [seconds]     (default 20; the release build, as bench/run.sh builds it)

Prints a table: visitors who kept their state, requests the flood sent, and the server's
own counts from /metrics (sessions created, promoted, evicted by standing, refused by the
budget). Everything binds 127.0.0.1 and is stopped by pid."""
import http.client
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("TABSERVER_BINARY", os.path.join(ROOT, ".build/release/tabserver"))
DURATION = int(sys.argv[1]) if len(sys.argv) > 1 else 20
VISITORS = 50
TABS = ["movies", "tv", "podcasts", "audiobooks", "purchased"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")


def request(port, method, path, cookie=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {}
    if cookie:
        headers["Cookie"] = cookie
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response, data


class Visitor:
    def __init__(self, port, tab):
        self.port, self.tab = port, tab
        response, _ = request(port, "GET", f"/tabs/{tab}")
        cookie = response.getheader("Set-Cookie")
        if not cookie:
            raise SystemExit("a visitor got no session")
        self.cookie = cookie.split(";")[0]
        self.lost = False

    def come_back(self):
        response, _ = request(self.port, "GET", "/", cookie=self.cookie)
        if response.getheader("Location") != f"/tabs/{self.tab}" or response.getheader("Set-Cookie"):
            self.lost = True
        else:
            request(self.port, "GET", f"/tabs/{self.tab}", cookie=self.cookie)


def metrics(port):
    _, data = request(port, "GET", "/metrics")
    text = data.decode()
    found = {}
    for name in ["created", "promoted", "refused"]:
        match = re.search(rf"^tabserver_sessions_{name}_total (\d+)$", text, re.M)
        found[name] = int(match.group(1)) if match else 0
    for standing in ["probationary", "established"]:
        match = re.search(rf'^tabserver_sessions_evicted_total{{standing="{standing}"}} (\d+)$', text, re.M)
        found["evicted " + standing] = int(match.group(1)) if match else 0
    return found


def start_redis(folder):
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", folder, "--maxmemory", "16mb", "--maxmemory-policy", "volatile-ttl"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port)
    return process, port


def redis_evicted(port):
    output = subprocess.run(["redis-cli", "-p", str(port), "INFO", "stats"], capture_output=True, text=True).stdout
    match = re.search(r"evicted_keys:(\d+)", output)
    return int(match.group(1)) if match else 0


def run(store, budget):
    folder = tempfile.mkdtemp(prefix="flood-")
    redis = None
    port = free_port()
    arguments = [BINARY, "--port", str(port), "--metrics", "on", "--access-log", "off",
                 "--tabs", os.path.join(ROOT, "Tests/Fixtures/tabs.json")]
    if store == "sqlite":
        arguments += ["--sessions", f"sqlite:{folder}/sessions.sqlite", "--sqlite-max-sessions", "20000"]
    elif store == "memory":
        arguments += ["--sessions", "memory", "--memory-sessions", "20000"]
    else:
        redis, redis_port = start_redis(folder)
        arguments += ["--sessions", f"redis://127.0.0.1:{redis_port}/0"]
    if not budget:
        arguments += ["--new-session-rate", "0"]
    server = subprocess.Popen(arguments, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_listening(port)
        visitors = [Visitor(port, TABS[index % len(TABS)]) for index in range(VISITORS)]
        # The visitors are returning ones: each has come back once already.
        for visitor in visitors:
            visitor.come_back()
        stop = threading.Event()

        def keep_coming_back():
            while not stop.is_set():
                started = time.monotonic()
                for visitor in visitors:
                    if not visitor.lost:
                        visitor.come_back()
                stop.wait(max(0, 0.5 - (time.monotonic() - started)))

        returning = threading.Thread(target=keep_coming_back)
        returning.start()
        wrk = subprocess.run(["wrk", "-t1", "-c32", f"-d{DURATION}s", f"http://127.0.0.1:{port}/tabs/music"],
                             capture_output=True, text=True)
        stop.set()
        returning.join()
        sent = re.search(r"(\d+) requests in", wrk.stdout)
        for visitor in visitors:
            if not visitor.lost:
                visitor.come_back()
        figures = metrics(port)
        figures["kept"] = sum(not visitor.lost for visitor in visitors)
        figures["flood"] = int(sent.group(1)) if sent else 0
        if redis:
            figures["evicted by Redis"] = redis_evicted(redis_port)
        return figures
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=15)
        if redis:
            redis.send_signal(signal.SIGTERM)
            redis.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def main():
    if not os.path.exists(BINARY):
        raise SystemExit(f"{BINARY} is missing: swift build -c release --product tabserver")
    print(f"flood: {DURATION} s of wrk -t1 -c32 cookieless GET /tabs/music; {VISITORS} visitors every 0.5 s")
    print("| store | budget | visitors kept | flood requests | created | promoted | evicted (probationary / "
          "established) | refused by the budget |")
    print("|---|---|---|---|---|---|---|---|")
    for store in ["sqlite", "memory", "redis"]:
        for budget in [False, True]:
            figures = run(store, budget)
            evicted = (f"{figures['evicted probationary']:,} / {figures['evicted established']:,}"
                       if store != "redis" else f"{figures.get('evicted by Redis', 0):,} by Redis")
            print(f"| {store} | {'on (defaults)' if budget else 'off'} | {figures['kept']} of {VISITORS} | "
                  f"{figures['flood']:,} | {figures['created']:,} | {figures['promoted']:,} | {evicted} | "
                  f"{figures['refused']:,} |", flush=True)


if __name__ == "__main__":
    main()
