#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Redis Sentinel failovers under writing visitors, without and with WAIT.

Usage: python3 bench/failover.py [BINARY] [FAILOVERS] [--only plain|wait]
(default .build/release/tabserver, 50 failovers a mode; run from the repository root).

For each mode (first without --redis-wait-replicas, then with --redis-wait-replicas 1)
it starts, on free loopback ports with temporary directories: one redis-server master,
one replica, three redis-sentinel (down-after 1 s, failover-timeout 3 s, info period
100 ms and hello period 500 ms via SENTINEL DEBUG, as the tests tune them), and BINARY on
redis-sentinel://… naming the three sentinels. Visitors, each on a kept-alive connection
with its own session, alternate a read (GET /, whose 303 names the selected tab) and a
write (POST /select of another tab): every read checks that the last acknowledged write
(303) is there, so a write lost in a failover is seen by the next read, not hidden by a
later write. Failovers alternate: kill -9 of the master (restarted, once the sentinels
name the replica, as a replica of the new master) and SENTINEL FAILOVER. The next one
starts when the replica has acknowledged the master's replication offset (not merely
finished its sync), every sentinel agrees and sees quorum, and every visitor has written
again.

Per failover it records: the window of 503s (first 503 to the first success after the
last one, any request), the longest write refusal (a visitor's first refused write to its
next acknowledged one), acknowledged writes checked by a later read and those missing
(the read showed an older selection), and sessions no longer found (the read got a new
session: a new cookie, the default first tab, which no visitor selects, or a 403 to a
write). It prints one line per failover, then a summary per mode, and writes them as
JSON to failover-results.json in its temporary directory (the path is printed).

Every loop is bounded in time; every process it starts is stopped by pid.
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MASTER_NAME = "sessions"
VISITORS = 6
TABS = ["music", "movies", "tv", "podcasts"]
# Writes each visitor makes after a failover before the next one starts.
WRITES_AFTER = 10
# The longest one failover may take before the run gives up on it.
FAILOVER_LIMIT = 60.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- A small RESP2 client: one command on a new connection. ----------------------------

def _read_reply(stream):
    line = stream.readline()
    if not line:
        raise ConnectionError("closed")
    kind, rest = line[:1], line[1:-2]
    if kind == b"+":
        return rest.decode()
    if kind == b"-":
        return RuntimeError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        length = int(rest)
        if length < 0:
            return None
        data = stream.read(length + 2)
        return data[:-2].decode(errors="replace")
    if kind == b"*":
        count = int(rest)
        if count < 0:
            return None
        return [_read_reply(stream) for _ in range(count)]
    raise ValueError(f"unexpected reply {line!r}")


def ask(port, *arguments, timeout=1.0):
    """The reply to one command, or None when the server does not answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            encoded = b"*%d\r\n" % len(arguments)
            for argument in arguments:
                data = str(argument).encode()
                encoded += b"$%d\r\n%s\r\n" % (len(data), data)
            sock.sendall(encoded)
            with sock.makefile("rb") as stream:
                return _read_reply(stream)
    except (OSError, ConnectionError, ValueError):
        return None


def wait_for(condition, limit, every=0.05):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


# --- The cluster. ------------------------------------------------------------------------

class Server:
    """A redis-server on loopback, in its own directory, keeping nothing on disk."""

    def __init__(self, work, name, replica_of=None):
        self.port = free_port()
        self.directory = os.path.join(work, name)
        os.makedirs(self.directory)
        self.process = None
        self.start(replica_of)

    def start(self, replica_of=None):
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", self.directory, "--logfile", self.directory + "/redis.log",
                   "--repl-diskless-sync-delay", "0"]
        if replica_of:
            command += ["--replicaof", "127.0.0.1", str(replica_of)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for(lambda: ask(self.port, "PING") == "PONG", 10):
            raise RuntimeError(f"redis-server on {self.port} did not start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def role(self):
        reply = ask(self.port, "ROLE")
        return reply[0] if isinstance(reply, list) and reply else None

    def in_sync(self):
        reply = ask(self.port, "ROLE")
        return isinstance(reply, list) and len(reply) >= 4 and reply[0] == "slave" and reply[3] == "connected"


class Sentinel:
    def __init__(self, work, index, master_port):
        self.port = free_port()
        self.directory = os.path.join(work, f"sentinel{index}")
        os.makedirs(self.directory)
        configuration = os.path.join(self.directory, "sentinel.conf")
        with open(configuration, "w") as file:
            file.write(
                f"port {self.port}\nbind 127.0.0.1\ndaemonize no\ndir {self.directory}\n"
                f"logfile {self.directory}/sentinel.log\n"
                f"sentinel monitor {MASTER_NAME} 127.0.0.1 {master_port} 2\n"
                f"sentinel down-after-milliseconds {MASTER_NAME} 1000\n"
                f"sentinel failover-timeout {MASTER_NAME} 3000\n"
                f"sentinel parallel-syncs {MASTER_NAME} 1\n")
        self.process = subprocess.Popen(
            ["redis-sentinel", configuration], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for(lambda: ask(self.port, "PING") == "PONG", 10):
            raise RuntimeError(f"redis-sentinel on {self.port} did not start")
        if ask(self.port, "SENTINEL", "DEBUG", "info-period", "100", "publish-period", "500") != "OK":
            raise RuntimeError("SENTINEL DEBUG was refused")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Cluster:
    def __init__(self, work):
        self.master = Server(work, "a")
        self.replica = Server(work, "b", replica_of=self.master.port)
        self.sentinels = [Sentinel(work, index, self.master.port) for index in range(3)]
        # The master's replication offset the replica must have acknowledged (see `ready`).
        self.mark = None
        # Failovers the sentinels made that the run did not ask for.
        self.extra_failovers = 0
        if not wait_for(self.ready, 30):
            raise RuntimeError("the cluster did not become ready within 30 s")

    @property
    def url(self):
        addresses = ",".join(f"127.0.0.1:{sentinel.port}" for sentinel in self.sentinels)
        return f"redis-sentinel://{addresses}/{MASTER_NAME}/0"

    def named_master(self):
        ports = []
        for sentinel in self.sentinels:
            reply = ask(sentinel.port, "SENTINEL", "get-master-addr-by-name", MASTER_NAME)
            ports.append(int(reply[1]) if isinstance(reply, list) and len(reply) == 2 else None)
        return ports[0] if ports[0] is not None and all(port == ports[0] for port in ports) else None

    def ready(self):
        """The named master is a master, its replica in sync, every sentinel sees quorum
        and knows the replica as a healthy replica."""
        named = self.named_master()
        if named == self.replica.port and self.replica.role() == "master":
            # The sentinels failed over again on their own (a new master they could not
            # reach within down-after, busy with its replica's sync): followed, counted.
            self.master, self.replica = self.replica, self.master
            self.mark = None
            self.extra_failovers += 1
            return False
        if named != self.master.port or self.master.role() != "master":
            return False
        if not self.replica.in_sync():
            return False
        # The replica's ROLE says connected as soon as its full sync is loaded, but that
        # is no proof that the writes since reach it (one run killed the master 0.9 s
        # after a replica's sync, and the replica had none of them): ready once the
        # replica has acknowledged the master's replication offset of the first look.
        info = ask(self.master.port, "INFO", "replication")
        if not isinstance(info, str):
            return False
        master_offset = re.search(r"master_repl_offset:(\d+)", info)
        replica_offset = re.search(rf"port={self.replica.port},state=online,offset=(\d+)", info)
        if not master_offset or not replica_offset:
            return False
        if self.mark is None:
            self.mark = int(master_offset.group(1))
            return False
        # (The master's offset moves even without writes: the sentinels publish through it.)
        if int(replica_offset.group(1)) < self.mark:
            return False
        for sentinel in self.sentinels:
            quorum = ask(sentinel.port, "SENTINEL", "CKQUORUM", MASTER_NAME)
            if not (isinstance(quorum, str) and quorum.startswith("OK 3 usable")):
                return False
            replicas = ask(sentinel.port, "SENTINEL", "REPLICAS", MASTER_NAME)
            if not isinstance(replicas, list):
                return False
            entries = [dict(zip(entry[::2], entry[1::2])) for entry in replicas]
            if not any(entry.get("flags") == "slave" and entry.get("master-link-status") == "ok"
                       and entry.get("port") == str(self.replica.port) for entry in entries):
                return False
        return True

    def fail_over(self, crash):
        """Makes the replica the master; returns seconds until every sentinel names it."""
        old, new = self.master, self.replica
        self.mark = None
        started = time.monotonic()
        if crash:
            old.kill()
        else:
            # A sentinel may not yet find the replica fit to promote (NOGOODSLAVE) although
            # it is in sync: asked again for up to 10 s, timed from the request it took.
            deadline = started + 10
            while True:
                reply = ask(self.sentinels[0].port, "SENTINEL", "FAILOVER", MASTER_NAME)
                if reply == "OK" or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
                started = time.monotonic()
            if reply != "OK":
                raise RuntimeError(f"SENTINEL FAILOVER answered {reply}")
        if not wait_for(lambda: self.named_master() == new.port, 30, every=0.02):
            raise RuntimeError("the sentinels did not name the replica within 30 s")
        switched = time.monotonic() - started
        if crash:
            # As a supervisor would: back, as a replica of the master the sentinels name.
            old.start(replica_of=new.port)
        self.master, self.replica = new, old
        return switched

    def stop(self):
        for sentinel in self.sentinels:
            sentinel.stop()
        self.master.stop()
        self.replica.stop()


# --- The server and its visitors. --------------------------------------------------------

class TabServer:
    def __init__(self, binary, url, wait, work):
        self.port = free_port()
        command = [binary, "--port", str(self.port), "--sessions", url, "--access-log", "off",
                   "--threads", "2"]
        if wait:
            command += ["--redis-wait-replicas", "1"]
        self.log_path = os.path.join(work, "tabserver-wait.log" if wait else "tabserver.log")
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "w"))

        def ready():
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/readyz")
                return connection.getresponse().status == 200
            except OSError:
                return False

        if not wait_for(ready, 30, every=0.1):
            self.stop()
            raise RuntimeError("tabserver did not become ready")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Record:
    """What every visitor saw, in order, shared by the visitor threads."""

    def __init__(self):
        self.lock = threading.Lock()
        # (time, visitor, kind, outcome): kind "read" or "write"; outcome "ok", "503",
        # "error", "lost-write", "lost-session".
        self.events = []
        # What each lost write or session was: (time, visitor, what).
        self.losses = []
        # Writes acknowledged by each visitor since start.
        self.acknowledged = [0] * VISITORS

    def add(self, visitor, kind, outcome, detail=None):
        with self.lock:
            if detail:
                self.losses.append((time.monotonic(), visitor, detail))
            self.events.append((time.monotonic(), visitor, kind, outcome))
            if kind == "write" and outcome == "ok":
                self.acknowledged[visitor] += 1

    def since(self, start):
        with self.lock:
            return [event for event in self.events if event[0] >= start]

    def writes_since(self, start):
        """Acknowledged writes per visitor after `start`."""
        counts = [0] * VISITORS
        for at, visitor, kind, outcome in self.since(start):
            if kind == "write" and outcome == "ok":
                counts[visitor] += 1
        return counts


class Visitor(threading.Thread):
    def __init__(self, index, port, record, stop):
        super().__init__(daemon=True)
        self.index, self.port, self.record, self.stop = index, port, record, stop
        self.connection = None
        self.cookie = None
        self.token = None
        # The selection the visitor was told is saved, and writes refused since (each may
        # or may not have been applied, and may be read back and then be gone again).
        self.known = None
        self.refused = set()
        # Recent acknowledged writes (time, tab), newest last.
        self.history = []

    def request(self, method, path, body=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
            return response.status, response.getheader("Location"), response.getheader("Set-Cookie"), data
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            return None, None, None, b""

    def begin(self):
        self.history = []
        status, _, cookie, body = self.request("GET", "/tabs/music")
        if status != 200 or not cookie:
            return False
        self.cookie = cookie.split(";", 1)[0]
        match = re.search(rb'name="csrf" value="([^"]+)"', body)
        self.token = match.group(1).decode() if match else None
        self.known = "music"
        self.refused = set()
        return self.token is not None

    def run(self):
        turn = self.index
        while not self.stop.is_set():
            if self.cookie is None:
                if not self.begin():
                    time.sleep(0.05)
                    continue
            # Read: the selection must be the last acknowledged one (or a refused one).
            status, location, cookie, _ = self.request("GET", "/")
            if status == 303 and location:
                tab = location.rstrip("/").rsplit("/", 1)[-1]
                if cookie and cookie.split(";", 1)[0] != self.cookie:
                    self.record.add(self.index, "read", "lost-session", f"new session; was at {self.known}")
                    self.cookie = None
                    continue
                if tab == "featured":
                    # The first tab, which no visitor selects: the session is gone, and
                    # the page is the one a visitor without a session gets.
                    self.record.add(self.index, "read", "lost-session", f"default page; was at {self.known}")
                    self.cookie = None
                    continue
                if tab == self.known or tab in self.refused:
                    self.record.add(self.index, "read", "ok")
                else:
                    # The writes after the last acknowledged one of `tab` are the ones lost
                    # (at least: an earlier one of the same tab may be what survived).
                    kept = max((index for index, (_, written) in enumerate(self.history) if written == tab),
                               default=-1)
                    lost = self.history[kept + 1:]
                    span = f", over {time.monotonic() - lost[0][0]:.2f} s before this read" if lost else ""
                    self.record.add(
                        self.index, "read", "lost-write",
                        f"read {tab}, acknowledged {self.known}, refused {sorted(self.refused)}: "
                        f"{len(lost)} acknowledged write(s) lost{span}")
                if tab != self.known and tab not in self.refused:
                    self.known = tab
                    self.refused = set()
            else:
                # Refused: the write is tried all the same, so its refusals are timed too.
                self.record.add(self.index, "read", "503" if status == 503 else "error")
            # Write another tab.
            turn += 1
            tab = TABS[turn % len(TABS)]
            if tab == self.known:
                turn += 1
                tab = TABS[turn % len(TABS)]
            status, _, _, _ = self.request("POST", "/select", body=f"csrf={self.token}&tab={tab}")
            if status == 303:
                self.known = tab
                self.refused = set()
                self.history = self.history[-200:] + [(time.monotonic(), tab)]
                self.record.add(self.index, "write", "ok")
            elif status == 403:
                # The form token of a session that is no longer there.
                self.record.add(self.index, "write", "lost-session", f"403 to a write; was at {self.known}")
                self.cookie = None
            else:
                self.refused.add(tab)
                self.record.add(self.index, "write", "503" if status == 503 else f"{status or 'error'}")
            # Room on two shared cores for Redis and the sentinels to answer in time.
            time.sleep(0.005)


def measure(events, start):
    """The figures of one failover from the events after `start`."""
    failures = [event for event in events if event[3] in ("503", "error") or event[3].isdigit()]
    window = 0.0
    if failures:
        first, last = failures[0][0], failures[-1][0]
        back = next((event[0] for event in events if event[0] > last and event[3] == "ok"), last)
        window = back - first
    longest = 0.0
    for visitor in range(VISITORS):
        refused_at = None
        for at, who, kind, outcome in events:
            if who != visitor or kind != "write":
                continue
            if outcome != "ok" and refused_at is None:
                refused_at = at
            elif outcome == "ok" and refused_at is not None:
                longest = max(longest, at - refused_at)
                refused_at = None
        if refused_at is not None:
            longest = max(longest, events[-1][0] - refused_at)
    reads = [event for event in events if event[2] == "read"]
    return {
        "window_503_s": round(window, 3),
        "longest_write_refusal_s": round(longest, 3),
        "requests_503": sum(1 for event in events if event[3] == "503"),
        "errors": sum(1 for event in events if event[3] not in ("ok", "503", "lost-write", "lost-session")),
        "writes_acknowledged": sum(1 for event in events if event[2] == "write" and event[3] == "ok"),
        "acknowledged_found": sum(1 for event in reads if event[3] == "ok"),
        "acknowledged_missing": sum(1 for event in reads if event[3] == "lost-write"),
        "sessions_lost": sum(1 for event in events if event[3] == "lost-session"),
    }


def run_mode(binary, failovers, wait, work):
    label = "with --redis-wait-replicas 1" if wait else "without WAIT"
    folder = os.path.join(work, "wait" if wait else "plain")
    os.makedirs(folder)
    cluster = Cluster(folder)
    server = TabServer(binary, cluster.url, wait, folder)
    record = Record()
    stop = threading.Event()
    visitors = [Visitor(index, server.port, record, stop) for index in range(VISITORS)]
    results = []
    try:
        for visitor in visitors:
            visitor.start()
        writing = wait_for(lambda: min(record.writes_since(0)) >= WRITES_AFTER, 30)
        cluster.mark = None  # the replica must have the visitors' first writes too
        if not writing or not wait_for(cluster.ready, 30):
            raise RuntimeError("the visitors did not start writing, or the cluster is not ready")
        print(f"--- {label}: tabserver on {server.port}, {cluster.url}", flush=True)
        for number in range(failovers):
            crash = number % 2 == 0
            start = time.monotonic()
            extra_before = cluster.extra_failovers
            try:
                switched = cluster.fail_over(crash)
            except RuntimeError as error:
                print(f"{label} #{number + 1:>2}: {error}; the run stops here", flush=True)
                break
            # Settled: the cluster ready again, then every visitor has written again.
            settled = wait_for(cluster.ready, FAILOVER_LIMIT, every=0.1)
            marker = time.monotonic()
            settled = settled and wait_for(
                lambda: min(record.writes_since(marker)) >= WRITES_AFTER,
                max(1.0, FAILOVER_LIMIT - (marker - start)), every=0.05)
            # The last reads of this failover: every visitor has read after its writes.
            checked = time.monotonic()
            wait_for(lambda: all(
                any(event[1] == visitor and event[2] == "read" for event in record.since(checked))
                for visitor in range(VISITORS)), 10)
            figures = measure(record.since(start), start)
            with record.lock:
                figures["losses"] = [
                    (round(at - start, 3), visitor, what) for at, visitor, what in record.losses if at >= start]
            figures["writes_lost"] = sum(
                int(found.group(1)) for found in (re.search(r": (\d+) acknowledged", what)
                                                  for _, _, what in figures["losses"]) if found)
            figures.update(
                number=number + 1, kind="kill -9" if crash else "SENTINEL FAILOVER",
                sentinels_switched_s=round(switched, 3), settled=settled,
                extra_failovers=cluster.extra_failovers - extra_before,
                seconds=round(time.monotonic() - start, 1))
            results.append(figures)
            print(
                f"{label} #{number + 1:>2} {figures['kind']:<17} switched {switched:5.2f} s, 503s for "
                f"{figures['window_503_s']:5.2f} s ({figures['requests_503']}), longest write refusal "
                f"{figures['longest_write_refusal_s']:5.2f} s, acknowledged {figures['writes_acknowledged']}, "
                f"found {figures['acknowledged_found']}, missing {figures['acknowledged_missing']} "
                f"(writes lost {figures['writes_lost']}), "
                f"sessions lost {figures['sessions_lost']}, errors {figures['errors']}"
                + (f", {figures['extra_failovers']} more failover(s) by the sentinels"
                   if figures["extra_failovers"] else "")
                + ("" if settled else " NOT SETTLED"), flush=True)
            for at, visitor, what in figures["losses"]:
                print(f"    {at:6.2f} s after the failover began, visitor {visitor}: {what}", flush=True)
            if not settled:
                break
    finally:
        stop.set()
        for visitor in visitors:
            visitor.join(timeout=10)
        server.stop()
        cluster.stop()
    return label, results


def summary(label, results):
    def spread(name):
        values = [result[name] for result in results]
        return f"median {statistics.median(values):.2f} s, max {max(values):.2f} s"

    lines = [f"{label}: {len(results)} failovers ({sum(1 for r in results if r['settled'])} settled)"]
    for kind in ("kill -9", "SENTINEL FAILOVER"):
        some = [result for result in results if result["kind"] == kind]
        if not some:
            continue

        def total(name):
            return sum(result[name] for result in some)

        values = {name: [result[name] for result in some]
                  for name in ("window_503_s", "longest_write_refusal_s", "sentinels_switched_s")}
        lines.append(
            f"  {kind:<17} ×{len(some)}: sentinels switched median {statistics.median(values['sentinels_switched_s']):.2f} s; "
            f"503 window median {statistics.median(values['window_503_s']):.2f} s, max {max(values['window_503_s']):.2f} s; "
            f"longest write refusal median {statistics.median(values['longest_write_refusal_s']):.2f} s, "
            f"max {max(values['longest_write_refusal_s']):.2f} s; acknowledged writes checked "
            f"{total('acknowledged_found') + total('acknowledged_missing')}, visitors rolled back "
            f"{total('acknowledged_missing')} (in {sum(1 for r in some if r['acknowledged_missing'])} failovers, "
            f"{total('writes_lost')} acknowledged writes lost); sessions lost {total('sessions_lost')} "
            f"(in {sum(1 for r in some if r['sessions_lost'])} failovers); "
            f"followed by a failover the sentinels made themselves: {sum(1 for r in some if r['extra_failovers'])}")
    return "\n".join(lines)


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    only = None
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        arguments = [argument for argument in arguments if argument != only]
    binary = os.path.abspath(arguments[0]) if arguments else os.path.join(ROOT, ".build/release/tabserver")
    failovers = int(arguments[1]) if len(arguments) > 1 else 50
    for tool in ("redis-server", "redis-sentinel"):
        if not shutil.which(tool):
            sys.exit(f"failover: {tool} is missing (scripts/setup.sh --test installs it)")
    work = tempfile.mkdtemp(prefix="tabserver-failover-")
    modes = [wait for wait in (False, True) if only is None or (only == "wait") == wait]
    reports = []
    for wait in modes:
        reports.append(run_mode(binary, failovers, wait, work))
    print()
    for label, results in reports:
        print(summary(label, results))
    path = os.path.join(work, "failover-results.json")
    with open(path, "w") as file:
        json.dump({label: results for label, results in reports}, file, indent=1)
    print(f"details: {path} (server and Redis logs beside it)")


if __name__ == "__main__":
    main()
