# SPDX-License-Identifier: Apache-2.0
"""Cost of idle live-update streams (GET /events): RSS of the server before and after
opening N streams (N/4 visitors, 4 streams each, the per-session cap), and the latency
of page requests while they are open. Loopback only, bounded, stops its server by pid.

Usage: python3 bench/streams.py [binary] [streams]   (default .build/release/tabserver 1000)
"""

import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_arguments, sys.argv = sys.argv, sys.argv[:1]  # bench.py reads its duration from argv
from bench import free_port, rss_kib  # noqa: E402

sys.argv = _arguments

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/tabserver"
STREAMS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000


def page_latencies(port, cookie, count=200):
    times = []
    for _ in range(count):
        started = time.monotonic()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/tabs/music", headers={"Cookie": cookie})
        urllib.request.urlopen(request, timeout=5).read()
        times.append((time.monotonic() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def main():
    port = free_port()
    server = subprocess.Popen([BINARY, "--port", str(port), "--sessions", "memory", "--access-log", "off"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sockets = []
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        cookies = []
        for _ in range((STREAMS + 3) // 4):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/tabs/music", timeout=5) as r:
                cookies.append(r.headers["Set-Cookie"].split(";")[0])
        time.sleep(0.3)
        before_rss = rss_kib(server.pid)
        before = page_latencies(port, cookies[0])
        for index in range(STREAMS):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"GET /events HTTP/1.1\r\nHost: t\r\nCookie: {cookies[index // 4]}\r\n\r\n".encode())
            sockets.append(s)
        opened = 0
        for s in sockets:
            s.settimeout(5)
            if b" 200 " in s.recv(4096):
                opened += 1
        time.sleep(0.5)
        after_rss = rss_kib(server.pid)
        during = page_latencies(port, cookies[0])
        print(f"streams open: {opened} of {STREAMS}")
        print(f"server RSS: {before_rss / 1024:.1f} MiB -> {after_rss / 1024:.1f} MiB "
              f"({(after_rss - before_rss) * 1024 / max(opened, 1):.0f} bytes per stream)")
        print(f"GET /tabs/music latency: median {before[0]:.2f} ms, p95 {before[1]:.2f} ms without streams; "
              f"median {during[0]:.2f} ms, p95 {during[1]:.2f} ms with {opened} streams open")
    finally:
        for s in sockets:
            s.close()
        server.terminate()
        server.wait(timeout=15)


if __name__ == "__main__":
    main()
