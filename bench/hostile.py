#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Memory per idle connection, measured on the real binary: starts tabserver on
loopback, opens N connections (each sends one GET /healthz and keeps the connection
alive, or sends nothing), and reads the server's RSS before and after. Then runs it out
of descriptors (ulimit -n 356, budget 100, 600 clients that hold their connections) and
checks that every client still gets 200 or 503. Bounded: every socket has a timeout,
each server is stopped by pid at the end.

    python3 bench/hostile.py [binary] [connections]
"""
import os, resource, signal, socket, subprocess, sys, time

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tabserver"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
port = 18700 + os.getpid() % 200
resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def run(mode):
    server = subprocess.Popen(
        [binary, "--port", str(port), "--sessions", "memory", "--access-log", "off",
         "--connection-limit", str(count + 1000), "--connection-timeout", "120", "--header-timeout", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        warm = socket.create_connection(("127.0.0.1", port), timeout=5)
        for _ in range(200):  # warm the heap and the response path first
            warm.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            warm.recv(4096)
        time.sleep(0.3)
        before = rss(server.pid)
        sockets = []
        started = time.time()
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if mode == "keep-alive":
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                s.recv(4096)
            sockets.append(s)
        time.sleep(1.0)
        after = rss(server.pid)
        elapsed = time.time() - started
        # The server still answers promptly with all of them held.
        probe = socket.create_connection(("127.0.0.1", port), timeout=5)
        t = time.time()
        probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        ok = probe.recv(4096).startswith(b"HTTP/1.1 200")
        latency = (time.time() - t) * 1000
        for s in sockets:
            s.close()
        per = (after - before) / count
        print(f"{mode}: {count} idle connections held in {elapsed:.1f} s; server RSS {before / 2**20:.1f} -> "
              f"{after / 2**20:.1f} MiB: {per / 1024:.1f} KiB per connection; /healthz with all held: "
              f"{'200' if ok else 'FAILED'} in {latency:.1f} ms")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


def out_of_descriptors():
    server = subprocess.Popen(
        ["bash", "-c", f"ulimit -n 356; exec {binary} --port {port} --sessions memory --access-log off "
         "--connection-limit 100"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(600)]
        codes = {}
        for s in held:
            try:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                data = s.recv(200)
                code = data[9:12].decode() if data else "closed without answer"
            except OSError:
                code = "error"
            codes[code] = codes.get(code, 0) + 1
        print(f"out of descriptors (ulimit -n 356, budget 100, 600 held connections): {codes}")
        for s in held:
            s.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


for mode in ("silent", "keep-alive"):
    run(mode)
out_of_descriptors()
