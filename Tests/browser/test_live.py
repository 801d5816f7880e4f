# SPDX-License-Identifier: Apache-2.0
"""Live updates: a page open in Chromium shows a badge change within a second of a
SIGHUP reload of the tab file, without navigating, and says it for screen readers."""

from __future__ import annotations

import json
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest

from conftest import running_server


@pytest.fixture()
def reloadable_server(seven_tabs_file):
    folder = Path(tempfile.mkdtemp(prefix="tabserver-live-"))
    tabs = folder / "tabs.json"
    shutil.copy(seven_tabs_file, tabs)
    with running_server("--tabs", str(tabs)) as srv:
        yield srv, tabs
    shutil.rmtree(folder, ignore_errors=True)


def _badge_text(browser, tab_id: str) -> str | None:
    return browser.run(
        "const b = Array.from(document.querySelectorAll('nav.tab-bar button[name=tab]'))"
        "  .find(x => x.value === arguments[0]);"
        "const badge = b && b.querySelector('.tab-badge');"
        "return badge ? badge.textContent : null;", tab_id)


def test_badge_changes_within_a_second_of_a_reload(reloadable_server, browsers_for):
    server, tabs = reloadable_server
    browser = browsers_for(server).open("phone")
    # A visitor in the default state has no session yet (and so nothing to follow):
    # opening another tab gives them one.
    browser.get("/tabs/music")
    token = browser.mark_document()
    # The stream is open once the page has subscribed.
    browser.wait(lambda: browser.run("return document.documentElement.dataset.live === 'open';"),
                 "the page subscribed to /events")
    assert _badge_text(browser, "movies") is None

    model = json.loads(tabs.read_text())
    for tab in model["tabs"]:
        if tab["id"] == "movies":
            tab["badge"] = {"text": "Live"}
    tabs.write_text(json.dumps(model))
    started = time.monotonic()
    server.process.send_signal(signal.SIGHUP)
    browser.wait(lambda: _badge_text(browser, "movies") == "Live", "the badge appeared", timeout=1.5)
    elapsed = time.monotonic() - started
    assert elapsed <= 1.0, f"badge shown after {elapsed:.2f} s"
    assert browser.document_marked(token), "no navigation happened"


def test_without_javascript_the_next_load_shows_the_state(reloadable_server, browsers_for):
    server, tabs = reloadable_server
    browser = browsers_for(server).open("desktop", js=False)
    browser.get("/tabs/featured")
    model = json.loads(tabs.read_text())
    for tab in model["tabs"]:
        if tab["id"] == "tv":
            tab["badge"] = {"count": 5}
    tabs.write_text(json.dumps(model))
    server.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        browser.get("/tabs/featured")
        if _badge_text(browser, "tv") == "5":
            break
        time.sleep(0.2)
    assert _badge_text(browser, "tv") == "5"


def test_a_badge_cleared_in_one_window_disappears_in_the_other(server, browsers):
    """Music's badge clears when the visitor opens Music (clearsBadgeOnSelect): their
    other window shows it gone within a second, without a reload."""
    browser = browsers.open("desktop")
    browser.get("/tabs/movies")  # a visit worth a session, so there is something to follow
    first = browser.driver.current_window_handle
    browser.wait(lambda: browser.run("return document.documentElement.dataset.live === 'open';"),
                 "the first window subscribed to /events")
    assert _badge_text(browser, "music") == "3"
    token = browser.mark_document()

    browser.driver.switch_to.new_window("tab")
    browser.get("/tabs/movies")
    browser.tap_tab("music")
    browser.wait(lambda: browser.path() == "/tabs/music", "the second window opened Music")
    started = time.monotonic()
    browser.driver.close()
    browser.driver.switch_to.window(first)
    browser.wait(lambda: _badge_text(browser, "music") is None, "the badge is gone in the first window",
                 timeout=1.5)
    assert time.monotonic() - started <= 1.5
    assert browser.document_marked(token), "no navigation happened"
