#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A soak: mixed load for a while with live streams, SIGHUPs and a Redis restart, and the
server's memory and descriptors sampled throughout.

Usage: python3 bench/soak.py [BINARY] [SECONDS]   (default .build/release/tabserver 600)

Starts its own redis-server and BINARY on free loopback ports (sessions on that Redis,
access log off), then for SECONDS:
- 8 visitors, each on one kept-alive connection with its own session, load a tab page and
  tap a tab (POST /select with the page's CSRF token) in turn, as fast as they are answered;
- 40 live streams (GET /events, 4 per visitor for 10 visitors), reopened when they end;
- SIGHUP to the server every 30 s (the tabs are read again);
- Redis stopped (SIGTERM, which saves its data) at 40 % of the run and started again 3 s
  later (loading it: the sessions survive, so the visitors' tokens stay valid).
Every 10 s it samples the server's RSS and open descriptors. It reports, per minute, the
requests answered by status, and errors other than the expected 503s while Redis is away
(and for up to 5 s after it is back). Everything stops by itself; only processes it
started are stopped, by pid.
"""
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

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ARGUMENTS = sys.argv[1:]
sys.argv = sys.argv[:1]  # bench.py reads its duration from argv
from bench import free_port, rss_kib  # noqa: E402

BINARY = ARGUMENTS[0] if ARGUMENTS else ".build/release/tabserver"
SECONDS = int(ARGUMENTS[1]) if len(ARGUMENTS) > 1 else 600
VISITORS = 8
STREAM_VISITORS = 10
STREAMS_EACH = 4
TABS = ["music", "movies", "tv", "featured"]


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Counts:
    """Answers by status and errors, per minute of the run."""

    def __init__(self):
        self.lock = threading.Lock()
        self.minutes = {}
        self.unexpected = []

    def add(self, minute, status, expected_outage):
        with self.lock:
            bucket = self.minutes.setdefault(minute, {})
            bucket[status] = bucket.get(status, 0) + 1
            if status not in (200, 303) and not (status in (503, "error") and expected_outage):
                if len(self.unexpected) < 20:
                    self.unexpected.append((minute, status))


class Soak:
    def __init__(self, work):
        self.work = work
        self.redis_port = free_port()
        self.port = free_port()
        self.started = time.monotonic()
        self.deadline = self.started + SECONDS
        self.counts = Counts()
        self.outage = (0.0, 0.0)  # Redis away, as offsets of the run (start, back + 5 s)
        self.redis = None
        self.server = None
        self.samples = []
        self.streams_opened = 0
        self.streams_lock = threading.Lock()
        self.metrics = []

    def elapsed(self):
        return time.monotonic() - self.started

    def in_outage(self):
        start, end = self.outage
        return start <= self.elapsed() <= end

    def start_redis(self):
        self.redis = subprocess.Popen(
            # A save point, so the restart (SIGTERM saves, then the start loads) keeps the sessions.
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "3600 1",
             "--appendonly", "no", "--dir", self.work, "--dbfilename", "soak.rdb"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop_redis(self):
        self.redis.terminate()
        self.redis.wait(timeout=10)

    def start_server(self):
        self.server = subprocess.Popen(
            [BINARY, "--port", str(self.port), "--sessions", f"redis://127.0.0.1:{self.redis_port}/0",
             "--access-log", "off", "--metrics", "on"], stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.work, "server.log"), "w"))
        for _ in range(200):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/readyz")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("tabserver did not become ready")

    def visitor(self, index):
        connection = None
        cookie = ""
        token = None
        turn = 0
        while time.monotonic() < self.deadline:
            minute = int(self.elapsed() // 60)
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                headers = {"Cookie": cookie} if cookie else {}
                if token is None or turn % 2 == 0:
                    connection.request("GET", f"/tabs/{TABS[turn % len(TABS)]}", headers=headers)
                    response = connection.getresponse()
                    body = response.read().decode("utf-8", "replace")
                    found = re.search(r'name="csrf" value="([^"]+)"', body)
                    if found:
                        token = found.group(1)
                else:
                    headers["Content-Type"] = "application/x-www-form-urlencoded"
                    connection.request("POST", "/select", body=f"csrf={token}&tab={TABS[(turn + index) % len(TABS)]}",
                                       headers=headers)
                    response = connection.getresponse()
                    response.read()
                set_cookie = response.getheader("Set-Cookie")
                if set_cookie:
                    cookie = set_cookie.split(";", 1)[0]
                self.counts.add(minute, response.status, self.in_outage())
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException):
                self.counts.add(minute, "error", self.in_outage())
                if connection is not None:
                    connection.close()
                connection = None
                time.sleep(0.05)
            turn += 1

    def stream(self, cookie):
        while time.monotonic() < self.deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
                    s.sendall(f"GET /events HTTP/1.1\r\nHost: t\r\nCookie: {cookie}\r\n"
                              "Accept: text/event-stream\r\n\r\n".encode())
                    with self.streams_lock:
                        self.streams_opened += 1
                    s.settimeout(2)
                    while time.monotonic() < self.deadline:
                        try:
                            if not s.recv(4096):
                                break
                        except socket.timeout:
                            continue
            except OSError:
                pass
            time.sleep(0.5)

    def stream_cookies(self):
        cookies = []
        for _ in range(STREAM_VISITORS):
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            connection.request("GET", "/tabs/music")
            response = connection.getresponse()
            body = response.read().decode()
            token = re.search(r'name="csrf" value="([^"]+)"', body).group(1)
            cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
            if not cookie:
                # The default state writes no session: a tap makes one.
                connection.request("POST", "/select", body=f"csrf={token}&tab=movies",
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
                response = connection.getresponse()
                response.read()
                cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
            connection.close()
            cookies.append(cookie)
        return cookies

    def conductor(self):
        restart_at = SECONDS * 0.4
        restarted = False
        next_hup = 30
        next_sample = 0
        while time.monotonic() < self.deadline:
            now = self.elapsed()
            if now >= next_sample:
                self.samples.append((now, rss_kib(self.server.pid), descriptors(self.server.pid)))
                next_sample += 10
            if now >= next_hup:
                self.server.send_signal(signal.SIGHUP)
                next_hup += 30
            if not restarted and now >= restart_at:
                restarted = True
                self.outage = (now, now + 3 + 5 + 1)
                self.stop_redis()
                time.sleep(3)
                self.start_redis()
                self.outage = (self.outage[0], self.elapsed() + 5)
            time.sleep(0.2)

    def run(self):
        self.start_redis()
        self.start_server()
        try:
            threads = [threading.Thread(target=self.visitor, args=(i,)) for i in range(VISITORS)]
            for cookie in self.stream_cookies():
                threads += [threading.Thread(target=self.stream, args=(cookie,)) for _ in range(STREAMS_EACH)]
            threads.append(threading.Thread(target=self.conductor))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=SECONDS + 30)
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            connection.request("GET", "/metrics")
            exposition = connection.getresponse().read().decode()
            self.metrics = [line for line in exposition.splitlines()
                            if line.startswith(("tabserver_work_lane_jobs_total", "tabserver_hook_events",
                                                "tabserver_open_connections", "tabserver_session_store_up"))]
        finally:
            self.server.terminate()
            try:
                code = self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()
                code = "killed"
            self.redis.terminate()
            self.redis.wait(timeout=10)
        return code

    def report(self, code):
        print(f"soak: {SECONDS} s, {VISITORS} visitors, {STREAM_VISITORS * STREAMS_EACH} live streams "
              f"(opened {self.streams_opened} times), SIGHUP every 30 s, Redis restarted at "
              f"{self.outage[0]:.0f} s; server exit {code}")
        print("| minute | 200 | 303 | 503 | other | errors |")
        print("|---|---|---|---|---|---|")
        total = {}
        for minute in sorted(self.counts.minutes):
            bucket = self.counts.minutes[minute]
            other = sum(v for k, v in bucket.items() if k not in (200, 303, 503, "error"))
            print(f"| {minute} | {bucket.get(200, 0)} | {bucket.get(303, 0)} | {bucket.get(503, 0)} | {other} | "
                  f"{bucket.get('error', 0)} |")
            for key, value in bucket.items():
                total[key] = total.get(key, 0) + value
        print(f"total: {total}")
        print("at the end, /metrics: " + "; ".join(self.metrics))
        print("| at | RSS | descriptors |")
        print("|---|---|---|")
        for at, rss, fds in self.samples[:: max(1, len(self.samples) // 12)]:
            print(f"| {at:.0f} s | {rss / 1024:.1f} MiB | {fds} |")
        warm = [s for s in self.samples if s[0] >= 60] or self.samples
        rss_values = [s[1] for s in warm]
        fd_values = [s[2] for s in warm]
        growth = (rss_values[-1] - rss_values[0]) / rss_values[0] * 100
        print(f"after the first minute: RSS {min(rss_values) / 1024:.1f}–{max(rss_values) / 1024:.1f} MiB "
              f"(end vs start {growth:+.1f} %), descriptors {min(fd_values)}–{max(fd_values)}")
        flat = growth <= 10 and max(fd_values) - min(fd_values) <= STREAM_VISITORS * STREAMS_EACH + VISITORS
        ok = flat and not self.counts.unexpected and code == 0
        print(f"unexpected answers (outside the Redis outage): {self.counts.unexpected or 'none'}")
        print(f"verdict: {'pass' if ok else 'FAIL'} (RSS end ≤ +10 % of minute 1, descriptors within the streams' "
              "and visitors' count, no unexpected answer, exit 0)")
        return ok


def main():
    if not shutil.which("redis-server"):
        sys.exit("soak: redis-server is missing (scripts/setup.sh --test installs it)")
    work = tempfile.mkdtemp(prefix="tabserver-soak-")
    try:
        soak = Soak(work)
        code = soak.run()
        ok = soak.report(code)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
