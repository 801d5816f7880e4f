# SPDX-License-Identifier: Apache-2.0
"""The bottom accessory (UIKit's UITabAccessory, SwiftUI's
.tabViewBottomAccessory): the demo's now-playing strip above the bar, from the content
provider and a template; it stays across tabs, its play/pause is a form post (swapped in
by the script), it sits inline while the bar is minimized, and pages that hide the bar
hide it too."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import changed_tabs_file, pool_on_tabs
from support import BOTH_JS_MODES, EVERY_VIEWPORT
from test_accessibility import _report
from test_minimize import SHRINK, _long_page, _scroll, _state, _wait_minimized, _wait_whole

_STRIP = r"""
const strip = document.querySelector("aside.tab-accessory");
const nav = document.querySelector("nav.tab-bar");
if (!strip) return {shown: false, bar: !!nav};
const r = strip.getBoundingClientRect();
const button = document.getElementById("now-playing-toggle");
const art = strip.querySelector(".now-playing-art").getBoundingClientRect();
const items = nav ? [...nav.querySelectorAll(".tab-item")].filter((li) => li.getBoundingClientRect().width > 0)
  .map((li) => li.getBoundingClientRect().toJSON()) : [];
return {
  shown: r.width > 0 && r.height > 0, rect: r.toJSON(), bar: nav ? nav.getBoundingClientRect().toJSON() : null,
  items, art: art.toJSON(), buttonRect: button.getBoundingClientRect().toJSON(),
  label: strip.getAttribute("aria-label"), button: button.getAttribute("aria-label"), value: button.value,
  title: strip.querySelector(".now-playing-title").textContent.trim(),
  focused: document.activeElement === button, innerWidth, innerHeight,
};
"""


def _strip(browser) -> dict:
    return browser.run(_STRIP)


def _start_playing(browser, album: str = "/tabs/music/albums/1") -> None:
    """Play on the album's full-screen player, then back to the album."""
    browser.get(album + "/play")
    assert not _strip(browser)["shown"], "nothing plays yet"
    browser.tap(browser.driver.find_element(By.ID, "player-play"))
    browser.wait(lambda: browser.run("return document.querySelector('main [role=status]') !== null;"),
                 "the player did not say it plays")
    assert browser.snapshot()["bar"] is None and not _strip(browser)["shown"], "a page without the bar has no strip"
    browser.get(album)


@EVERY_VIEWPORT
@BOTH_JS_MODES
@pytest.mark.webkit
def test_the_strip_stays_across_tabs_and_plays_and_pauses(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    _start_playing(browser)
    strip = _strip(browser)
    assert strip["shown"] and strip["label"] == "Now Playing" and strip["title"], strip
    assert strip["button"] == "Pause" and strip["value"] == "0"
    # Above the bar, clear of it, inside the screen, the button a full target.
    assert strip["rect"]["bottom"] <= strip["bar"]["top"] + 0.5, strip
    assert strip["rect"]["left"] >= 0 and strip["rect"]["right"] <= strip["innerWidth"]
    assert strip["buttonRect"]["width"] >= 44 and strip["buttonRect"]["height"] >= 44, strip
    # Across tabs, with and without the script.
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")
    assert _strip(browser)["shown"]
    mark = browser.mark_document()
    browser.tap(browser.driver.find_element(By.ID, "now-playing-toggle"))
    browser.wait(lambda: _strip(browser).get("button") == "Play" and browser.snapshot()["ready"] == "complete",
                 "play/pause did not switch")
    assert browser.path() == "/tabs/movies", "the strip's form comes back to the page it was on"
    if js:
        assert browser.document_marked(mark), "the script swapped the page in"
        assert _strip(browser)["focused"], "focus stays on play/pause"
    else:
        assert not browser.document_marked(mark)
    # Kept in the session: More, another load.
    browser.get("/more")
    assert _strip(browser)["button"] == "Play"
    # The last content stays above the strip at the end of the page.
    browser.get("/tabs/music")
    browser.run("window.scrollTo(0, document.documentElement.scrollHeight);")
    browser.wait(lambda: browser.run(
        "return Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;"), "not at the end")
    last = browser.run("const rows = document.querySelectorAll('main .row'); return rows[rows.length - 1].getBoundingClientRect().bottom;")
    assert last <= _strip(browser)["rect"]["top"] + 0.5, "the strip covers the last row"


@BOTH_JS_MODES
@pytest.mark.webkit
def test_the_strip_is_mirrored_in_arabic(browsers, js):
    browser = browsers.open("phone", js=js, lang="ar")
    _start_playing(browser)
    strip = _strip(browser)
    assert browser.snapshot()["dir"] == "rtl"
    # The artwork leads (on the right), play/pause trails (on the left).
    assert strip["art"]["left"] > strip["buttonRect"]["right"], strip


def test_a_page_without_the_bar_hides_the_strip_and_back_brings_it(browsers):
    browser = browsers.open("phone")
    _start_playing(browser)
    browser.tap(browser.driver.find_element(By.CSS_SELECTOR, "main .play-link"))
    browser.wait(lambda: browser.path().endswith("/play") and browser.snapshot()["ready"] == "complete", "no player")
    browser.wait(lambda: not _strip(browser)["shown"], "the strip stayed on a page without the bar")
    browser.tap(browser.driver.find_element(By.CSS_SELECTOR, ".app-header .back-link"))
    browser.wait(lambda: browser.path() == "/tabs/music/albums/1" and _strip(browser)["shown"], "Back lost the strip")


@pytest.fixture(scope="module")
def minimizing(tmp_path_factory):
    def change(spec):
        spec["appearance"]["minimizeBehavior"] = "onScrollDown"
        spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    with pool_on_tabs(changed_tabs_file(tmp_path_factory, "accessory-minimize", change)) as pool:
        yield pool


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet"])
@BOTH_JS_MODES
def test_the_strip_sits_inline_while_the_bar_is_minimized(minimizing, viewport, js):
    browser = minimizing.open(viewport, js=js)
    _start_playing(browser, "/tabs/music/albums/2")
    full = _long_page(browser)
    above = _strip(browser)
    _scroll(browser, 900)
    _wait_minimized(browser, full, SHRINK[viewport])
    browser.wait(lambda: _strip(browser)["rect"]["top"] >= _strip(browser)["bar"]["top"] - 0.5,
                 "the strip did not move into the bar's row")
    inline = _strip(browser)
    bar = inline["bar"]
    assert bar["top"] - 0.5 <= inline["rect"]["top"] and inline["rect"]["bottom"] <= bar["bottom"] + 0.5, inline
    assert inline["rect"]["height"] < above["rect"]["height"]
    # Beside the items, never over them.
    assert all(item["right"] <= inline["rect"]["left"] + 0.5 for item in inline["items"]), inline
    assert inline["buttonRect"]["height"] >= 24, "play/pause stays a target (WCAG 2.5.8)"
    # At the end of the page the bar is whole and the strip above it again.
    _scroll(browser, "end")
    _wait_whole(browser, full)
    browser.wait(lambda: _strip(browser)["rect"]["bottom"] <= _strip(browser)["bar"]["top"] + 0.5,
                 "the strip did not go back above the bar")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_strip_has_no_axe_violations(browsers, viewport, scheme):
    browser = browsers.open(viewport)
    browser.color_scheme(scheme)
    _start_playing(browser)
    assert _strip(browser)["shown"]
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
