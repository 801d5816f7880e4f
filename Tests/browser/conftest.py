# SPDX-License-Identifier: Apache-2.0
"""Fixtures of the real-browser tests.

The suite builds nothing: it starts the already built server binary
(`.build/debug/tabserver`, or $TABSERVER_BINARY) from the repository root on a free
loopback port with in-memory sessions, waits for /healthz, and stops it by pid at the
end. Browsers are Debian's headless Chromium driven through chromedriver; each test
module keeps one browser per configuration (viewport, JavaScript on/off, language) and
every test starts that browser on a new session (all cookies cleared, light mode).

Tests marked `webkit` run a second time in WebKitGTK, Safari's engine (Debian's
MiniBrowser driven through WebKitWebDriver, each on an Xvfb display of its own, started
and stopped by pid), at the phone sizes only; `--engine chromium` or `--engine webkit` runs
one engine alone. WebKitGTK has no device emulation: see webkit.py for what differs.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

import webkit
from support import ANDROID, PHONES, SIZES, Browser

ROOT = Path(__file__).resolve().parents[2]
# The tab model the tests were written for, owned by the tests: seven tabs and a search
# tab, none of the keys the demo's own tabs.json shows off (groups, hidden tabs, the
# sidebar, minimizing). `shipped_server` runs the demo's model.
TEST_TABS = ROOT / "Tests" / "Fixtures" / "tabs.json"
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver")
SCREENSHOTS = ROOT / "screenshots"

# Selenium must never try to download a driver or a browser.
os.environ.setdefault("SE_OFFLINE", "true")


ENGINES = ("chromium", "webkit")


def pytest_addoption(parser):
    parser.addoption(
        "--engine", action="append", choices=ENGINES,
        help="run only the tests of this browser engine (repeatable; default: both). Tests marked "
             "`webkit` run in Chromium and in WebKitGTK, at the phone sizes; the others in Chromium only.")


def _engines(config) -> tuple[str, ...]:
    return tuple(config.getoption("engine") or ENGINES)


def pytest_generate_tests(metafunc):
    # A test marked `webkit` runs once per engine (ids "chromium" and "webkit"); the others
    # get the `engine` fixture's default, Chromium, and keep their ids.
    if metafunc.definition.get_closest_marker("webkit") is not None:
        metafunc.parametrize("engine", ENGINES, indirect=True)


def pytest_collection_modifyitems(config, items):
    wanted = _engines(config)
    keep, drop = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params if callspec else {}
        engine = params.get("engine", "chromium")
        if engine not in wanted or (engine == "webkit" and not _webkit_runs(item, params)):
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _webkit_runs(item, params: dict) -> bool:
    """WebKitGTK runs the phone sizes (390x844, 844x390: an iPhone's engine), and of the
    other parameters those the marker names, if it names any:
    `@pytest.mark.webkit(js=[True])` runs the WebKit half with the script only."""
    if params.get("viewport", "phone") not in PHONES:
        return False
    chosen = item.get_closest_marker("webkit").kwargs
    return all(params.get(name) in values for name, values in chosen.items())


@pytest.fixture(autouse=True)
def engine(request) -> str:
    """The browser engine of this test: what every pool opens while it runs."""
    name = getattr(request, "param", "chromium")
    BrowserPool.engine = name
    try:
        yield name
    finally:
        BrowserPool.engine = "chromium"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


class Server:
    """The tabserver process under test."""

    def __init__(self, binary: Path, extra_args: tuple[str, ...] = (), cwd: Path = ROOT,
                 env: dict[str, str] | None = None):
        self.binary = binary
        self.extra_args = extra_args
        # Where it runs (an example app reads its own files from its folder) and its
        # environment (None: this process's).
        self.cwd = cwd
        self.env = env
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile(mode="w+b")
        self.base_url = ""

    def start(self) -> None:
        # A port picked free can be taken before the server binds it: try a few.
        for _ in range(3):
            port = _free_port()
            self.process = subprocess.Popen(
                [str(self.binary), "--host", "127.0.0.1", "--port", str(port),
                 "--sessions", "memory", "--access-log", "off", *self.extra_args],
                cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            )
            self.base_url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if _healthy(self.base_url + "/healthz"):
                    return
                try:
                    # Waits for an early exit, at most 0.1 s, between health checks.
                    self.process.wait(timeout=0.1)
                    break
                except subprocess.TimeoutExpired:
                    pass
            self.stop()
        raise RuntimeError(f"{self.binary.name} did not become healthy:\n{self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-4000:]

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()  # SIGTERM to this pid only: the server drains and exits.
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def url(self, path: str) -> str:
        return self.base_url + path


def server_binary() -> Path:
    binary = Path(os.environ.get("TABSERVER_BINARY", ROOT / ".build/debug/tabserver"))
    if not binary.is_absolute():
        binary = ROOT / binary
    if not binary.is_file():
        pytest.exit(f"{binary} does not exist: build the server first (swift build)", returncode=2)
    return binary


@contextmanager
def running_server(*extra_args: str):
    srv = Server(server_binary(), extra_args)
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()
        srv.log.close()


def changed_tabs_file(tmp_path_factory, name: str, change) -> Path:
    """The tests' model (`TEST_TABS`) with `change(spec)` applied, written to a file of its own."""
    spec = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    change(spec)
    path = tmp_path_factory.mktemp("tabs") / f"{name}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


@contextmanager
def pool_on_tabs(path: Path):
    """A server of its own on the tab file `path`, and a pool of browsers for it."""
    with running_server("--tabs", str(path)) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture(scope="session")
def seven_tabs_file(tmp_path_factory) -> Path:
    """The tests' model (`TEST_TABS`) less its search tab: the seven tabs (4 + More on a
    phone) most tests were written for. The search tab's tests run on `eight_tabs_server`."""
    model = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    model["tabs"] = [tab for tab in model["tabs"] if tab.get("role") != "search"]
    path = tmp_path_factory.mktemp("seven-tabs") / "tabs.json"
    path.write_text(json.dumps(model), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def server(seven_tabs_file):
    with running_server("--tabs", str(seven_tabs_file)) as srv:
        yield srv


@pytest.fixture(scope="session")
def eight_tabs_server():
    """The server on the tests' model (`TEST_TABS`), search tab included: 3 + More + Search
    on a phone."""
    with running_server("--tabs", str(TEST_TABS)) as srv:
        yield srv


@pytest.fixture(scope="session")
def shipped_server():
    """The server on the shipped tabs.json, the demo's model (what a newcomer runs)."""
    with running_server() as srv:
        yield srv


# Chrome on an Android phone: the reduced User-Agent (Android 10, model "K") and the
# client hints a real one sends (Sec-CH-UA-Platform: "Android" is what the server reads).
ANDROID_CHROME = "156"
ANDROID_USER_AGENT = (f"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
                      f"Chrome/{ANDROID_CHROME}.0.0.0 Mobile Safari/537.36")
ANDROID_CLIENT_HINTS = {
    "platform": "Android", "platformVersion": "15", "mobile": True, "model": "Pixel 9", "architecture": "",
    "brands": [{"brand": "Chromium", "version": ANDROID_CHROME}, {"brand": "Google Chrome", "version": ANDROID_CHROME},
               {"brand": "Not.A/Brand", "version": "99"}],
    "fullVersionList": [{"brand": "Chromium", "version": f"{ANDROID_CHROME}.0.0.0"},
                        {"brand": "Google Chrome", "version": f"{ANDROID_CHROME}.0.0.0"},
                        {"brand": "Not.A/Brand", "version": "99.0.0.0"}],
}


def _make_driver(viewport: str, js: bool, lang: str) -> webdriver.Chrome:
    width, height = SIZES[viewport]
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
        "--disable-breakpad", "--disable-crash-reporter",
        f"--window-size={width},{height}", f"--lang={lang.split(',')[0]}",
    ):
        options.add_argument(argument)
    prefs: dict = {"intl.accept_languages": lang}
    if not js:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    if viewport in PHONES:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 3,
                              "touch": True, "mobile": True},
        })
    elif viewport == ANDROID:
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.625,
                              "touch": True, "mobile": True},
            "userAgent": ANDROID_USER_AGENT, "clientHints": ANDROID_CLIENT_HINTS,
        })
    service = Service(executable_path=CHROMEDRIVER, log_output=subprocess.DEVNULL)
    driver = webdriver.Chrome(options=options, service=service)
    # A browser command that hangs fails within a minute instead of selenium's two.
    driver.command_executor.client_config.timeout = 60
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    if viewport not in (*PHONES, ANDROID):
        # --window-size sizes the window, and headless Chromium keeps part of it for
        # browser chrome: pin the layout viewport itself.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False,
        })
    return driver


class BrowserPool:
    """One browser per configuration, shared by the tests of a module; at most
    `MAX_OPEN` at once (the least recently used one is closed first). It opens the
    engine of the test running (the `engine` fixture sets `BrowserPool.engine`)."""

    MAX_OPEN = 4
    engine = "chromium"

    def __init__(self, server: Server):
        self.server = server
        self.drivers: dict[tuple[str, str, bool, str], webdriver.Remote] = {}

    def open(self, viewport: str, js: bool = True, lang: str = "en-US,en") -> Browser:
        engine = BrowserPool.engine
        key = (engine, viewport, js, lang)
        driver = self.drivers.pop(key, None)
        if driver is None:
            while len(self.drivers) >= self.MAX_OPEN:
                _quit(self.drivers.pop(next(iter(self.drivers))))
            if engine == "webkit":
                assert viewport in PHONES, f"a test marked webkit opens the {viewport} size: WebKitGTK runs the phones"
                driver = webkit.make_driver(*SIZES[viewport], js=js, lang=lang)
            else:
                driver = _make_driver(viewport, js, lang)
        self.drivers[key] = driver  # most recently used last
        browser = Browser(driver, self.server.base_url, viewport=viewport, js=js, engine=engine)
        browser.reset()
        return browser

    def close(self) -> None:
        for driver in self.drivers.values():
            _quit(driver)
        self.drivers.clear()


def _quit(driver: webdriver.Remote) -> None:
    try:
        if isinstance(driver, webdriver.WebKitGTK):
            webkit.quit_driver(driver)  # the browser, then its Xvfb (by its pid)
        else:
            driver.quit()  # ends chromedriver (by its pid) and the browser it started
    except Exception:  # noqa: BLE001 - a dead browser must not hide the test result
        pass


@pytest.fixture(scope="module")
def browsers(server):
    pool = BrowserPool(server)
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture()
def browsers_for():
    """Browser pools for servers a test starts itself (closed when the test ends)."""
    pools: list[BrowserPool] = []

    def make(srv: Server) -> BrowserPool:
        pool = BrowserPool(srv)
        pools.append(pool)
        return pool

    try:
        yield make
    finally:
        for pool in pools:
            pool.close()


@pytest.fixture(scope="session", autouse=True)
def _webkit_displays():
    """Stops any Xvfb of a WebKitGTK browser still running at the end, and removes the
    files of the WebKitGTK browsers (GTK style sheet, compiled locales)."""
    try:
        yield
    finally:
        webkit.stop_displays()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
