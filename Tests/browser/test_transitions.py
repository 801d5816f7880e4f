# SPDX-License-Identifier: Apache-2.0
"""Transitions with a direction: a push slides the page in from the trailing edge, a pop
(Back, or the back link) slides it back, mirrored in right-to-left; a tab switch swaps
without a transition; the header, the bar and the strip above it keep names of their own
and do not move; nothing moves under reduced motion. With JavaScript off the same names
make a cross-document transition keep the chrome in place.

The script's transitions are recorded by wrapping `document.startViewTransition`: the
types each was started with, and the animations running once it is ready (which
pseudo-element, which keyframes)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

_RECORD = """
window.__transitions = [];
const start = document.startViewTransition && document.startViewTransition.bind(document);
if (!start) return false;
document.startViewTransition = (argument) => {
  const transition = start(argument);
  const entry = { types: transition.types ? [...transition.types] : null, animations: [], active: {} };
  window.__transitions.push(entry);
  transition.ready.then(() => {
    for (const type of ["push", "pop", "switch"]) {
      try { entry.active[type] = document.documentElement.matches(`:active-view-transition-type(${type})`); }
      catch { entry.active[type] = null; }
    }
    entry.animations = document.getAnimations()
      .filter((a) => a.effect && a.effect.pseudoElement)
      .map((a) => `${a.effect.pseudoElement} ${a.animationName}`);
  }).catch(() => { entry.skipped = true; });
  return transition;
};
return true;
"""


def _types_or_skip(browser) -> None:
    """Skips where the engine has no view transition types (WebKitGTK before 2.48)."""
    browser.get("/tabs/music")
    if not browser.run("return !!(window.ViewTransition && 'types' in ViewTransition.prototype)"):
        pytest.skip("no view transition types in this engine")


def _record(browser) -> None:
    assert browser.run(_RECORD), "no document.startViewTransition in this browser"


def _transitions(browser) -> list:
    return browser.run("return window.__transitions || [];")


def _wait_ready(browser, count: int) -> list:
    browser.wait(lambda: len(_transitions(browser)) >= count and (
        _transitions(browser)[count - 1]["animations"] or _transitions(browser)[count - 1].get("skipped")),
        "the transition did not start")
    return _transitions(browser)


def _open_album(browser) -> None:
    browser.tap_css('main a[href="/tabs/music/albums/1"]')
    browser.wait(lambda: browser.path() == "/tabs/music/albums/1", "the album did not open")


@pytest.mark.parametrize("lang,suffix", [("en-US,en", ""), ("ar", "-rtl")], ids=["ltr", "rtl"])
@pytest.mark.webkit
def test_a_push_slides_in_from_the_trailing_edge_and_back_slides_it_out(browsers, lang, suffix):
    browser = browsers.open("phone", lang=lang)
    _types_or_skip(browser)
    browser.get("/tabs/music")
    _record(browser)
    _open_album(browser)
    push = _wait_ready(browser, 1)[0]
    assert push["types"] == ["push"]
    assert push["active"]["push"] is True and push["active"]["pop"] is False
    assert f"::view-transition-new(page) tabserver-in-from-trailing{suffix}" in push["animations"]
    assert f"::view-transition-old(page) tabserver-out-to-leading{suffix}" in push["animations"]
    # The chrome stays put: nothing animates the header, the bar or their snapshots.
    moving = [a for a in push["animations"] if "app-header" in a or "tab-bar" in a]
    assert moving == [], moving
    browser.driver.back()
    browser.wait(lambda: browser.path() == "/tabs/music", "Back did not return to the list")
    pop = _wait_ready(browser, 2)[1]
    assert pop["types"] == ["pop"]
    assert f"::view-transition-old(page) tabserver-out-to-trailing{suffix}" in pop["animations"]
    assert browser.run("return document.documentElement.dataset.lastTransition") == "pop"


@pytest.mark.webkit
def test_the_back_link_pops_and_a_tab_switch_does_not_slide(browsers):
    browser = browsers.open("phone")
    _types_or_skip(browser)
    browser.get("/tabs/music/albums/1")
    _record(browser)
    browser.tap_css("header .back-link")
    browser.wait(lambda: browser.path() == "/tabs/music", "the back link did not go up")
    assert _wait_ready(browser, 1)[0]["types"] == ["pop"]
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")
    assert len(_transitions(browser)) == 1, "a tab switch started a transition"
    assert browser.run("return document.documentElement.dataset.lastTransition") == "switch"


@pytest.mark.webkit
def test_mores_rows_push(browsers):
    browser = browsers.open("phone")
    _types_or_skip(browser)
    browser.get("/more")
    _record(browser)
    row = browser.driver.find_element(By.CSS_SELECTOR, "main button.row[name=tab]")
    browser.tap(row)
    browser.wait(lambda: browser.path().startswith("/tabs/"), "the row did not open its tab")
    assert _wait_ready(browser, 1)[0]["types"] == ["push"]
    # A bar item tapped on More's list is a tab switch: nothing slides.
    browser.get("/more")
    _record(browser)
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    assert _transitions(browser) == [], "a tab switch from More's list started a transition"
    assert browser.run("return document.documentElement.dataset.lastTransition") == "switch"


def test_nothing_moves_under_reduced_motion(browsers):
    browser = browsers.open("phone")
    browser.chromium_only("emulated media features")
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "", "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.get("/tabs/music")
        _record(browser)
        _open_album(browser)
        assert browser.run("return document.documentElement.dataset.lastTransition") == "push"
        assert _transitions(browser) == []
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.webkit
def test_the_chrome_has_names_of_its_own(browsers, js):
    browser = browsers.open("phone", js=js)
    browser.get("/tabs/music")
    names = browser.run("""
      const name = (selector) => {
        const element = document.querySelector(selector);
        return element ? getComputedStyle(element).viewTransitionName : null;
      };
      return { header: name(".app-header"), bar: name("nav.tab-bar"), page: name("main") };""")
    if names["bar"] is None or names["bar"] == "":
        pytest.skip("this engine has no view-transition-name")
    # Without the script the content's name says which page it is (the tab and depth).
    assert names == {"header": "app-header", "bar": "tab-bar", "page": "page" if js else "page-tab-music-2"}


# Without the script: the browser's own transition between documents, styled by the new
# page's rules on the old page's name. CDP slows animations down (to a tenth) so the
# transition is still running when the test looks, then ends it.
_RUNNING = """
const transition = document.activeViewTransition;
if (!transition) return null;
return document.getAnimations()
  .filter((a) => a.effect && a.effect.pseudoElement && a.effect.pseudoElement.startsWith("::view-transition-old") && !a.effect.pseudoElement.includes("(root)"))
  .map((a) => `${a.effect.pseudoElement} ${a.animationName}`);
"""


def _slowed(browser) -> None:
    browser.chromium_only("cross-document view transitions with CDP")
    browser.driver.execute_cdp_cmd("Animation.enable", {})
    browser.driver.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": 0.1})


def _exits(browser, path: str) -> list:
    """What slides out as the browser arrives at `path` (None: no transition ran)."""
    browser.wait(lambda: browser.path() == path, f"the browser did not arrive at {path}")
    running = browser.run(_RUNNING)
    browser.run("document.activeViewTransition && document.activeViewTransition.skipTransition();")
    browser.wait(lambda: browser.run("return !document.activeViewTransition"), "the transition did not end")
    return running


@pytest.mark.parametrize("lang,suffix", [("en-US,en", ""), ("ar", "-rtl")], ids=["ltr", "rtl"])
def test_without_the_script_a_push_and_back_slide_the_old_page_the_right_way(browsers, lang, suffix):
    browser = browsers.open("phone", js=False, lang=lang)
    _slowed(browser)
    try:
        browser.get("/tabs/music")
        browser.tap_css('main a[href="/tabs/music/albums/1"]')
        assert _exits(browser, "/tabs/music/albums/1") == [
            f"::view-transition-old(page-tab-music-2) tabserver-exit-to-leading{suffix}"]
        # Back brings the list out of the back/forward cache with the rules it was
        # rendered with: they still tell a page coming back up from a deeper one.
        browser.driver.back()
        assert _exits(browser, "/tabs/music") == [
            f"::view-transition-old(page-tab-music-4) tabserver-exit-to-trailing{suffix}"]
    finally:
        browser.driver.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": 1})


def test_without_the_script_a_tab_switch_swaps_and_mores_rows_push(browsers):
    browser = browsers.open("phone", js=False)
    _slowed(browser)
    try:
        browser.get("/tabs/music/albums/1")
        browser.tap_tab("movies")
        exits = _exits(browser, "/tabs/movies")
        assert exits is not None, "no transition ran"
        assert [a for a in exits if "tabserver-exit" in a] == [], exits
        # More in the bar, and a bar item on More's list, are tab switches too.
        browser.tap_more()
        exits = _exits(browser, "/more")
        assert exits is not None and [a for a in exits if "tabserver-exit" in a] == [], exits
        browser.tap_tab("music")  # where Music was left
        exits = _exits(browser, "/tabs/music/albums/1")
        assert exits is not None and [a for a in exits if "tabserver-exit" in a] == [], exits
        browser.get("/more")
        browser.tap(browser.driver.find_element(By.CSS_SELECTOR, "main button.row[name=tab]"))
        browser.wait(lambda: browser.path().startswith("/tabs/"), "the row did not open its tab")
        opened = browser.path()
        assert _exits(browser, opened) == ["::view-transition-old(page-more-1) tabserver-exit-to-leading"]
        # A tab opened from More leads back to it: a pop, whichever tab it was.
        browser.tap_css("header .back-link.back-to-more")
        exits = _exits(browser, "/more")
        assert exits == [f"::view-transition-old(page-tab-{opened.split('/')[2]}-2) tabserver-exit-to-trailing"]
    finally:
        browser.driver.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": 1})


def test_without_the_script_nothing_moves_under_reduced_motion(browsers):
    browser = browsers.open("phone", js=False)
    _slowed(browser)
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "", "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        browser.get("/tabs/music")
        browser.tap_css('main a[href="/tabs/music/albums/1"]')
        assert _exits(browser, "/tabs/music/albums/1") is None, "a transition ran under reduced motion"
        browser.get("/more")
        browser.tap(browser.driver.find_element(By.CSS_SELECTOR, "main button.row[name=tab]"))
        browser.wait(lambda: browser.path().startswith("/tabs/"), "the row did not open its tab")
        assert _exits(browser, browser.path()) is None, "a transition ran under reduced motion"
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
        browser.driver.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": 1})
