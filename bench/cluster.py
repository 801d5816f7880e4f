#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sessions on one Redis against a Redis Cluster (3 primaries + 3 replicas), same run,
alternating; and the small-scale check of docs/scaling.md: 3 instances behind nginx
(round robin) on a 3 + 3 cluster holding 1,000,000 sessions. Everything binds 127.0.0.1
and stops by pid. Not part of the tests.

Usage: bench/run.sh --cluster [seconds]; BENCH_CLUSTER_PART=compare or scale runs one part."""
import base64
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (wrk, start_server, make_visitors, cpu_seconds, …)

ROOT = bench.ROOT
ROUNDS = 5
PREFIX = "tabserver:session:"
SECRET = ["--csrf-secret", "s" * 32]
FILL = int(os.environ.get("BENCH_CLUSTER_SESSIONS", "1000000"))
# TabServer instances behind nginx in the scale check (BENCH_CLUSTER_INSTANCES).
INSTANCES = int(os.environ.get("BENCH_CLUSTER_INSTANCES", "3"))
# BENCH_CLUSTER_STICKY=1: nginx sends each visitor to one instance (a hash of the session
# cookie) instead of round robin, so an instance's copy of a session is never stale.
STICKY = os.environ.get("BENCH_CLUSTER_STICKY", "") == "1"


class Resp:
    """A minimal RESP client on one socket: commands framed here, replies parsed here."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buffer = b""

    @staticmethod
    def frame(args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    def _line(self):
        while b"\r\n" not in self.buffer:
            self.buffer += self.sock.recv(1 << 16)
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buffer) < n + 2:
            self.buffer += self.sock.recv(1 << 16)
        data, self.buffer = self.buffer[:n], self.buffer[n + 2:]
        return data

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b"-"):
            return rest.decode() if kind == b"+" else RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            return None if int(rest) < 0 else self._exact(int(rest))
        if kind == b"*":
            return None if int(rest) < 0 else [self.reply() for _ in range(int(rest))]
        raise RuntimeError(f"unknown reply {line!r}")

    def command(self, *args):
        self.sock.sendall(self.frame(args))
        return self.reply()

    def pipeline(self, commands):
        self.sock.sendall(b"".join(self.frame(c) for c in commands))
        return [self.reply() for _ in commands]


def crc16(data):
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def start_redis(work, name, extra=()):
    # A cluster node also listens on its port + 10000, so its port must be 55535 at most.
    port = bench.free_port()
    while port > 55535:
        port = bench.free_port()
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", folder] + list(extra),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bench.wait_redis(port)
    return proc, port


def make_cluster(work, primaries=3, replicas=1):
    """Starts the nodes, creates the cluster, waits for cluster_state:ok; returns [(proc, port)]."""
    nodes = [start_redis(work, f"node{i}", ["--cluster-enabled", "yes", "--cluster-node-timeout", "5000"])
             for i in range(primaries * (1 + replicas))]
    subprocess.run(["redis-cli", "--cluster", "create"] + [f"127.0.0.1:{p}" for _, p in nodes]
                   + ["--cluster-replicas", str(replicas), "--cluster-yes"], check=True, capture_output=True, timeout=120)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(b"cluster_state:ok" in Resp(p).command("CLUSTER", "INFO") for _, p in nodes):
            return nodes
        time.sleep(0.1)
    raise RuntimeError("the cluster did not become ok")


def stop(procs):
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=15)


def primary_ports(nodes):
    return [p for _, p in nodes if Resp(p).command("ROLE")[0] == b"master"]


def redis_counters(ports):
    """Commands processed and bytes in and out, summed over these servers."""
    totals = {"commands": 0, "in": 0, "out": 0}
    for port in ports:
        text = Resp(port).command("INFO", "stats").decode()
        fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        totals["commands"] += int(fields["total_commands_processed"])
        totals["in"] += int(fields["total_net_input_bytes"])
        totals["out"] += int(fields["total_net_output_bytes"])
    return totals


def used_memory(ports):
    total = 0
    for port in ports:
        text = Resp(port).command("INFO", "memory").decode()
        total += int(re.search(r"used_memory:(\d+)", text).group(1))
    return total


def memory_per_key(ports, count=200):
    """Median MEMORY USAGE of up to `count` session keys."""
    sizes = []
    for port in ports:
        r = Resp(port)
        cursor = b"0"
        while len(sizes) < count:
            cursor, keys = r.command("SCAN", cursor, "MATCH", PREFIX + "*", "COUNT", 1000)
            for key in keys:
                sizes.append(r.command("MEMORY", "USAGE", key, "SAMPLES", "0"))
            if cursor == b"0":
                break
    return statistics.median(sizes) if sizes else 0


def run_workload(name, url, files, pids):
    if name == "page":
        return bench.wrk(f"{url}/tabs/music", [f"Cookie: {files['cookie']}"], pids=pids)
    if name == "visitors":
        return bench.wrk(url, script=os.path.join(ROOT, "bench/visitors.lua"), script_args=[files["visitors"]], pids=pids)
    return bench.wrk(url, script=os.path.join(ROOT, "bench/select.lua"), script_args=[files["tapper"]], pids=pids)


STORES = ("redis", "cluster", "cluster+r")


def compare(work):
    """The three workloads on one Redis, on a 3-primary cluster and on a 3 + 3 cluster
    (a replica per primary), in turn; medians."""
    log = open(os.path.join(work, "compare.log"), "w")
    plain, plain_port = start_redis(work, "plain")
    bare = make_cluster(os.path.join(work, "bare"), replicas=0)
    nodes = make_cluster(work)
    servers = {"redis": bench.start_server(["--sessions", f"redis://127.0.0.1:{plain_port}/0"] + SECRET, log)}
    for name, members in (("cluster", bare), ("cluster+r", nodes)):
        url = "redis-cluster://" + ",".join(f"127.0.0.1:{p}" for _, p in members[:3])
        servers[name] = bench.start_server(["--sessions", url] + SECRET, log)
    redis_pids = {"redis": [plain.pid], "cluster": [proc.pid for proc, _ in bare],
                  "cluster+r": [proc.pid for proc, _ in nodes]}
    redis_ports = {"redis": [plain_port], "cluster": primary_ports(bare), "cluster+r": primary_ports(nodes)}
    try:
        files = {}
        for name, (_, port) in servers.items():
            files[name] = {"visitors": os.path.join(work, f"visitors-{name}.txt"),
                           "tapper": os.path.join(work, f"tapper-{name}.txt"), "cookie": bench.session_cookie(port)}
            bench.make_visitors(port, bench.VISITORS, files[name]["visitors"])
            bench.make_visitors(port, 1, files[name]["tapper"])
        results = {(w, n): [] for w in ("page", "visitors", "select") for n in servers}
        for round_index in range(ROUNDS):
            names = list(servers)
            order = names[round_index % len(names):] + names[:round_index % len(names)]
            for workload in ("page", "visitors", "select"):
                for name in order:
                    proc, port = servers[name]
                    before = redis_counters(redis_ports[name])
                    redis_before = bench.cpu_seconds(redis_pids[name])
                    r = run_workload(workload, f"http://127.0.0.1:{port}", files[name], [proc.pid] + redis_pids[name])
                    after = redis_counters(redis_ports[name])
                    n = max(r["requests"], 1)
                    r["redis_us"] = (bench.cpu_seconds(redis_pids[name]) - redis_before) * 1e6 / n
                    r["tabserver_us"] = r["cpu_us"] - r["redis_us"]
                    r["commands"] = (after["commands"] - before["commands"]) / n
                    r["bytes"] = (after["in"] - before["in"] + after["out"] - before["out"]) / n
                    results[(workload, name)].append(r)
                    print(f"round {round_index + 1} {workload:8s} {name:9s} {r['rps']:>8.0f} req/s  p99 {r['p99']:.2f} ms  "
                          f"CPU {r['cpu_us']:.1f} us/req (TabServer {r['tabserver_us']:.1f}, Redis {r['redis_us']:.1f})  "
                          f"{r['commands']:.2f} commands, {r['bytes']:.0f} B/req"
                          + (f"  ERRORS {r['non2xx'] + r['socket']}" if r["non2xx"] + r["socket"] else ""), flush=True)
        keys = ("rps", "p99", "cpu_us", "tabserver_us", "redis_us", "commands", "bytes")
        summary = {k: {f: statistics.median(r[f] for r in rs) for f in keys} for k, rs in results.items()}
        for k, rs in results.items():
            summary[k]["errors"] = sum(r["non2xx"] + r["socket"] for r in rs)
        memory = {name: memory_per_key(redis_ports[name]) for name in servers}
        print()
        print(f"wrk -t1 -c{bench.CONNECTIONS} -d{bench.DURATION}s, {ROUNDS} rounds in turn, medians; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; CPU per request = TabServer + every redis-server")
        print("| workload | store | req/s | of one Redis | p99 ms | CPU us/req (TabServer + Redis) | "
              "Redis commands/req | Redis bytes/req (in + out, all nodes) | errors |")
        print("|---|---|---|---|---|---|---|---|---|")
        for w in ("page", "visitors", "select"):
            base = summary[(w, "redis")]["rps"]
            for name in servers:
                a = summary[(w, name)]
                print(f"| {w} | {name} | {a['rps']:.0f} | {a['rps'] / base:.0%} | {a['p99']:.2f} | "
                      f"{a['cpu_us']:.1f} ({a['tabserver_us']:.1f} + {a['redis_us']:.1f}) | "
                      f"{a['commands']:.2f} | {a['bytes']:.0f} | {a['errors']} |")
        print("MEMORY USAGE per session key (median of 200): "
              + ", ".join(f"{name} {memory[name]} B" for name in servers))
        return summary
    finally:
        stop([proc for proc, _ in servers.values()])
        stop([plain] + [proc for proc, _ in bare + nodes])


def fill(primaries, template, count):
    """`count` sessions like `template` (its hash fields) under new random ids, each sent
    to the primary of its slot, pipelined."""
    slots = {}
    for port in primaries:
        for entry in Resp(port).command("CLUSTER", "SLOTS"):
            for slot in range(entry[0], entry[1] + 1):
                slots[slot] = entry[2][1]
    connections = {port: Resp(port) for port in primaries}
    batches = {port: [] for port in primaries}
    fields = []
    for name, value in zip(template[::2], template[1::2]):
        fields += [name, value]
    for _ in range(count):
        ident = base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=")
        port = slots[crc16(ident) & 0x3FFF]
        key = PREFIX.encode() + b"{" + ident + b"}"
        batches[port] += [["HSET", key] + fields, ["EXPIRE", key, 86400]]
        if len(batches[port]) >= 20000:
            connections[port].pipeline(batches[port])
            batches[port] = []
    for port, batch in batches.items():
        if batch:
            connections[port].pipeline(batch)


def nginx_balancer(work, ports):
    port = bench.free_port()
    conf = os.path.join(work, "nginx-lb.conf")
    upstream = "\n".join(f"    server 127.0.0.1:{p};" for p in ports)
    with open(conf, "w") as f:
        f.write(f"""
worker_processes 1;
pid {work}/nginx-lb.pid;
error_log {work}/nginx-lb-error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  upstream tabservers {{
{"    hash $cookie_tabserver_session consistent;" if STICKY else ""}
{upstream}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://tabservers;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }}
  }}
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", conf, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bench.wait_http(f"http://127.0.0.1:{port}/healthz")
    with open(f"/proc/{nginx.pid}/task/{nginx.pid}/children") as f:
        return nginx, port, [int(pid) for pid in f.read().split()]


def scale(work):
    """INSTANCES instances (3) behind nginx on a 3 + 3 cluster holding FILL sessions."""
    log = open(os.path.join(work, "scale.log"), "w")
    nodes = make_cluster(os.path.join(work, "scale"))
    primaries = primary_ports(nodes)
    url = "redis-cluster://" + ",".join(f"127.0.0.1:{p}" for _, p in nodes[:3])
    instances = [bench.start_server(["--sessions", url] + SECRET, log) for _ in range(INSTANCES)]
    nginx = None
    try:
        nginx, port, nginx_workers = nginx_balancer(work, [p for _, p in instances])
        visitors = os.path.join(work, "visitors-scale.txt")
        bench.make_visitors(port, bench.VISITORS, visitors)
        memory_before = used_memory(primaries)
        # A stored session to copy: the first visitor's.
        cookie = open(visitors).readline().split()[0].split("=", 1)[1]
        key = f"{PREFIX}{{{cookie}}}"
        slot = crc16(cookie.encode()) & 0x3FFF
        template = None
        for p in primaries:
            reply = Resp(p).command("HGETALL", key)
            if isinstance(reply, list) and reply:  # the other primaries answer MOVED
                template = reply
        started = time.monotonic()
        fill(primaries, template, FILL - bench.VISITORS)
        filled = time.monotonic() - started
        sessions = sum(Resp(p).command("DBSIZE") for p in primaries)
        per_session = (used_memory(primaries) - memory_before) / max(FILL - bench.VISITORS, 1)
        print(f"filled {FILL - bench.VISITORS} sessions in {filled:.1f} s; {sessions} keys on the primaries; "
              f"used_memory {used_memory(primaries) / 2**20:.0f} MiB on the primaries, {per_session:.0f} B a session "
              f"(slot of the template {slot})", flush=True)
        rss = {}
        pids = [proc.pid for proc, _ in instances] + [proc.pid for proc, _ in nodes] + nginx_workers
        results = []
        for round_index in range(ROUNDS):
            nginx_before = bench.cpu_seconds(nginx_workers)
            r = bench.wrk(f"http://127.0.0.1:{port}", script=os.path.join(ROOT, "bench/visitors.lua"),
                          script_args=[visitors], pids=pids)
            r["nginx_us"] = (bench.cpu_seconds(nginx_workers) - nginx_before) * 1e6 / max(r["requests"], 1)
            results.append(r)
            print(f"round {round_index + 1} {INSTANCES} instances via nginx{' (sticky)' if STICKY else ''} {r['rps']:>8.0f} req/s  p99 {r['p99']:.2f} ms  "
                  f"CPU {r['cpu_us']:.1f} us/req (nginx {r['nginx_us']:.1f})"
                  + (f"  ERRORS {r['non2xx'] + r['socket']}" if r["non2xx"] + r["socket"] else ""), flush=True)
        for proc, p in instances:
            rss[p] = bench.rss_kib(proc.pid)
        med = {k: statistics.median(r[k] for r in results) for k in ("rps", "p99", "cpu_us", "nginx_us")}
        errors = sum(r["non2xx"] + r["socket"] for r in results)
        print(f"scale check: {med['rps']:.0f} req/s, p99 {med['p99']:.2f} ms, CPU {med['cpu_us']:.1f} us/req of which "
              f"nginx {med['nginx_us']:.1f}; {errors} errors; {sessions} sessions; instance RSS "
              + ", ".join(f"{v / 1024:.1f} MiB" for v in rss.values()))
    finally:
        if nginx:
            bench.stop_nginx(nginx)
        stop([proc for proc, _ in instances])
        stop([proc for proc, _ in nodes])


def main():
    work = tempfile.mkdtemp(prefix="tabserver-cluster-bench-")
    os.chmod(work, 0o755)
    part = os.environ.get("BENCH_CLUSTER_PART", "")
    if part in ("", "compare"):
        compare(work)
    if part in ("", "scale"):
        scale(work)


if __name__ == "__main__":
    main()
