#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""TLS on TabServer against nginx (2 workers, `ssl http2`), same run, same certificate
(ECDSA P-256 from a CA made here with openssl), same page bytes, on loopback:

- the tab page over HTTPS/1.1 (wrk, keep-alive, 64 connections);
- new TLS handshakes per second: full ones (4 `openssl s_time -new` clients at once, each
  connection a full handshake and one GET of a 3-byte answer: no session is resumed, as
  nginx's `$ssl_session_reused` confirms), and reconnections that resume by ticket (wrk
  with `Connection: close`: wrk keeps the session and resumes it on every reconnect);
- memory per idle TLS connection (N connections, each handshaken and served one request,
  then held open idle: RSS delta / N; nginx: its workers' RSS delta);
- the tab page over h2 (`h2load -c 64 -m 8`), once the server selects h2 by ALPN
  (skipped with a message otherwise; nginx's figure is measured regardless).

Server CPU (user + system of the server's process, nginx: its workers) per request is
reported beside every rate. Rounds alternate who goes first; medians.
Usage: [BENCH_TLS_WORKLOADS=page,handshakes,resumed,h2] bench/tls.py [seconds] (builds nothing: bench/run.sh --tls builds the release binary).
Writes bench/results/tls-YYYYMMDD-HHMMSS.md."""
import os
import re
import resource
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import BINARY, ROOT, cpu_seconds, free_port, rss_kib  # noqa: E402

DURATION = int(sys.argv[1]) if len(sys.argv) > 1 else 10
ROUNDS = 3
CONNECTIONS = 64
IDLE_CONNECTIONS = 1000
TARGETS = {"page": 0.80, "handshakes": 0.80, "resumed": None, "h2": 0.80}
HANDSHAKE_CLIENTS = 4
# BENCH_TLS_WORKLOADS=handshakes,resumed: only these rows (the idle memory is always measured).
ONLY = [w for w in os.environ.get("BENCH_TLS_WORKLOADS", "").split(",") if w]


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, check=True, **kwargs)


def make_certificates(work):
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run(["openssl", "req", "-x509"] + ec + ["-keyout", f"{work}/ca.key", "-out", f"{work}/ca.pem",
                                            "-subj", "/CN=TabServer bench CA", "-days", "2"])
    run(["openssl", "req"] + ec + ["-keyout", f"{work}/server.key", "-out", f"{work}/server.csr",
                                   "-subj", "/CN=localhost"])
    with open(f"{work}/san.ext", "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run(["openssl", "x509", "-req", "-in", f"{work}/server.csr", "-CA", f"{work}/ca.pem", "-CAkey", f"{work}/ca.key",
         "-CAcreateserial", "-days", "2", "-extfile", f"{work}/san.ext", "-out", f"{work}/leaf.pem"])
    with open(f"{work}/chain.pem", "w") as out:
        for name in ("leaf.pem", "ca.pem"):
            with open(f"{work}/{name}") as f:
                out.write(f.read())
    return f"{work}/chain.pem", f"{work}/server.key", f"{work}/ca.pem"


def https_context(ca):
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["http/1.1"])
    return context


def request(port, context, path, headers=()):
    """One GET over a new TLS connection: (status, headers dict, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as s:
            head = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + "".join(h + "\r\n" for h in headers)
            s.sendall((head + "\r\n").encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields.setdefault(name.strip().lower(), value.strip())
    return int(lines[0].split()[1]), fields, body


def wait_tls(port, context, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if request(port, context, "/healthz")[0] == 200:
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers HTTPS on {port}")


def alpn(port, ca):
    out = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-alpn", "h2,http/1.1",
                          "-CAfile", ca], stdin=subprocess.DEVNULL, capture_output=True, timeout=20).stdout.decode("utf-8", "replace")
    match = re.search(r"ALPN protocol: (\S+)", out)
    return match.group(1) if match else None


def wrk(url, pids, headers=()):
    args = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{DURATION}s"]
    for h in headers:
        args += ["-H", h]
    before = cpu_seconds(pids)
    out = run(args + [url]).stdout
    cpu = cpu_seconds(pids) - before
    total = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "cpu_us": cpu * 1e6 / max(total, 1),
            "errors": (int(errors.group(1)) if errors else 0), "socket": sockets.group(0) if sockets else ""}


def full_handshakes(port, pids):
    """HANDSHAKE_CLIENTS `openssl s_time -new` at once for DURATION seconds: full
    handshakes per second (wall clock) and server CPU per handshake."""
    before, started = cpu_seconds(pids), time.monotonic()
    clients = [subprocess.Popen(["openssl", "s_time", "-connect", f"127.0.0.1:{port}", "-new", "-time", str(DURATION),
                                 "-www", "/healthz"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
               for _ in range(HANDSHAKE_CLIENTS)]
    total = 0
    for client in clients:
        out = client.communicate(timeout=DURATION + 60)[0]
        match = re.search(r"(\d+) connections in [\d.]+ real seconds", out) or re.search(r"(\d+) connections in", out)
        total += int(match.group(1)) if match else 0
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pids) - before
    return {"rps": total / elapsed, "cpu_us": cpu * 1e6 / max(total, 1), "errors": 0 if total else 1}


def h2load(url, pids, headers=()):
    args = ["h2load", "-c", str(CONNECTIONS), "-m", "8", "-t", "1", "-D", str(DURATION)]
    for h in headers:
        args += ["-H", h]
    before = cpu_seconds(pids)
    out = run(args + [url]).stdout
    cpu = cpu_seconds(pids) - before
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded", out)
    rps = re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", out)
    protocol = re.search(r"Application protocol: (\S+)", out)
    total = int(done.group(1))
    return {"rps": float(rps.group(1)), "cpu_us": cpu * 1e6 / max(total, 1), "errors": total - int(done.group(2)),
            "protocol": protocol.group(1) if protocol else "?"}


def idle_memory(port, context, pids, path, headers):
    """RSS growth per connection for IDLE_CONNECTIONS TLS connections, each handshaken and
    answered one request (keep-alive), then held idle."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * IDLE_CONNECTIONS)), hard))
    time.sleep(0.5)
    before = sum(rss_kib(pid) for pid in pids)
    held = []
    try:
        head = (f"GET {path} HTTP/1.1\r\nHost: localhost\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n").encode()
        for _ in range(IDLE_CONNECTIONS):
            raw = socket.create_connection(("127.0.0.1", port), timeout=10)
            s = context.wrap_socket(raw, server_hostname="localhost")
            s.sendall(head)
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(65536)
            length = int(re.search(rb"(?i)content-length: (\d+)", data).group(1))
            body = data.partition(b"\r\n\r\n")[2]
            while len(body) < length:
                body += s.recv(65536)
            held.append(s)
        time.sleep(1.0)
        after = sum(rss_kib(pid) for pid in pids)
        return (after - before) / IDLE_CONNECTIONS
    finally:
        for s in held:
            s.close()


def nginx_config(work, port, chain, key, docroot):
    return f"""
worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  types {{ text/html html; }}
  server {{
    listen 127.0.0.1:{port} ssl http2;
    ssl_certificate {chain};
    ssl_certificate_key {key};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305;
    ssl_prefer_server_ciphers off;
    root {docroot};
    location = /healthz {{ default_type text/plain; return 200 "ok\\n"; }}
    location / {{ }}
  }}
}}
"""


def main():
    work = tempfile.mkdtemp(prefix="tabserver-tls-bench-")
    os.chmod(work, 0o755)  # nginx workers run as an unprivileged user
    chain, key, ca = make_certificates(work)
    for name in ("chain.pem", "server.key"):
        os.chmod(f"{work}/{name}", 0o644)
    context = https_context(ca)
    port, nginx_port = free_port(), free_port()
    server = subprocess.Popen(
        [BINARY, "--port", str(port), "--sessions", "memory", "--access-log", "off", "--tls-certificate", chain,
         "--tls-key", key, "--connection-timeout", "120", "--header-timeout", "60"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(f"{work}/server.log", "w"))
    nginx = None
    try:
        wait_tls(port, context)
        _, fields, _ = request(port, context, "/tabs/music")
        cookie = fields["set-cookie"].split(";")[0]
        status, _, page = request(port, context, "/tabs/music", [f"Cookie: {cookie}"])
        assert status == 200
        docroot = f"{work}/www"
        os.makedirs(docroot)
        with open(f"{docroot}/page.html", "wb") as f:
            f.write(page)
        with open(f"{work}/nginx.conf", "w") as f:
            f.write(nginx_config(work, nginx_port, chain, key, docroot))
        nginx = subprocess.Popen(["nginx", "-c", f"{work}/nginx.conf", "-p", work],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_tls(nginx_port, context)
        with open(f"/proc/{nginx.pid}/task/{nginx.pid}/children") as f:
            nginx_pids = [int(pid) for pid in f.read().split()]
        assert request(nginx_port, context, "/page.html")[2] == page
        ours = [server.pid]
        tab_url, nginx_url = f"https://127.0.0.1:{port}/tabs/music", f"https://127.0.0.1:{nginx_port}/page.html"
        our_alpn, nginx_alpn = alpn(port, ca), alpn(nginx_port, ca)

        runs = {f"{server} {workload}": [] for workload in TARGETS for server in ("tabserver", "nginx")}
        for index in range(ROUNDS):
            pairs = [
                ("page", lambda: wrk(tab_url, ours, [f"Cookie: {cookie}"]), lambda: wrk(nginx_url, nginx_pids)),
                ("handshakes", lambda: full_handshakes(port, ours), lambda: full_handshakes(nginx_port, nginx_pids)),
                ("resumed", lambda: wrk(f"https://127.0.0.1:{port}/healthz", ours, ["Connection: close"]),
                 lambda: wrk(f"https://127.0.0.1:{nginx_port}/healthz", nginx_pids, ["Connection: close"])),
                ("h2", (lambda: h2load(tab_url, ours, [f"cookie: {cookie}"])) if our_alpn == "h2" else None,
                 lambda: h2load(nginx_url, nginx_pids)),
            ]
            for workload, tabserver_run, nginx_run in pairs:
                if ONLY and workload not in ONLY:
                    continue
                order = [("tabserver", tabserver_run), ("nginx", nginx_run)]
                if index % 2 == 1:
                    order.reverse()
                for name, go in order:
                    if go is not None:
                        result = go()
                        runs[f"{name} {workload}"].append(result)
                        print(f"round {index + 1} {name} {workload}: {result['rps']:.0f}/s, "
                              f"{result['cpu_us']:.1f} us CPU/request, errors {result['errors']}", flush=True)
        ours_idle = idle_memory(port, context, ours, "/tabs/music", [f"Cookie: {cookie}"])
        nginx_idle = idle_memory(nginx_port, context, nginx_pids, "/page.html", [])
        print(f"idle TLS connection: tabserver {ours_idle:.1f} KiB, nginx {nginx_idle:.1f} KiB", flush=True)
    finally:
        if nginx:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(timeout=10)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)

    def median(name, field):
        values = [r[field] for r in runs[name]]
        return statistics.median(values) if values else None

    cpu_model = next((line.split(":", 1)[1].strip() for line in run(["lscpu"]).stdout.splitlines()
                      if line.startswith("Model name")), "?")
    lines = [
        f"# TabServer TLS benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
        f"{cpu_model}, {os.cpu_count()} cores shared by the clients, both servers (and other work on the machine).",
        f"ECDSA P-256 certificate, TLS 1.3, {ROUNDS} rounds of {DURATION} s, the pair's order alternating, medians.",
        f"nginx {run(['nginx', '-v']).stderr.strip().split('/')[-1]}: 2 workers, `listen ssl http2`, access log off, "
        "the same page bytes as a file. Server CPU: user + system time of its process (nginx: its workers) per request.",
        f"ALPN: TabServer selects {our_alpn or 'nothing'}, nginx {nginx_alpn or 'nothing'}.", "",
        "| workload | TabServer | nginx | ratio | target |", "|---|---|---|---|---|",
    ]
    labels = {"page": "tab page, HTTPS/1.1 keep-alive (wrk -c64)",
              "handshakes": f"new TLS connections/s, full handshakes ({HANDSHAKE_CLIENTS} openssl s_time -new)",
              "resumed": "new TLS connections/s, resumed by ticket (wrk -c64, Connection: close)",
              "h2": "tab page over h2 (h2load -c64 -m8)"}
    for workload, label in labels.items():
        if ONLY and workload not in ONLY:
            continue
        ours_rps, theirs_rps = median(f"tabserver {workload}", "rps"), median(f"nginx {workload}", "rps")
        theirs = f"{theirs_rps:,.0f}/s, {median(f'nginx {workload}', 'cpu_us'):.1f} us CPU/req"
        if ours_rps is None:
            lines.append(f"| {label} | skipped: ALPN selects {our_alpn or 'nothing'}, not h2 | {theirs} | – | "
                         f">= {TARGETS[workload]:.0%} |")
            continue
        ratio = ours_rps / theirs_rps
        target = TARGETS[workload]
        verdict = "–" if target is None else f">= {target:.0%} {'ok' if ratio >= target else 'MISSED'}"
        lines.append(f"| {label} | {ours_rps:,.0f}/s, {median(f'tabserver {workload}', 'cpu_us'):.1f} us CPU/req | "
                     f"{theirs} | {ratio:.0%} | {verdict} |")
    lines.append(f"| memory per idle TLS connection ({IDLE_CONNECTIONS} held, one request served each) | "
                 f"{ours_idle:.1f} KiB | {nginx_idle:.1f} KiB | – | <= 40 KiB "
                 f"{'ok' if ours_idle <= 40 else 'MISSED'} |")
    errors = {name: sum(r["errors"] for r in rs) for name, rs in runs.items() if rs}
    lines += ["", f"Errors (non-2xx or failed requests) per workload over all rounds: {errors}"]
    report = "\n".join(lines) + "\n"
    print(report)
    os.makedirs(os.path.join(ROOT, "bench/results"), exist_ok=True)
    path = os.path.join(ROOT, "bench/results", time.strftime("tls-%Y%m%d-%H%M%S.md"))
    with open(path, "w") as f:
        f.write(report)
    print(f"written to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
