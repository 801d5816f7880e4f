#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue #19's scale target: with 1,000,000 sessions stored in SQLite, the 2,000-visitor
workload (bench/visitors.lua) drawn from random sessions of the million keeps >= 80 % of
the rate it has on a file of 2,000 sessions; RSS stays <= 64 MiB (bounded caches); the
first response after a restart on the big file comes within 100 ms.

The million sessions are made by the server itself, as browsers make them: wrk GETs a
tab page without a cookie a million times (bench/populate.lua), keeping every 500th
visitor's cookie and CSRF token, which gives 2,000 visitors spread evenly over the
file. Usage: bench/scale.py [seconds] [sessions] (defaults 5 and 1,000,000). Needs the
release build (bench/run.sh makes it). Binds 127.0.0.1; stops what it starts by pid."""
import os, signal, statistics, subprocess, sys, tempfile, time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
arguments = sys.argv[1:]
sys.argv = sys.argv[:1]  # bench.py reads its duration from argv
import bench  # noqa: E402

bench.DURATION = int(arguments[0]) if arguments else 5
SESSIONS = int(arguments[1]) if len(arguments) > 1 else 1_000_000
VISITORS = 2000
ROUNDS = 5


def start(path, log):
    return bench.start_server(["--sessions", f"sqlite:{path}"], log)


def visitors_round(port, pids, visitors_file):
    return bench.wrk(f"http://127.0.0.1:{port}", script=os.path.join(bench.ROOT, "bench/visitors.lua"),
                     script_args=[visitors_file], pids=pids)


def main():
    work = tempfile.mkdtemp(prefix="tabserver-scale-")
    log = open(os.path.join(work, "server.log"), "w")
    big, small = os.path.join(work, "million.sqlite"), os.path.join(work, "two-thousand.sqlite")
    sample = os.path.join(work, "sample.txt")
    small_visitors = os.path.join(work, "visitors.txt")

    proc, port = start(big, log)
    started = time.perf_counter()
    every = max(1, SESSIONS // VISITORS)
    populate = subprocess.Popen(["wrk", "-t1", "-c64", "-d3600s", "-s", os.path.join(bench.ROOT, "bench/populate.lua"),
                                 f"http://127.0.0.1:{port}", "--", str(SESSIONS), sample, str(every)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(sample + ".done"):
            if populate.poll() is not None:
                raise RuntimeError("wrk ended before the sessions were made")
            time.sleep(0.2)
    finally:
        populate.send_signal(signal.SIGTERM)
        populate.wait(timeout=10)
    made_in = time.perf_counter() - started
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    with open(sample) as f:
        sampled = sum(1 for _ in f)
    big_size = sum(os.path.getsize(big + s) for s in ("", "-wal") if os.path.exists(big + s))
    print(f"made {SESSIONS:,} sessions in {made_in:.0f} s; file {big_size / 2**20:.0f} MiB; {sampled:,} sampled",
          flush=True)

    starts = sorted(bench.first_response_ms(["--sessions", f"sqlite:{big}"]) for _ in range(5))
    servers = {"million": start(big, log), "2,000": start(small, log)}
    bench.make_visitors(servers["2,000"][1], VISITORS, small_visitors)
    files = {"million": sample, "2,000": small_visitors}
    results = {name: [] for name in servers}
    try:
        for round_index in range(ROUNDS):
            order = list(servers) if round_index % 2 == 0 else list(servers)[::-1]
            for name in order:
                proc, port = servers[name]
                r = visitors_round(port, [proc.pid], files[name])
                results[name].append(r)
                print(f"round {round_index + 1} {name:8s} {r['rps']:>9.0f} req/s  p99 {r['p99']:.2f} ms  "
                      f"server CPU {r['cpu_us']:.1f} us/req  RSS {bench.rss_kib(proc.pid) / 1024:.1f} MiB"
                      + (f"  ERRORS {r['non2xx'] + r['socket']}" if r["non2xx"] + r["socket"] else ""), flush=True)
        rss = {name: bench.rss_kib(proc.pid) / 1024 for name, (proc, _) in servers.items()}
    finally:
        for proc, _ in servers.values():
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    med = {name: {k: statistics.median(r[k] for r in rs) for k in ("rps", "p99", "cpu_us")}
           for name, rs in results.items()}
    errors = {name: sum(r["non2xx"] + r["socket"] for r in rs) for name, rs in results.items()}
    ratio = med["million"]["rps"] / med["2,000"]["rps"]
    first = statistics.median(starts)
    checks = [
        ("rate over a million sessions, of the rate over 2,000", f"{ratio:.0%}", ">= 80%", ratio >= 0.80),
        ("RSS after the workload (million)", f"{rss['million']:.1f} MiB", "<= 64 MiB", rss["million"] <= 64),
        ("first response after a restart on the million", f"{first:.1f} ms (median of 5)", "<= 100 ms", first <= 100),
        ("errors", f"{errors['million']} / {errors['2,000']}", "0", errors["million"] + errors["2,000"] == 0),
    ]
    print()
    print(f"# Scale ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}): {SESSIONS:,} sessions in SQLite")
    print()
    print(f"{ROUNDS} rounds of {bench.DURATION} s, wrk -t1 -c64, bench/visitors.lua over {VISITORS:,} visitors, medians.")
    print()
    print("| file | req/s | p99 ms | server CPU us/req | RSS MiB |")
    print("|---|---|---|---|---|")
    for name in servers:
        print(f"| {name} sessions | {med[name]['rps']:.0f} | {med[name]['p99']:.2f} | {med[name]['cpu_us']:.1f} | "
              f"{rss[name]:.1f} |")
    print()
    print("| target | measured | goal | verdict |")
    print("|---|---|---|---|")
    for name, measured, goal, ok in checks:
        print(f"| {name} | {measured} | {goal} | {'pass' if ok else 'FAIL'} |")


if __name__ == "__main__":
    main()
