#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tap to page on a mobile network, on a phone on a bad day: Debian's Chromium, driven by
Selenium and the DevTools protocol, emulating an iPhone on a slow network
(`Network.emulateNetworkConditions`: 150 ms latency, 1.6 Mbps down, 750 kbps up), taps
bar items with a touch pointer, JavaScript on and off, with the CPU throttled 4x
(`Emulation.setCPUThrottlingRate`; `--cpu-slowdown 1` for none), and prints a markdown
table (the layout shifts across each tap from `PerformanceTimeline`'s layout-shift
entries, and the page's script gzip'd, beside it):

- tap → item shown selected (target ≤ 50 ms)
- tap → new heading (target ≤ 260 ms: one round trip plus render), the tapped tab's
  page not prepared (the page asks to save data, `navigator.connection.saveData`, so
  the script prefetches nothing)
- requests per tap (target 1): requests to the server from the tap until its page is
  shown, prefetches not counted (they are counted apart, per tap)
- a prepared tab's tap (target ≤ 50 ms): tap → new heading when the script has
  prefetched the tab (JavaScript on only)
- bytes on the wire per tap (headers and bodies of those requests, as the network saw them)

A figure is the median of the taps. With JavaScript on, times are taken in the page:
from the touch's end (`pointerup`, when the tap is made) to the animation frame after
the item is marked current
(or the heading changed). With it off the tap loads a new document: from the post
leaving the browser (CDP `wallTime`, a few milliseconds after the touch) to that
document's first contentful paint; the item shows selected with it (`:active` only
dims and tints it while the finger is down).

It starts the server binary (`--binary`, default `.build/release/tabserver`, else
`.build/debug/tabserver`) on 127.0.0.1 with memory sessions, from `--root` (where
Templates/ and Public/ are read; default: the repository), and stops it by its pid.

    .venv/bin/python bench/mobile.py                     # this checkout's build
    .venv/bin/python bench/mobile.py --binary /path/tabserver --root /path/to/old/tree --taps 5
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("SE_OFFLINE", "true")

CPU_SLOWDOWN = 4.0
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
           "uploadThroughput": 750_000 / 8}
IPHONE_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
             "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")
# Three tabs of the shipped bar on a phone (3 + More + Search), tapped in turn.
TARGETS = ["music", "movies", "featured"]

_STATE = """
const b = document.querySelector('nav.tab-bar button[name=tab][value="' + arguments[0] + '"]');
return {current: b ? b.getAttribute('aria-current') : null,
        h1: (document.querySelector('h1')?.textContent || '').trim(),
        ready: document.readyState};
"""


# The visitor asks to save data: app.js then prefetches nothing.
_SAVE_DATA = """
if (navigator.connection) Object.defineProperty(navigator.connection, 'saveData', {get: () => true});
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(binary: Path, root: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [str(binary), "--host", "127.0.0.1", "--port", str(port), "--sessions", "memory", "--access-log", "off"],
        cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return process, base
        except OSError:
            time.sleep(0.1)
    stop(process)
    sys.exit(f"{binary} did not become healthy")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()  # this pid only
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def make_driver(js: bool) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--window-size=390,844"):
        options.add_argument(argument)
    prefs: dict = {"intl.accept_languages": "en-US,en"}
    if not js:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True, "mobile": True},
        "userAgent": IPHONE_UA,
    })
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver"),
                      log_output=subprocess.DEVNULL)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", NETWORK)
    # A phone on a bad day: its CPU four times slower than this machine's core.
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    driver.execute_cdp_cmd("PerformanceTimeline.enable", {"eventTypes": ["layout-shift"]})
    return driver


# Layout shifts seen since the last read of the log (PerformanceTimeline events, which
# come with JavaScript off too), summed as CLS is: every shift counts here, even one
# right after the tap (CLS leaves those out), so 0 means nothing moved at all.
SHIFTS: list[float] = []


def network_events(driver) -> list[dict]:
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"].startswith("Network."):
            events.append(message)
        elif message["method"] == "PerformanceTimeline.timelineEventAdded":
            shift = message["params"]["event"].get("layoutShiftDetails")
            if shift:
                SHIFTS.append(shift["value"])
    return events


def tap(driver, element) -> None:
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def settle(driver, seconds: float = 2.0) -> None:
    """Lets the page finish (loads, the script's prefetches) before the next tap."""
    time.sleep(seconds)
    network_events(driver)  # drop what came before


# With the script, timed inside the page: from the touch's end (pointerup: the tap is
# made, a click follows) to the frame after the tapped item is marked current, and
# after the heading changes.
_WATCH = """
const target = arguments[0], before = (document.querySelector('h1')?.textContent || '').trim();
const watch = window.__tapWatch = {down: null, selected: null, heading: null};
const frame = (key) => requestAnimationFrame(() => { if (watch[key] === null) watch[key] = performance.now(); });
addEventListener('pointerup', (e) => { if (watch.down === null) watch.down = e.timeStamp; }, {capture: true, once: true});
let marked = {selected: false, heading: false};
const check = () => {
  const b = document.querySelector('nav.tab-bar button[name=tab][value="' + target + '"]');
  if (!marked.selected && b && b.getAttribute('aria-current') === 'page') { marked.selected = true; frame('selected'); }
  const h1 = (document.querySelector('h1')?.textContent || '').trim();
  if (!marked.heading && h1 && h1 !== before) { marked.heading = true; frame('heading'); }
};
new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true,
                                               attributeFilter: ['aria-current', 'class']});
"""

# Without the script the tap is a new document: from the post leaving the browser (a
# few milliseconds after the touch) to the new page's first contentful paint.
_PAINTED = """
const paint = performance.getEntriesByName('first-contentful-paint')[0];
return paint ? performance.timeOrigin + paint.startTime : null;
"""


def one_tap(driver, base: str, target: str, js: bool) -> dict:
    before = driver.execute_script(_STATE, target)
    button = driver.find_element(By.CSS_SELECTOR, f'nav.tab-bar button[name=tab][value="{target}"]')
    if js:
        driver.execute_script(_WATCH, target)
    network_events(driver)
    SHIFTS.clear()
    started = time.monotonic()
    tap(driver, button)
    selected = heading = float("nan")
    while time.monotonic() - started < 15:
        try:
            state = driver.execute_script(_STATE, target)
        except Exception:  # noqa: BLE001 - a document being replaced
            continue
        if state["current"] == "page" and state["h1"] and state["h1"] != before["h1"] and state["ready"] == "complete":
            break
    if js:
        time.sleep(0.1)
        watch = driver.execute_script("return window.__tapWatch;")
        if watch["down"] is not None:
            selected = watch["selected"] - watch["down"] if watch["selected"] is not None else float("nan")
            heading = watch["heading"] - watch["down"] if watch["heading"] is not None else float("nan")
    else:
        time.sleep(0.3)
        painted = driver.execute_script(_PAINTED)
    # The tap's requests: from the tap until its page is shown and the page has settled.
    time.sleep(1.0)
    # One entry per request sent: a redirect keeps its request id but is a request of
    # its own (its bytes are counted with the redirect response's).
    sent: list[dict] = []
    latest: dict[str, dict] = {}
    post_sent = None
    for event in network_events(driver):
        params = event["params"]
        if event["method"] == "Network.requestWillBeSent" and params["request"]["url"].startswith(base):
            headers = {k.lower(): v for k, v in params["request"]["headers"].items()}
            if "redirectResponse" in params and params["requestId"] in latest:
                redirect = params["redirectResponse"]
                latest[params["requestId"]]["bytes"] = redirect.get("encodedDataLength", 0)
            request = {
                "url": params["request"]["url"][len(base):], "method": params["request"]["method"],
                "prefetch": "prefetch" in (headers.get("purpose", "") + headers.get("sec-purpose", "")),
                "events": params["request"]["url"].endswith("/events"), "bytes": 0, "cached": False}
            sent.append(request)
            if request["method"] == "POST" and post_sent is None:
                post_sent = params["wallTime"] * 1000
            latest[params["requestId"]] = request
        elif event["method"] == "Network.loadingFinished" and params["requestId"] in latest:
            latest[params["requestId"]]["bytes"] = params["encodedDataLength"]
        elif event["method"] == "Network.requestServedFromCache" and params["requestId"] in latest:
            latest[params["requestId"]]["cached"] = True
        elif event["method"] == "Network.responseReceived" and params["requestId"] in latest:
            if params["response"].get("fromDiskCache") or params["response"].get("fromPrefetchCache"):
                latest[params["requestId"]]["cached"] = True
    # The tap's own requests that reached the server (prefetches, the live-update stream
    # and files from the browser's memory cache apart).
    own = [r for r in sent if not r["prefetch"] and not r["events"] and not r["cached"]]
    if not js and painted is not None and post_sent is not None:
        # The item shows selected with the new page (:active only while the finger is down).
        selected = heading = painted - post_sent
    return {
        "selected": selected,
        "heading": heading,
        "requests": len(own),
        "prefetches": sum(1 for r in sent if r["prefetch"]),
        "bytes": sum(r["bytes"] for r in own),
        "urls": [f"{r['method']} {r['url']}" + (" (prefetch)" if r["prefetch"] else "") for r in sent],
        "shift": sum(SHIFTS),
    }


def run_mode(base: str, js: bool, taps: int, prepared: bool) -> list[dict]:
    driver = make_driver(js)
    try:
        if not prepared:
            # Nothing prefetched: every tap waits on the network.
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _SAVE_DATA})
        driver.get(base + "/tabs/featured")
        settle(driver)
        results = []
        for index in range(taps):
            results.append(one_tap(driver, base, TARGETS[index % len(TARGETS)], js))
            settle(driver)
        return results
    finally:
        driver.quit()


def script_before_interaction(base: str) -> tuple[int, int]:
    """The page's scripts as the browser gets them (gzip'd), in bytes: all it loads, and
    app.js alone (what a tap needs; live.js and install.js are not needed for one)."""
    import gzip
    import re
    with urllib.request.urlopen(base + "/tabs/featured", timeout=10) as answer:
        page = answer.read().decode()
    total = app = 0
    for src in re.findall(r'<script src="([^"]+)"', page):
        request = urllib.request.Request(base + src, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
            size = len(body) if answer.headers.get("Content-Encoding") == "gzip" else len(gzip.compress(body, 9))
        total += size
        if "/js/app." in src:
            app = size
    return total, app


def median(results: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = ROOT / ".build/release/tabserver"
    if not default.exists():
        default = ROOT / ".build/debug/tabserver"
    parser.add_argument("--binary", type=Path, default=default)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--taps", type=int, default=5)
    parser.add_argument("--label", default="")
    parser.add_argument("--json", action="store_true", help="print the raw taps as JSON too")
    parser.add_argument("--cpu-slowdown", type=float, default=4, help="CDP CPU throttling rate (1: none)")
    args = parser.parse_args()
    global CPU_SLOWDOWN
    CPU_SLOWDOWN = args.cpu_slowdown
    process, base = start_server(args.binary.resolve(), args.root.resolve())
    try:
        modes = {"JS on": run_mode(base, True, args.taps, prepared=False),
                 "JS on, prepared tab": run_mode(base, True, args.taps, prepared=True),
                 "JS off": run_mode(base, False, args.taps, prepared=True)}
        scripts, app_script = script_before_interaction(base)
    finally:
        stop(process)
    if args.json:
        print(json.dumps(modes, indent=1))
    label = f" ({args.label})" if args.label else ""
    print(f"CPU {CPU_SLOWDOWN:g}x slower, {NETWORK['latency']} ms latency{label}; targets: selected ≤ 50 ms, "
          "a prepared tab ≤ 120 ms, an unprepared tap ≤ 300 ms, no layout shift, script ≤ 12 KB gzip'd")
    print(f"| {args.taps} taps each, median | tap → item selected | tap → new heading "
          "| requests per tap | prefetches per tap | bytes on the wire per tap | layout shift (sum, worst tap) |")
    print("|---|---|---|---|---|---|---|")
    for name, results in modes.items():
        print(f"| {name} | {median(results, 'selected'):.0f} ms | {median(results, 'heading'):.0f} ms "
              f"| {median(results, 'requests'):g} | {median(results, 'prefetches'):g} "
              f"| {median(results, 'bytes'):,.0f} B | {max(r['shift'] for r in results):.4f} |")
    print(f"script the page loads, gzip'd: {scripts:,} B in all; app.js (what a tap needs) {app_script:,} B")


if __name__ == "__main__":
    main()
