#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An app's JSON route against nginx serving the same bytes: Examples/FirstTabApp's
`GET /api/items` (its release build, run from its folder) and nginx (bench.py's
configuration) with the body as a file, wrk in turn, rounds alternating which goes first.
Prints each round's requests a second and server CPU a request, and the median ratio.
Usage: bench/json_route.py [seconds] [rounds]. Build first:
swift build -c release --static-swift-stdlib --product FirstTabApp."""
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (its wrk, CPU and nginx helpers)

ROOT = bench.ROOT
BINARY = os.environ.get("FIRSTTABAPP_BINARY", os.path.join(ROOT, ".build/release/FirstTabApp"))
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def main():
    work = tempfile.mkdtemp(prefix="tabserver-json-")
    os.chmod(work, 0o755)
    port = bench.free_port()
    app = subprocess.Popen(
        [BINARY, "--host", "127.0.0.1", "--port", str(port), "--sessions", "memory", "--access-log", "off",
         "--threads", "2"],
        cwd=os.path.join(ROOT, "Examples/FirstTabApp"), stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(work, "app.log"), "w"))
    nginx = None
    try:
        url = f"http://127.0.0.1:{port}/api/items"
        bench.wait_http(url)
        body = urllib.request.urlopen(url).read()
        nginx, nginx_port, workers = bench.start_nginx(work, {"api/items.json": body})
        print(f"body: {len(body)} bytes: {body.decode()[:80]}")
        ratios, cpu_ratios = [], []
        for index in range(ROUNDS):
            order = ["app", "nginx"] if index % 2 == 0 else ["nginx", "app"]
            results = {}
            for name in order:
                if name == "app":
                    results[name] = bench.wrk(url, pids=[app.pid])
                else:
                    results[name] = bench.wrk(f"http://127.0.0.1:{nginx_port}/api/items.json", pids=workers)
            a, n = results["app"], results["nginx"]
            assert a["non2xx"] == 0 and n["non2xx"] == 0, (a, n)
            ratios.append(a["rps"] / n["rps"])
            cpu_ratios.append(a["cpu_us"] / n["cpu_us"])
            print(f"round {index + 1}: app {a['rps']:,.0f} req/s ({a['cpu_us']:.1f} µs CPU a request), "
                  f"nginx {n['rps']:,.0f} req/s ({n['cpu_us']:.1f} µs) -> {ratios[-1]:.0%} of nginx's rate, "
                  f"{cpu_ratios[-1]:.2f}x its CPU")
        print(f"median: {statistics.median(ratios):.0%} of nginx's rate, {statistics.median(cpu_ratios):.2f}x its CPU "
              f"a request ({ROUNDS} rounds of {bench.DURATION} s, wrk -t1 -c{bench.CONNECTIONS})")
    finally:
        if nginx:
            bench.stop_nginx(nginx)
        app.terminate()
        app.wait(timeout=30)


if __name__ == "__main__":
    main()
