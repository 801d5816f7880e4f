#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Instructions per request on the tab page path, counted by valgrind's callgrind.

Counts are repeatable on a loaded machine (the figure does not depend on what else
runs), so an A/B of two builds is fair even while other work shares the cores. The
server runs under callgrind with the memory store; a visitor gets a session, then
sends N requests of the same tab page on one kept-alive connection. Two runs (a short
and a long one) differ only in the requests, so their difference over the extra
requests is the cost of one request, start-up and shutdown cancelled out.

Usage: bench/instructions.py [--cookieless] BINARY [BINARY...] (each a release build
of tabserver, run from the repository root so it finds Templates/, Public/ and
Locales/). With --cookieless the requests carry no cookie and ask for the first tab's
root: the page every new visitor, link preview and crawler gets. With --visitors the
server keeps its sessions in a SQLite file and the requests are bench/visitors.lua's
workload (200 visitors in turn, each repeating: POST select a tab, GET it twice, GET
another tab twice), so the count is an average over writes, renders and cached pages,
the SQLite writer thread included. With --select the requests are bench/select.lua's
write (a tap without script, on the memory store): one visitor's POST /select, between
two tabs in turn, each answered 303 with its session committed. With --accept-language every request of the tab page
(cookie or --cookieless) also carries an `Accept-Language` of about 31 KB (the field
bench/amplification.py sends; the head limit is 32 KiB), so the two counts compare a
plain request with the largest language list a head can hold. The access log is off
unless --access-log (text lines) or --access-log=json is given (to /dev/null): the two
counts then tell what a line costs.
"""
import os, re, signal, socket, subprocess, sys, tempfile, time

# Every run hashes with the same seed: Swift seeds its hashing per process, so the probes of
# a dictionary look-up, and with them a request's count, moved by hundreds of instructions
# between two runs of one build.
os.environ.setdefault("SWIFT_DETERMINISTIC_HASHING", "1")
# The tests' model, as bench/run.sh measures (see bench/bench.py).
os.environ.setdefault(
    "TABSERVER_TABS", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests/Fixtures/tabs.json"))
# 2,500 extra requests: some runs of one build count about 800,000 instructions more than
# others (once, in the start-up or the shut-down), which moved a count over 500 extra
# requests by about 1,600.
SHORT, LONG = 100, 2600
if "--visitors" in sys.argv:
    SHORT, LONG = 1000, 3000  # whole rounds of the five steps over 200 visitors
PATH = "/tabs/music"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_response(sock, buffer, body=False):
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("closed")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    while len(rest) < length:
        rest += sock.recv(65536)
    if body:
        return head, rest[length:], rest[:length]
    return head, rest[length:]


COOKIELESS = "--cookieless" in sys.argv
ACCEPT_LANGUAGE = "--accept-language" in sys.argv
ACCESS_LOG = next((a.partition("=")[2] or "text" for a in sys.argv if a.startswith("--access-log")), None)
# bench/amplification.py's field: 31 KB of ranges that match no language of ours.
LANGUAGE_FIELD = (
    "Accept-Language: "
    + ",".join(f"x{index % 1000:03d}-yy;q=0.{index % 10}" for index in range(4000))[:31_000].rsplit(",", 1)[0]
    + "\r\n") if ACCEPT_LANGUAGE else ""
VISITORS = "--visitors" in sys.argv
SELECT = "--select" in sys.argv
VISITOR_COUNT = 200
TABS = ("featured", "music", "movies", "tv")


def make_visitors(sock, buffer):
    """VISITOR_COUNT sessions made as a browser makes them: (cookie, csrf) pairs."""
    visitors = []
    for _ in range(VISITOR_COUNT):
        sock.sendall(b"GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n")
        head, buffer, body = read_response(sock, buffer, body=True)
        cookie = re.search(rb"(?i)set-cookie: *([^;\r\n]+)", head).group(1).decode()
        csrf = re.search(rb'name="csrf" value="([^"]+)"', body).group(1).decode()
        visitors.append((cookie, csrf))
    return visitors, buffer


def visitor_request(visitors, counter):
    """bench/visitors.lua's request number `counter`."""
    cookie, csrf = visitors[counter % len(visitors)]
    round_ = counter // len(visitors)
    step = round_ % 5
    tab = TABS[(round_ // 5) % len(TABS)]
    other = TABS[(round_ // 5 + 2) % len(TABS)]
    if step == 0:
        form = f"tab={tab}&csrf={csrf}"
        return (f"POST /select HTTP/1.1\r\nHost: t\r\nCookie: {cookie}\r\n"
                f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n{form}").encode()
    return f"GET /tabs/{tab if step <= 2 else other} HTTP/1.1\r\nHost: t\r\nCookie: {cookie}\r\n\r\n".encode()


def run(binary, requests):
    port = free_port()
    out = tempfile.mkdtemp(prefix="tabserver-callgrind-")
    sessions = f"sqlite:{out}/sessions.sqlite" if VISITORS else "memory"
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out", binary,
         "--port", str(port), "--sessions", sessions, "--access-log", "on" if ACCESS_LOG else "off",
         "--log-format", ACCESS_LOG or "text", "--threads", "2"],
        stdout=subprocess.DEVNULL, stderr=open(f"{out}/log", "w"))
    try:
        for _ in range(600):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        buffer = b""
        if VISITORS:
            visitors, buffer = make_visitors(sock, buffer)
            for counter in range(requests):
                sock.sendall(visitor_request(visitors, counter))
                head, buffer = read_response(sock, buffer)
                assert head.startswith(b"HTTP/1.1 200") or head.startswith(b"HTTP/1.1 303"), head[:40]
            requests = 0
        elif SELECT:
            sock.sendall(f"GET {PATH} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
            head, buffer, body = read_response(sock, buffer, body=True)
            cookie = re.search(rb"(?i)set-cookie: *([^;\r\n]+)", head).group(1).decode()
            csrf = re.search(rb'name="csrf" value="([^"]+)"', body).group(1).decode()
            for counter in range(requests):
                form = f"tab={TABS[counter % 4]}&csrf={csrf}"
                sock.sendall((
                    f"POST /select HTTP/1.1\r\nHost: t\r\nCookie: {cookie}\r\n"
                    f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n{form}"
                ).encode())
                head, buffer = read_response(sock, buffer)
                assert head.startswith(b"HTTP/1.1 303"), head[:40]
            requests = 0
        elif COOKIELESS:
            request = f"GET /tabs/featured HTTP/1.1\r\nHost: t\r\n{LANGUAGE_FIELD}\r\n".encode()
        else:
            sock.sendall(f"GET {PATH} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
            head, buffer = read_response(sock, buffer)
            cookie = re.search(rb"(?i)set-cookie: *([^;\r\n]+)", head).group(1).decode()
            request = f"GET {PATH} HTTP/1.1\r\nHost: t\r\nCookie: {cookie}\r\n{LANGUAGE_FIELD}\r\n".encode()
        for _ in range(requests):
            sock.sendall(request)
            head, buffer = read_response(sock, buffer)
            assert head.startswith(b"HTTP/1.1 200"), head[:40]
        sock.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
    total = 0
    for name in os.listdir(out):
        if name.startswith("cg.out"):
            for line in open(os.path.join(out, name)):
                if line.startswith("summary:") or line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total


def stripped(binary, folder, index):
    """A copy of `binary` without its debug information: valgrind 3.19 gives up on the
    DWARF of some static Swift builds ("Possibly corrupted debuginfo file"); the
    instructions counted are the same either way."""
    copy = os.path.join(folder, f"{index}-{os.path.basename(binary)}")
    subprocess.run(["strip", "-o", copy, binary], check=True)
    return copy


def main():
    folder = tempfile.mkdtemp(prefix="tabserver-instructions-")
    binaries = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    for index, binary in enumerate(binaries):
        counted = stripped(binary, folder, index)
        short, long = run(counted, SHORT), run(counted, LONG)
        per = (long - short) / (LONG - SHORT)
        print(f"{binary}: {per:,.0f} instructions a request ({short:,} for {SHORT}, {long:,} for {LONG})")


if __name__ == "__main__":
    main()
