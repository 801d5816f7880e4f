# SPDX-License-Identifier: Apache-2.0
"""Material 3 on an Android phone (Chrome's User-Agent and client hints, 412 x 915 at
2.625x): the server draws Material's navigation bar (body.platform-material, material.css,
neither floating-bar.css nor the scrub script), edge to edge at the bottom, opaque, every
label shown, the active indicator (a pill) behind the selected item's icon; no axe
violations on a tab page, More and Edit; Back from another tab's root goes to the first
tab, then out of the app (an iPhone's Back still leaves from any tab's root); badge counts
above 999 read "999+"; iOS 27's prominent tab is an ordinary destination. With the script
and without, light and dark, both directions. Screenshots for the docs on request."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from urllib.parse import urlparse

import pytest
from axe_selenium_python import Axe
from selenium.common.exceptions import TimeoutException

from conftest import ROOT, changed_tabs_file, running_server
from floating import rgba
from support import ANDROID, BOTH_JS_MODES, COMPACT_BAR, SIZES
from test_accessibility import _BAR_CONTRAST, _report

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
SCHEMES = pytest.mark.parametrize("scheme", ["light", "dark"])
# Body classes of the iOS bars: none of them on a Material page.
IOS_CLASSES = ("bar-floating", "minimizes-bar", "minimize-on-scroll-down", "minimize-on-scroll-up",
               "titles-below", "titles-beside", "has-selection-indicator", "has-scroll-edge", "regular-top-bar")

# The bar as drawn: its box and look, each item shown with its label, and the pill
# (the selected item's ::before) with the icon it lies behind. Insets of a positioned
# pseudo-element resolve to pixels, so its box is the item's plus its top and left.
_BAR = r"""
const nav = document.querySelector("nav.tab-bar");
const shown = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.display !== "none" && s.visibility !== "hidden"; };
const clipped = (e) => e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5;
const style = getComputedStyle(nav);
const pill = (tab) => {
  const b = tab.getBoundingClientRect(), s = getComputedStyle(tab, "::before");
  const left = b.left + parseFloat(s.left), top = b.top + parseFloat(s.top);
  const width = parseFloat(s.width), height = parseFloat(s.height);
  return {left, top, width, height, cx: left + width / 2, cy: top + height / 2, content: s.content,
          opacity: parseFloat(s.opacity), transform: s.transform, background: s.backgroundColor};
};
const items = [...nav.querySelectorAll(".tab-items > .tab-item > .tab")].filter(shown).map((tab) => {
  const title = tab.querySelector(".tab-title"), t = title.getBoundingClientRect(), ts = getComputedStyle(title);
  const icon = tab.querySelector(".tab-icon").getBoundingClientRect();
  return {
    id: tab.name === "more" ? "more" : tab.value, current: tab.getAttribute("aria-current"),
    rect: tab.getBoundingClientRect().toJSON(), icon: {...icon.toJSON(), cx: icon.left + icon.width / 2,
    cy: icon.top + icon.height / 2}, pill: pill(tab),
    title: {text: title.textContent.trim(), rect: t.toJSON(), opacity: parseFloat(ts.opacity),
            visibility: ts.visibility, clipped: clipped(title)},
  };
});
const sheets = [...document.querySelectorAll("link[rel~=stylesheet]")].map((l) => l.getAttribute("href"));
const scripts = [...document.querySelectorAll("script[src]")].map((s) => s.getAttribute("src"));
return {
  innerWidth, innerHeight, dir: document.documentElement.dir, body: [...document.body.classList],
  bar: nav.getBoundingClientRect().toJSON(), backdrop: style.backdropFilter, webkitBackdrop: style.webkitBackdropFilter,
  radius: style.borderTopLeftRadius, borderTop: style.borderTopWidth, background: style.backgroundColor,
  items, sheets, scripts, platform: navigator.userAgentData ? navigator.userAgentData.platform : null,
};
"""

# Whether the animations that run in time (not the scroll-driven ones) have ended and the
# fonts are in: a screenshot then shows the page at rest.
_AT_REST = r"""
return document.fonts.status === "loaded" && document.getAnimations().every(
  (a) => !(a.timeline instanceof DocumentTimeline) || a.playState !== "running");
"""


def _emulate(browser, scheme: str) -> None:
    browser.color_scheme(scheme)
    assert browser.run("return matchMedia(arguments[0]).matches;", f"(prefers-color-scheme: {scheme})")


def _bar(browser) -> dict:
    """The bar once the pill has grown in (it eases in after a tap)."""
    last = {}

    def settled():
        nonlocal last
        last = browser.run(_BAR)
        selected = [item for item in last["items"] if item["current"] == "page"]
        return last if selected and selected[0]["pill"]["opacity"] == 1 and selected[0]["pill"]["transform"] in (
            "none", "matrix(1, 0, 0, 1, 0, 0)") else None

    try:
        return browser.wait(settled, "the selected item's pill did not settle")
    except TimeoutException as error:
        raise AssertionError(f"the selected item's pill did not settle: {last}") from error


@BOTH_JS_MODES
@SCHEMES
@LANGS
def test_the_bar_is_materials_edge_to_edge_with_labels_and_a_pill(browsers, js, scheme, lang):
    browser = browsers.open(ANDROID, js=js, lang=lang)
    _emulate(browser, scheme)
    browser.get("/tabs/movies")
    browser.wait_at("/tabs/movies", tab="movies")
    g = _bar(browser)
    assert g["platform"] == "Android", "the browser does not present itself as Android"
    assert (g["innerWidth"], g["innerHeight"]) == SIZES[ANDROID], g
    assert g["dir"] == ("rtl" if lang == "ar" else "ltr"), g
    # Material's page: its class and style sheet, nothing of the iOS bars.
    assert "platform-material" in g["body"], g["body"]
    assert not set(IOS_CLASSES) & set(g["body"]), g["body"]
    assert any("/css/material.css" in sheet for sheet in g["sheets"]), g["sheets"]
    assert not any("floating-bar" in sheet for sheet in g["sheets"]), g["sheets"]
    assert not any("tab-scrub" in script for script in g["scripts"]), g["scripts"]
    # Edge to edge at the bottom: no inset at either side or below, 64 px (no safe area
    # here), square, opaque.
    bar = g["bar"]
    assert abs(bar["left"]) <= 0.5 and abs(bar["right"] - g["innerWidth"]) <= 0.5, bar
    assert abs(bar["bottom"] - g["innerHeight"]) <= 0.5 and abs(bar["height"] - 64) <= 0.5, bar
    assert g["backdrop"] == "none" and g["webkitBackdrop"] in ("none", None, ""), g
    assert g["radius"] == "0px" and g["borderTop"] == "0px", g
    assert rgba(browser, g["background"])[3] == 1, g["background"]
    # 4 + More, in the page's direction, each label whole and visible inside its item.
    items = g["items"]
    ids = [item["id"] for item in items]
    assert ids == COMPACT_BAR + ["more"], ids
    lefts = [item["rect"]["left"] for item in items]
    assert lefts == sorted(lefts, reverse=(lang == "ar")), items
    for item in items:
        title, rect = item["title"], item["rect"]
        box = title["rect"]
        assert title["text"] and box["width"] > 0 and box["height"] > 0, item
        assert title["opacity"] == 1 and title["visibility"] == "visible" and not title["clipped"], item
        assert rect["left"] - 2.5 <= box["left"] and box["right"] <= rect["right"] + 2.5, item
        assert bar["top"] <= box["top"] and box["bottom"] <= bar["bottom"], item
    # The active indicator: a pill behind the selected icon, and behind no other.
    selected = [item for item in items if item["current"] == "page"]
    assert [item["id"] for item in selected] == ["movies"], items
    pill, icon = selected[0]["pill"], selected[0]["icon"]
    assert 48 <= pill["width"] <= 80 and 24 <= pill["height"] <= 40, pill
    assert abs(pill["cx"] - icon["cx"]) <= 2 and abs(pill["cy"] - icon["cy"]) <= 2, (pill, icon)
    assert pill["width"] > icon["width"] and pill["height"] > icon["height"], (pill, icon)
    others = [item["id"] for item in items if item["current"] != "page" and item["pill"]["opacity"] > 0]
    assert others == [], f"a pill behind unselected items: {others}"


@pytest.mark.parametrize("page", ["/tabs/music", "/more", "/more/edit"])
@SCHEMES
def test_no_axe_violations(browsers, page, scheme):
    browser = browsers.open(ANDROID)
    _emulate(browser, scheme)
    browser.get(page)
    assert "platform-material" in browser.run("return document.body.className;")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, f"{page} ({scheme}):\n{_report(violations)}"
    # The bar's labels over the bar (axe skips what it cannot see through).
    low = [label for label in browser.run(_BAR_CONTRAST) if label["ratio"] < 4.5]
    assert not low, f"{page} ({scheme}): labels below 4.5:1: {low}"


def _entries(browser) -> list[str]:
    """The paths of this window's history entries of the server's origin (Navigation API)."""
    return browser.run("return navigation.entries().map((e) => new URL(e.url).pathname);")


def _switch_to_movies(browser) -> None:
    """From a page outside the app (/healthz), Featured, then a tap on Movies."""
    browser.driver.get(browser.url("/healthz"))
    browser.get("/tabs/featured")
    browser.wait(lambda: browser.run("return document.documentElement.classList.contains('js');"),
                 "the script did not start")
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")


def _left_the_app(browser) -> None:
    browser.wait(lambda: urlparse(browser.driver.current_url).path == "/healthz",
                 "Back did not leave the app for the page before it (/healthz)")


def test_back_from_another_tab_goes_to_the_first_then_leaves(browsers):
    browser = browsers.open(ANDROID)
    _switch_to_movies(browser)
    # History holds the first tab before Movies, as Android's back stack does.
    browser.wait(lambda: _entries(browser)[-3:] == ["/healthz", "/tabs/featured", "/tabs/movies"],
                 "history does not hold Featured before Movies")
    browser.driver.back()
    browser.wait_for(lambda s: s["ready"] == "complete" and s["path"] == "/tabs/featured" and s["h1"] == "Featured",
                     "Back from Movies did not show Featured")
    assert "platform-material" in browser.run("return document.body.className;")
    # The bar says so too (not the selection of the page Back left).
    browser.wait_at("/tabs/featured", tab="featured")
    # From the first tab's root, Back leaves the app.
    browser.driver.back()
    _left_the_app(browser)


def test_back_on_an_iphone_still_leaves_from_any_tab(browsers):
    browser = browsers.open("phone")
    _switch_to_movies(browser)
    assert "platform-material" not in browser.run("return document.body.className;")
    # The switch replaced Featured's entry: nothing of the app is left behind Movies.
    browser.wait(lambda: _entries(browser)[-2:] == ["/healthz", "/tabs/movies"],
                 "the tab switch did not replace the history entry")
    browser.driver.back()
    _left_the_app(browser)


def _large_count(spec: dict) -> None:
    spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    next(tab for tab in spec["tabs"] if tab["id"] == "music")["badge"] = {"count": 1500}


_BADGE = r"""
const badge = document.querySelector('nav.tab-bar button[value="music"] > .tab-badge');
const item = badge.closest(".tab").getBoundingClientRect(), b = badge.getBoundingClientRect();
return {text: badge.textContent.trim(), count: badge.dataset.count, rect: b.toJSON(), item: item.toJSON(),
        clipped: badge.scrollWidth > badge.clientWidth + 0.5};
"""


def test_a_count_above_999_reads_999_plus(browsers_for, tmp_path_factory):
    path = changed_tabs_file(tmp_path_factory, "count-1500", _large_count)
    with running_server("--tabs", str(path)) as srv:
        pool = browsers_for(srv)
        browser = pool.open(ANDROID)
        browser.get("/tabs/featured")
        badge = browser.run(_BADGE)
        assert (badge["text"], badge["count"]) == ("999+", "1500"), badge
        # Whole, and on its own item.
        rect, item = badge["rect"], badge["item"]
        assert rect["width"] > 0 and not badge["clipped"], badge
        assert item["left"] <= rect["left"] and rect["right"] <= item["right"] and item["top"] <= rect["top"], badge
        # An iPhone's bar keeps UIKit's "99+".
        iphone = pool.open("phone")
        iphone.get("/tabs/featured")
        assert iphone.run(_BADGE)["text"] == "99+"


def _prominent(spec: dict) -> None:
    spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    next(tab for tab in spec["tabs"] if tab["id"] == "purchased")["role"] = "prominent"


# The look of an item: what would set a destination apart.
_LOOK = r"""
return arguments[0].map((id) => {
  const tab = document.querySelector(`nav.tab-bar button[value="${id}"]`), s = getComputedStyle(tab);
  const title = getComputedStyle(tab.querySelector(".tab-title")), icon = tab.querySelector(".tab-icon");
  const before = getComputedStyle(tab, "::before"), r = tab.getBoundingClientRect();
  return {li: tab.parentElement.className, height: r.height, top: r.top, width: Math.round(r.width),
    color: s.color, background: s.backgroundColor, opacity: s.opacity, titleColor: title.color, font: title.font,
    icon: [icon.getBoundingClientRect().width, getComputedStyle(icon).backgroundColor], pill: before.opacity,
    border: s.borderTopWidth, shadow: s.boxShadow};
});
"""


def test_the_prominent_tab_is_an_ordinary_destination(browsers_for, tmp_path_factory):
    path = changed_tabs_file(tmp_path_factory, "prominent", _prominent)
    with running_server("--tabs", str(path)) as srv:
        browser = browsers_for(srv).open(ANDROID)
        browser.get("/tabs/featured")
        prominent, ordinary = browser.run(_LOOK, ["purchased", "movies"])
        assert "is-prominent" in prominent["li"], prominent
        assert prominent["height"] > 0, "the prominent tab is not in the bar"
        # Everything but the class is the same as another unselected item's.
        del prominent["li"], ordinary["li"]
        assert prominent == ordinary


@pytest.mark.skipif(os.environ.get("TABSERVER_SCREENSHOTS") != "1",
                    reason="writes docs/screenshot-android-phone{,-dark}.png only with TABSERVER_SCREENSHOTS=1")
def test_screenshots_for_the_docs(browsers_for, shipped_server):
    images = ROOT / "docs"
    pool = browsers_for(shipped_server)
    shots = [(ANDROID, "light", "screenshot-android-phone.png"), (ANDROID, "dark", "screenshot-android-phone-dark.png")]
    for viewport, scheme, name in shots:
        browser = pool.open(viewport)
        _emulate(browser, scheme)
        browser.get("/tabs/featured")
        browser.wait(lambda: browser.run(_AT_REST), "the page did not come to rest")
        _save(browser, images / name, *SIZES[viewport])


def _save(browser, path: Path, width: int, height: int) -> None:
    """The viewport at one pixel per CSS pixel (small enough for the docs)."""
    ratio = browser.run("return devicePixelRatio;")
    # Without the desktop scroll bars headless Chromium draws (a phone's are overlays).
    browser.driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
    try:
        shot = browser.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": {
            "x": 0, "y": 0, "width": width, "height": height, "scale": 1 / ratio}})
    finally:
        browser.driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": False})
    data = base64.b64decode(shot["data"])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 150_000, f"{path.name}: {len(data)} bytes"
    path.write_bytes(data)
