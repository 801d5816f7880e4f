#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Server CPU per request for heads as large as the limits allow, against a plain request.

Usage: python3 bench/amplification.py [BINARY] [ROUNDS]

Starts BINARY (default .build/release/tabserver) on a free loopback port with memory
sessions and the access log off, then sends, over one kept-alive connection, requests for
a tab page with: nothing special (plain), and one header field of about 31 KB (the head
limit is 32 KiB): X-Padding (read by no parser: the engine's own cost of a large head),
Accept-Language, Cookie, X-Forwarded-For and Forwarded (the default
--trusted-proxies trusts loopback, so the forwarded headers are read). The server's CPU
time (user + system, from /proc) per request is the figure; each case runs ROUNDS rounds
(default 5) of 1.5 s and the median is printed with the ratio to plain.

With --session every request carries the cookie of a visitor's session made first (the
cached tab page of a returning visitor, as bench/bench.py measures it; the Cookie case
puts that cookie first in its list). With --wrk the plain and Accept-Language cases run
once more under wrk (-t1 -c64, 5 s each, the --session cookie on every request), and the
server's CPU per request is the CPU it used over the requests wrk made.
"""
import os
import re
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = os.sysconf("SC_CLK_TCK")
FIELD = 31_000


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def read_response(sock, buffer):
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed")
        buffer += chunk
    head, rest = buffer.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed")
        rest += chunk
    return status, rest[length:]


def cases(session=""):
    language = ",".join(f"x{index % 1000:03d}-yy;q=0.{index % 10}" for index in range(4000))[:FIELD].rsplit(",", 1)[0]
    cookie = "; ".join(f"c{index}=v{index}" for index in range(4000))[:FIELD].rsplit(";", 1)[0]
    if session:
        cookie = (session + "; " + cookie)[:FIELD].rsplit(";", 1)[0]
    chain = ", ".join(f"127.0.{index % 250}.{index % 200 + 1}" for index in range(4000))[:FIELD].rsplit(",", 1)[0]
    forwarded = ", ".join(f"for=127.0.{index % 250}.{index % 200 + 1};proto=https" for index in range(2000))
    forwarded = forwarded[:FIELD].rsplit(",", 1)[0]
    carried = f"Cookie: {session}\r\n" if session else ""
    return [(name, extra if name.startswith("Cookie") else carried + extra) for name, extra in [
        ("plain", ""),
        ("X-Padding 31 KB", f"X-Padding: {'a' * (FIELD - 10)}\r\n"),
        ("Accept-Language 31 KB", f"Accept-Language: {language}\r\n"),
        ("Cookie 31 KB", f"Cookie: {cookie}\r\n"),
        ("X-Forwarded-For 31 KB", f"X-Forwarded-For: {chain}\r\n"),
        ("Forwarded 31 KB", f"Forwarded: {forwarded}\r\n"),
    ]]


def measure(pid, port, extra, seconds):
    request = f"GET /tabs/music HTTP/1.1\r\nHost: t\r\n{extra}\r\n".encode()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        buffer = b""
        for _ in range(20):  # warm up
            sock.sendall(request)
            _, buffer = read_response(sock, buffer)
        before = cpu_seconds(pid)
        started = time.monotonic()
        count = 0
        while time.monotonic() - started < seconds:
            sock.sendall(request)
            status, buffer = read_response(sock, buffer)
            if status != 200:
                raise RuntimeError(f"status {status}")
            count += 1
        return (cpu_seconds(pid) - before) / count


def session_cookie(port):
    """A visitor's session: the cookie a first visit of a tab page sets."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(65536)
    return re.search(rb"(?i)set-cookie: *([^;\r\n]+)", head).group(1).decode()


def wrk_cpu(pid, port, headers):
    """Server CPU per request while wrk sends the tab page with `headers`."""
    arguments = ["wrk", "-t1", "-c64", "-d5s"]
    for header in headers:
        arguments += ["-H", header]
    before = cpu_seconds(pid)
    out = subprocess.run(arguments + [f"http://127.0.0.1:{port}/tabs/music"], capture_output=True, text=True,
                         check=True).stdout
    used = cpu_seconds(pid) - before
    total = int(re.search(r"(\d+) requests in", out).group(1))
    if re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        raise RuntimeError("wrk: answers other than 200")
    return used / total


def main():
    flags = {argument for argument in sys.argv[1:] if argument.startswith("--")}
    positional = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    binary = positional[0] if positional else os.path.join(ROOT, ".build/release/tabserver")
    rounds = int(positional[1]) if len(positional) > 1 else 5
    server = subprocess.Popen(
        [binary, "--port", "0", "--sessions", "memory", "--access-log", "off", "--threads", "1",
         "--public", ROOT + "/Public", "--templates", ROOT + "/Templates", "--locales", ROOT + "/Locales",
         "--tabs", ROOT + "/tabs.json"],
        stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        session = session_cookie(port) if "--session" in flags else ""
        results = {}
        for name, extra in cases(session):
            samples = []
            for _ in range(rounds):
                # Long enough for the 10 ms clock ticks of /proc to round away.
                samples.append(measure(server.pid, port, extra, 1.5))
            results[name] = statistics.median(samples)
        plain = results["plain"]
        print(f"{'case':<24} {'CPU per request':>16} {'ratio':>7}")
        for name, seconds in results.items():
            print(f"{name:<24} {seconds * 1e6:>13.1f} us {seconds / plain:>6.2f}x")
        if "--wrk" in flags:
            carried = [f"Cookie: {session}"] if session else []
            language = dict(cases())["Accept-Language 31 KB"].split(": ", 1)[1].rstrip("\r\n")
            plain = wrk_cpu(server.pid, port, carried)
            large = wrk_cpu(server.pid, port, carried + [f"Accept-Language: {language}"])
            print(f"wrk: plain {plain * 1e6:.1f} us, Accept-Language 31 KB {large * 1e6:.1f} us, "
                  f"{large / plain:.2f}x")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
