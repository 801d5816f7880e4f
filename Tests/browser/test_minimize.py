# SPDX-License-Identifier: Apache-2.0
"""Minimize on scroll (iOS 26's tabBarMinimizeBehavior): the bar takes
its compact form while the page scrolls and comes back on scrolling back, near the top
and at the end; it never covers the content and never moves focus; reduced motion is
respected. With the script it follows the scroll's direction, without it CSS
(scroll-driven animations) follows the position."""

from __future__ import annotations

import json

import pytest
from axe_selenium_python import Axe

from conftest import TEST_TABS, BrowserPool, running_server
from support import BOTH_JS_MODES, EVERY_VIEWPORT
from test_accessibility import _report

# How much shorter the minimized bar is, per size (phone landscape's bar is already compact).
SHRINK = {"phone": 14, "landscape": 0, "tablet": 12, "desktop": 12}


def _pool(tmp_path_factory, name: str, appearance: dict):
    spec = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    spec["appearance"].update(appearance)
    spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    path = tmp_path_factory.mktemp("tabs") / f"{name}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return running_server("--tabs", str(path))


@pytest.fixture(scope="module")
def down(tmp_path_factory):
    with _pool(tmp_path_factory, "down", {"minimizeBehavior": "onScrollDown"}) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    """onScrollUp, with the floating top bar at 1024 px and wider (which never minimizes)."""
    with _pool(tmp_path_factory, "up", {"minimizeBehavior": "onScrollUp", "regularLayout": "topBar"}) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


_STATE = r"""
const nav = document.querySelector("nav.tab-bar");
const titles = [...nav.querySelectorAll(".tab-title")].filter((t) => t.closest(".tab").getBoundingClientRect().width > 0);
const rows = [...document.querySelectorAll("main .row")];
const last = rows[rows.length - 1];
const bar = nav.getBoundingClientRect();
const active = document.activeElement;
return {
  minimized: parseFloat(getComputedStyle(document.body).getPropertyValue("--bar-minimized")) || 0,
  barTop: bar.top, barHeight: bar.height,
  opacities: titles.map((t) => parseFloat(getComputedStyle(t).opacity)),
  titleWidth: Math.max(...titles.map((t) => t.getBoundingClientRect().width)),
  transition: getComputedStyle(nav.querySelector(".tab")).transitionDuration,
  lastBottom: last ? last.getBoundingClientRect().bottom : null,
  scrollY, end: document.documentElement.scrollHeight - innerHeight,
  active: active ? (active.id || active.tagName + "." + active.className) : null,
};
"""


def _state(browser) -> dict:
    return browser.run(_STATE)


def _long_page(browser, path: str = "/tabs/music") -> dict:
    """The page, made tall enough to scroll at every size (room above its content, so
    its last rows stay the end of the page), scrolled to the top."""
    browser.get(path)
    browser.run("""
        const room = document.createElement("div");
        room.style.height = "2400px";
        room.setAttribute("aria-hidden", "true");
        document.querySelector("main .page-content").prepend(room);
        window.scrollTo(0, 0);
    """)
    browser.wait(lambda: _state(browser)["scrollY"] == 0 and _state(browser)["minimized"] == 0, "not at the top")
    return _state(browser)


def _scroll(browser, y: float | str) -> None:
    browser.run("window.scrollTo(0, arguments[0] === 'end' ? document.documentElement.scrollHeight : arguments[0]);", y)


def _after_next_frame(browser) -> None:
    """Returns once the page has drawn two more frames: the scroll events of what was
    scrolled before are handled by then (they are dispatched before a frame's
    animation callbacks), so the script has seen the position."""
    browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(done));")


def _wait_minimized(browser, full: dict, shrink: int) -> dict:
    def done():
        s = _state(browser)
        return s if (s["minimized"] == 1 and max(s["opacities"]) == 0 and s["titleWidth"] <= 4
                     and abs(s["barHeight"] - (full["barHeight"] - shrink)) <= 1) else None
    return browser.wait(done, "the bar did not take its compact form")


def _wait_whole(browser, full: dict) -> dict:
    def done():
        s = _state(browser)
        return s if (s["minimized"] == 0 and min(s["opacities"]) == 1
                     and abs(s["barHeight"] - full["barHeight"]) <= 1) else None
    return browser.wait(done, "the bar did not come back whole")


@EVERY_VIEWPORT
@BOTH_JS_MODES
@pytest.mark.webkit
def test_the_bar_minimizes_while_scrolling_down_and_comes_back(down, viewport, js):
    browser = down.open(viewport, js=js)
    full = _long_page(browser)
    assert browser.snapshot()["jsClass"] == js
    focused = full["active"]
    _scroll(browser, 900)
    small = _wait_minimized(browser, full, SHRINK[viewport])
    # Still at the bottom edge, every item still there and tappable.
    assert abs(small["barTop"] + small["barHeight"] - browser.snapshot()["innerHeight"]) <= 1
    assert all(item["visible"] for item in browser.snapshot()["items"][:4])
    if js:
        # Scrolling back up a little brings it back (the script follows the direction).
        _scroll(browser, 700)
        _wait_whole(browser, full)
        _scroll(browser, 1100)
        _wait_minimized(browser, full, SHRINK[viewport])
    else:
        # CSS follows the position: whole again near the top.
        _scroll(browser, 10)
        _wait_whole(browser, full)
        _scroll(browser, 900)
        _wait_minimized(browser, full, SHRINK[viewport])
    # At the end of the page it is whole, and the last row sits above it.
    _scroll(browser, "end")
    end = _wait_whole(browser, full)
    assert end["scrollY"] >= end["end"] - 1
    assert end["lastBottom"] <= end["barTop"] + 0.5, end
    assert end["active"] == focused, "scrolling moved focus"


@pytest.mark.parametrize("lang", ["ar"], ids=["rtl"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_minimizing_in_right_to_left(down, js, lang):
    browser = down.open("phone", js=js, lang=lang)
    full = _long_page(browser)
    assert browser.snapshot()["dir"] == "rtl"
    _scroll(browser, 900)
    _wait_minimized(browser, full, SHRINK["phone"])
    lefts = [item["rect"]["left"] for item in browser.snapshot()["items"] if item["visible"]]
    assert lefts == sorted(lefts, reverse=True), "the bar stays mirrored"
    _scroll(browser, "end")
    _wait_whole(browser, full)


def test_on_scroll_up_minimizes_while_scrolling_up(up):
    browser = up.open("phone")
    full = _long_page(browser)
    _scroll(browser, 900)
    browser.wait(lambda: _state(browser)["scrollY"] == 900, "did not scroll")
    # The script must see 900 before the scroll back up, or it sees one move from 0 to 600.
    _after_next_frame(browser)
    assert _state(browser)["minimized"] == 0, "scrolling down keeps the bar whole"
    _scroll(browser, 600)
    _wait_minimized(browser, full, SHRINK["phone"])
    _scroll(browser, 800)
    _wait_whole(browser, full)


def test_the_floating_top_bar_never_minimizes(up):
    browser = up.open("desktop")
    full = _long_page(browser)
    for y in (900, 600, 300):
        _scroll(browser, y)
        browser.wait(lambda: _state(browser)["scrollY"] == y, "did not scroll")
        seen = _state(browser)
        assert seen["minimized"] == 0 and seen["barHeight"] == full["barHeight"], seen


@BOTH_JS_MODES
def test_reduced_motion(down, js):
    browser = down.open("phone", js=js)
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
        {"name": "prefers-color-scheme", "value": "light"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        full = _long_page(browser)
        _scroll(browser, 900)
        if js:
            # The script's switch, at once: no transition.
            small = _wait_minimized(browser, full, SHRINK["phone"])
            assert small["transition"] in ("0s", "0s, 0s"), small
        else:
            # No scroll-linked change without the script: no scroll-driven animation at all.
            browser.wait(lambda: _state(browser)["scrollY"] == 900, "did not scroll")
            assert browser.run("return getComputedStyle(document.body).animationName;") == "none"
            assert _state(browser)["minimized"] == 0
    finally:
        browser.color_scheme("light")


def test_focus_in_the_bar_keeps_it_whole(down):
    browser = down.open("tablet")
    full = _long_page(browser)
    _scroll(browser, 900)
    _wait_minimized(browser, full, SHRINK["tablet"])
    browser.run("document.querySelector('nav.tab-bar button[value=movies]').focus();")
    assert browser.run("return document.activeElement.matches(':focus-visible');")
    _wait_whole(browser, full)
    assert browser.run("return document.activeElement.value;") == "movies", "focus stayed where it was put"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_minimized_bar_has_no_axe_violations(down, scheme):
    browser = down.open("phone")
    browser.color_scheme(scheme)
    full = _long_page(browser)
    _scroll(browser, 900)
    _wait_minimized(browser, full, SHRINK["phone"])
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
