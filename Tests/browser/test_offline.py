# SPDX-License-Identifier: Apache-2.0
"""Offline, as an installed app should be: the service worker
registers with the base path as its scope, keeps the last page of each visited tab and
shows it offline with a notice saying as of when, sends taps to kept pages, shows the
offline page (with the bar) for a tab never opened, never shows one visitor's pages to
another, updates itself when an asset changes, and is gone when the setting is off.

"Offline" is the server stopped (every request is refused, as with no network) with
Chromium's network emulation set offline too; "online again" is the server started on
the same port, so the browser sees the same origin and the same worker registration.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import ROOT, BrowserPool, Server, _free_port, server_binary

# The worker, once the page is controlled by it: its scope and script.
_CONTROLLED = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((registration) => {
  const check = () => navigator.serviceWorker.controller
    ? done({scope: registration.scope, script: navigator.serviceWorker.controller.scriptURL,
            waiting: !!registration.waiting})
    : setTimeout(check, 50);
  check();
}).catch((error) => done({error: String(error)}));
"""

# What the worker keeps: its caches, and the pages (paths) kept in the visitor's cache.
_CACHES = """
const done = arguments[arguments.length - 1];
(async () => {
  const names = await caches.keys();
  const pages = {};
  for (const name of names.filter((n) => n.startsWith("tabserver-pages-"))) {
    // Gone since the list was read (the worker moved to another visitor): opening it would
    // make it anew.
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    pages[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
  }
  return {names, pages};
})().then(done, (error) => done({error: String(error)}));
"""

_REGISTRATIONS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.getRegistrations().then((all) => done(all.map((r) => r.scope)),
  (error) => done({error: String(error)}));
"""


class FixedPortServer(Server):
    """A server that comes back on the same port (the same origin) after a stop."""

    def __init__(self, *extra_args: str, port: int | None = None):
        super().__init__(server_binary(), extra_args)
        self.port = port or _free_port()

    def start(self) -> None:
        self.process = None
        self.base_url = f"http://127.0.0.1:{self.port}"
        import subprocess

        self.process = subprocess.Popen(
            [str(self.binary), "--host", "127.0.0.1", "--port", str(self.port),
             "--sessions", "memory", "--access-log", "off", *self.extra_args],
            cwd=self.cwd, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
        )
        from conftest import _healthy

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if _healthy(self.base_url + "/healthz"):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"the server did not become healthy:\n{self.output()}")

    def restart(self, *extra_args: str) -> None:
        self.stop()
        if extra_args:
            self.extra_args = extra_args
        self.start()


@pytest.fixture()
def app_server(seven_tabs_file):
    srv = FixedPortServer("--tabs", str(seven_tabs_file))
    srv.start()
    yield srv
    srv.stop()
    srv.log.close()


@pytest.fixture()
def pool(app_server):
    pool = BrowserPool(app_server)
    yield pool
    pool.close()


def _controlled(browser) -> dict:
    result = browser.driver.execute_async_script(_CONTROLLED)
    assert "error" not in result, result
    return result


def _caches(browser) -> dict:
    result = browser.driver.execute_async_script(_CACHES)
    assert "error" not in result, result
    return result


def _kept_pages(browser) -> list[str]:
    # An empty cache keeps no one's pages (the test's own read can make one anew in the
    # instant the worker deletes it).
    pages = {name: kept for name, kept in _caches(browser)["pages"].items() if kept}
    assert len(pages) <= 1, f"pages of more than one visitor are kept: {pages}"
    return next(iter(pages.values()), [])


def _wait_kept(browser, *paths: str) -> None:
    browser.wait(lambda: set(paths) <= set(_kept_pages(browser)), f"the worker kept {paths}")


def _offline(browser, server: Server) -> None:
    server.stop()
    browser.driver.execute_cdp_cmd("Network.enable", {})
    browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
    })


def _online(browser, server: FixedPortServer, *extra_args: str) -> None:
    browser.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1,
    })
    server.restart(*extra_args)


def _notice(browser) -> str | None:
    return browser.run("const n = document.querySelector('main .offline-notice'); "
                       "return n ? n.textContent.trim() : null;")


def _visit_by_taps(browser, tabs: list[str]) -> dict[str, str]:
    """Opens each tab with a tap in the bar; the heading each one showed."""
    headings = {}
    browser.get("/tabs/featured")
    _controlled(browser)
    headings["featured"] = browser.snapshot()["h1"]
    for tab in tabs:
        browser.tap_tab(tab)
        headings[tab] = browser.wait_at(f"/tabs/{tab}", tab=tab)["h1"]
    return headings


def test_the_worker_registers_with_the_app_as_scope(pool, app_server):
    browser = pool.open("desktop")
    browser.get("/tabs/featured")
    worker = _controlled(browser)
    assert worker["scope"] == app_server.url("/")
    assert worker["script"] == app_server.url("/sw.js")
    names = _caches(browser)["names"]
    assert any(name.startswith("tabserver-shell-") for name in names), names


def test_the_worker_registers_with_the_base_path_as_scope(seven_tabs_file):
    server = FixedPortServer("--tabs", str(seven_tabs_file), "--base-path", "/app")
    server.start()
    pool = BrowserPool(server)
    try:
        browser = pool.open("desktop")
        browser.get("/app/tabs/featured")
        worker = _controlled(browser)
        assert worker["scope"] == server.url("/app/"), worker
        assert worker["script"] == server.url("/app/sw.js"), worker
        _wait_kept(browser, "/app/tabs/featured", "/app/offline")
    finally:
        pool.close()
        server.stop()
        server.log.close()


def test_offline_a_visited_tab_shows_its_kept_page_with_the_notice(pool, app_server):
    browser = pool.open("phone")
    headings = _visit_by_taps(browser, ["music", "movies"])
    _wait_kept(browser, "/tabs/featured", "/tabs/music", "/tabs/movies", "/offline")

    _offline(browser, app_server)
    # A reload of the tab on screen: its kept page, with the notice.
    browser.driver.refresh()
    snapshot = browser.wait_at("/tabs/movies", tab="movies", h1=headings["movies"])
    notice = _notice(browser)
    assert notice and notice.startswith("Offline — shown as of "), notice
    assert re.search(r"\d{1,2}:\d{2}", notice), f"no time in {notice!r}"
    assert snapshot["bar"] is not None

    # A tap on another visited tab: that tab's kept page, not an error.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music", h1=headings["music"])
    assert _notice(browser), "the kept page says it is offline"

    # A tap on a tab never opened here: the offline page, with the bar.
    browser.tap_tab("tv")
    browser.wait_for(lambda s: s["ready"] == "complete" and s["path"] == "/tabs/tv" and s["h1"] == "Offline",
                     "the offline page for a tab never opened")
    assert browser.snapshot()["bar"] is not None
    assert browser.driver.find_elements(By.CSS_SELECTOR, "main .offline-page")

    # Back to a kept tab from the offline page.
    browser.tap_tab("featured")
    browser.wait_at("/tabs/featured", tab="featured", h1=headings["featured"])
    # And a plain navigation (address bar) to a kept tab.
    browser.driver.get(browser.url("/tabs/music"))
    browser.wait_at("/tabs/music", tab="music", h1=headings["music"])
    assert _notice(browser)

    # axe finds nothing on a kept page shown offline.
    axe = Axe(browser.driver)
    axe.inject()
    assert axe.run()["violations"] == []
    _online(browser, app_server)


def test_offline_notice_is_in_the_visitors_language(pool, app_server):
    browser = pool.open("desktop", lang="de-DE,de")
    headings = _visit_by_taps(browser, ["music"])
    _wait_kept(browser, "/tabs/music", "/offline")
    _offline(browser, app_server)
    browser.driver.refresh()
    browser.wait_at("/tabs/music", tab="music", h1=headings["music"])
    notice = _notice(browser)
    assert notice and notice.startswith("Offline – Stand "), notice
    browser.tap_tab("tv")
    browser.wait_for(lambda s: s["path"] == "/tabs/tv" and s["h1"] == "Offline" and s["lang"] == "de",
                     "the German offline page")
    _online(browser, app_server)


def test_another_session_never_gets_the_first_sessions_pages(pool, app_server):
    browser = pool.open("desktop")
    _visit_by_taps(browser, ["music", "movies"])
    _wait_kept(browser, "/tabs/music", "/tabs/movies")
    first = _caches(browser)["pages"]

    # A new visitor in the same browser (the cookie is gone): their first page changes
    # the key, and the first visitor's pages are dropped before anything is kept.
    browser.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser.get("/tabs/featured")
    browser.wait(lambda: set(_caches(browser)["pages"]) - set(first), "a cache for the new visitor")
    pages = _caches(browser)["pages"]
    assert not set(pages) & set(first), f"the first visitor's cache is still there: {pages}"
    assert "/tabs/music" not in _kept_pages(browser)

    _offline(browser, app_server)
    browser.driver.get(browser.url("/tabs/music"))
    browser.wait_for(lambda s: s["ready"] == "complete" and s["path"] == "/tabs/music", "the offline answer")
    assert browser.snapshot()["h1"] == "Offline", "the first visitor's Music page was shown to another"
    _online(browser, app_server)


def test_the_worker_updates_after_an_asset_change(seven_tabs_file):
    public = Path(tempfile.mkdtemp(prefix="tabserver-public-")) / "Public"
    shutil.copytree(ROOT / "Public", public)
    server = FixedPortServer("--tabs", str(seven_tabs_file), "--public", str(public))
    server.start()
    pool = BrowserPool(server)
    try:
        browser = pool.open("desktop")
        browser.get("/tabs/featured")
        _controlled(browser)
        browser.wait(lambda: any(n.startswith("tabserver-shell-") for n in _caches(browser)["names"]),
                     "the shell was kept")
        old = [n for n in _caches(browser)["names"] if n.startswith("tabserver-shell-")]
        old_css = browser.run("return document.querySelector('link[rel=stylesheet]').href;")

        # A new stylesheet: its content hash changes, so the worker's bytes do.
        css = public / "css" / "app.css"
        css.write_text(css.read_text() + "\n.offline-update-test { color: red; }\n")
        server.restart()
        browser.driver.refresh()
        browser.wait_at("/tabs/featured")
        new_css = browser.run("return document.querySelector('link[rel=stylesheet]').href;")
        assert new_css != old_css

        def updated():
            names = [n for n in _caches(browser)["names"] if n.startswith("tabserver-shell-")]
            return names if names and not set(names) & set(old) else None

        browser.wait(updated, "the new worker replaced the old shell", timeout=60)
        worker = _controlled(browser)
        assert not worker["waiting"], "an old worker is stuck in control"
        # The new worker serves the new stylesheet from its shell.
        served = browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done(String(e)));
        """, new_css)
        assert ".offline-update-test" in served
        kept = browser.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            caches.match(arguments[0]).then((r) => done(!!r), () => done(false));
        """, new_css)
        assert kept, "the new stylesheet is in the new shell"
    finally:
        pool.close()
        server.stop()
        server.log.close()
        shutil.rmtree(public.parent, ignore_errors=True)


def test_the_setting_turns_the_worker_off(pool, app_server):
    browser = pool.open("desktop")
    browser.get("/tabs/featured")
    _controlled(browser)
    assert browser.driver.execute_async_script(_REGISTRATIONS)

    # Turned off: pages register nothing, and the worker an earlier visit left is removed
    # with everything it kept.
    app_server.restart("--tabs", app_server.extra_args[1], "--service-worker", "off")
    browser.driver.refresh()
    browser.wait_at("/tabs/featured")
    assert browser.run("return document.querySelector('script[data-worker]');") is None
    browser.wait(lambda: browser.driver.execute_async_script(_REGISTRATIONS) == [], "the worker is unregistered")
    browser.wait(lambda: not [n for n in _caches(browser)["names"] if n.startswith("tabserver-")],
                 "the worker's caches are gone")

    # A fresh visitor never gets one: the page's install script is told of no worker (the
    # only way one is registered), and once the page has loaded there is none.
    browser.reset()
    browser.get("/tabs/music")
    browser.wait(lambda: browser.run("return document.readyState;") == "complete", "the page loaded")
    assert browser.run("return document.querySelector('script[data-scope]') !== null;"), "the install script is there"
    assert browser.run("return document.querySelector('script[data-worker]');") is None
    assert browser.driver.execute_async_script(_REGISTRATIONS) == []


def test_without_javascript_nothing_changes(pool):
    """The worker is only an enhancement: without scripts the pages and taps work as before."""
    browser = pool.open("phone", js=False)
    browser.get("/tabs/featured")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
