# SPDX-License-Identifier: Apache-2.0
"""Appearance settings of tabs.json: exact light/dark tints, the selection
pill, scrollEdgeAppearance, shadowColor, itemWidth/itemSpacing, titlePosition and the
regular layouts (sidebar with tab groups, floating top bar), at every size."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By

from conftest import TEST_TABS, BrowserPool, running_server
from support import BOTH_JS_MODES, EVERY_VIEWPORT, DEFAULT_ORDER, PHONES, visible_ids

GROUPS = {"movies": "Watch", "tv": "Watch", "podcasts": "Listen", "audiobooks": "Listen"}


def _server_with(tmp_path_factory, name: str, appearance: dict, groups: dict | None = None):
    spec = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    spec["appearance"].update(appearance)
    # The seven tabs the other tests run on (see conftest's `seven_tabs_file`).
    spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    for tab in spec["tabs"]:
        if groups and tab["id"] in groups:
            tab["group"] = groups[tab["id"]]
    path = tmp_path_factory.mktemp("tabs") / f"{name}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return running_server("--tabs", str(path))


@pytest.fixture(scope="module")
def styled(tmp_path_factory):
    """A server whose bar uses most settings, with the sidebar at 1024 px and wider."""
    appearance = {
        "tint": {"light": "#007aff", "dark": "#0a84ff"},
        "selectionIndicatorTint": "#007aff26",
        "scrollEdgeAppearance": {},
        "shadowColor": "#ff000080",
        "itemWidth": 96, "itemSpacing": 12,
        "titlePosition": "beside",
        "regularLayout": "sidebar",
        "backgroundImage": "icons/app.svg",
    }
    with _server_with(tmp_path_factory, "styled", appearance, GROUPS) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture(scope="module")
def top_bar(tmp_path_factory):
    with _server_with(tmp_path_factory, "top-bar", {"regularLayout": "topBar"}) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


_ITEM = r"""
const b = document.querySelector(`nav.tab-bar button[value="${arguments[0]}"]`);
const icon = getComputedStyle(b.querySelector(".tab-icon")).backgroundColor;
const title = getComputedStyle(b.querySelector(".tab-title")).color;
const pill = getComputedStyle(b, "::before");
const bar = getComputedStyle(document.querySelector("nav.tab-bar"));
return {icon, title, pill: pill.content !== "none" ? pill.backgroundColor : null,
        barBackground: bar.backgroundColor, barBorder: bar.borderTopColor};
"""


def _rgb(css: str) -> tuple[float, ...]:
    """rgb()/rgba() or color(srgb …) (what color-mix computes to) as 0-255 channels and alpha."""
    inside = css[css.index("(") + 1:css.index(")")].replace("/", " ").replace(",", " ").split()
    if inside[0] == "srgb":
        values = [float(v) for v in inside[1:]]
        return tuple(v * 255 for v in values[:3]) + tuple(values[3:])
    return tuple(float(v) for v in inside)


def _luminance(rgb) -> float:
    def linear(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb[:3]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def _contrast(a, b) -> float:
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_icons_take_the_exact_tints_and_titles_stay_readable(browsers, viewport, scheme):
    browser = browsers.open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/music")
    selected = browser.run(_ITEM, "music")
    unselected = browser.run(_ITEM, "movies")
    tint = (0, 122, 255) if scheme == "light" else (10, 132, 255)
    assert _rgb(selected["icon"])[:3] == tint, selected
    assert _rgb(unselected["icon"])[:3] == (142, 142, 147), unselected
    ground = (249, 249, 249) if scheme == "light" else (18, 18, 20)
    for item in (selected, unselected):
        assert _contrast(_rgb(item["title"]), ground) >= 4.5, item
    if scheme == "light":
        # Darkened only as much as needed: still clearly the tint's hue.
        r, g, b = _rgb(selected["title"])[:3]
        assert b > 180 and r < 10, selected


# The icons on screen (the bar's, and the list's on More: their mask image URLs and
# boxes), and the page's resource and paint timings.
_ICON_TIMING = r"""
const icons = [...document.querySelectorAll(".tab-icon")].filter((el) => el.offsetWidth > 0).map((el) => {
  const url = (getComputedStyle(el).getPropertyValue("--icon").match(/url\(['"]?([^'")]+)/) || [])[1];
  return {url: url ? new URL(url, location.href).href : null, rect: el.getBoundingClientRect().toJSON()};
});
const page = performance.getEntriesByType("navigation")[0];
const paint = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
return {
  icons,
  resources: performance.getEntriesByType("resource").map((e) => ({
    url: e.name, initiator: e.initiatorType, end: e.responseEnd})),
  loadStart: page.loadEventStart,
  firstContentfulPaint: paint ? paint.startTime : null,
  innerHeight,
};
"""


@pytest.mark.webkit
@pytest.mark.parametrize("viewport", PHONES)
@pytest.mark.parametrize("path", ["/tabs/featured", "/more"])
def test_icons_are_there_at_first_paint(browsers_for, shipped_server, viewport, path):
    """WebKit fetches a CSS mask image only when it first paints the element, after the
    load event (the icons showed ~0.2 s after the page): the page preloads the icons it
    shows, so they arrive with the stylesheet, once each, before the load event. A
    preload does not hold the first frame back: where that comes first (a loaded
    machine) is printed, not asserted."""
    # A browser of its own: nothing of the icons in its cache yet.
    browser = browsers_for(shipped_server).open(viewport)
    browser.get(path)
    timing = browser.run(_ICON_TIMING)
    icons = [icon for icon in timing["icons"] if icon["url"]]
    # More's dots are a gradient, not a file.
    assert len(icons) >= (4 if path == "/more" else 3), timing["icons"]
    for icon in icons:
        fetches = [r for r in timing["resources"] if r["url"] == icon["url"]]
        assert fetches and fetches[0]["end"] <= timing["loadStart"], (
            f"{icon['url']} arrived after the load event ({timing['loadStart']} ms): {fetches}")
        # One fetch, the preload's: a mask fetch that does not match the preload (its CORS
        # mode) would be a second one.
        assert [r["initiator"] for r in fetches] == ["link"], (icon["url"], fetches)
    paint = timing["firstContentfulPaint"]
    last = max(r["end"] for icon in icons for r in timing["resources"] if r["url"] == icon["url"])
    print(f"{browser.engine} {viewport} {path}: icons in at {last:.0f} ms, first contentful paint "
          f"{paint if paint is None else round(paint)} ms, load {timing['loadStart']:.0f} ms")
    # And drawn: each icon in view holds the tint's pixels, not only the background's.
    in_view = [icon for icon in timing["icons"] if 0 <= icon["rect"]["top"] and icon["rect"]["bottom"] <= timing["innerHeight"]]
    for icon, box in zip(in_view, browser.region_pixels([icon["rect"] for icon in in_view])):
        lightest = max(box, key=lambda p: sum(p[:3]))
        ink = sum(1 for p in box if sum(abs(a - b) for a, b in zip(p[:3], lightest[:3])) > 60)
        assert ink >= len(box) // 20, (icon, ink, len(box))


@EVERY_VIEWPORT
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_selection_indicator_is_a_pill_behind_the_selected_item(styled, viewport, scheme):
    browser = styled.open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/music")
    selected = browser.run(_ITEM, "music")
    unselected = browser.run(_ITEM, "movies")
    if viewport == "desktop":
        # The sidebar highlights the selected row with the indicator colour.
        background = browser.run(
            "return getComputedStyle(document.querySelector('nav.tab-bar button[value=music]')).backgroundColor;")
        assert _rgb(background) == pytest.approx((0, 122, 255, 0.15), abs=0.01), background
    else:
        assert selected["pill"] and _rgb(selected["pill"]) == pytest.approx((0, 122, 255, 0.15), abs=0.01), selected
    assert unselected["pill"] is None, unselected


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet"])
@BOTH_JS_MODES
def test_scroll_edge_appearance_and_shadow_color(styled, viewport, js):
    browser = styled.open(viewport, js=js)
    browser.get("/tabs/featured")
    browser.run("window.scrollTo(0, 0);")
    top = browser.wait(lambda: (lambda s: s if _rgb(s["barBackground"])[-1] > 0.5 and len(_rgb(s["barBackground"])) == 4
                                or len(_rgb(s["barBackground"])) == 3 else None)(browser.run(_ITEM, "featured")),
                       "the bar is not opaque away from the scroll edge")
    assert _rgb(top["barBorder"]) == pytest.approx((255, 0, 0, 0.5), abs=0.01), top  # shadowColor
    browser.run("window.scrollTo(0, document.documentElement.scrollHeight);")
    edge = browser.wait(lambda: (lambda s: s if len(_rgb(s["barBackground"])) == 4 and _rgb(s["barBackground"])[-1] == 0
                                 else None)(browser.run(_ITEM, "featured")),
                        "the bar did not turn transparent at the scroll edge")
    assert _rgb(edge["barBorder"])[-1] == 0, edge


def test_without_scroll_edge_appearance_the_bar_keeps_its_look(browsers):
    browser = browsers.open("phone")
    browser.get("/tabs/featured")
    browser.run("window.scrollTo(0, document.documentElement.scrollHeight);")
    look = browser.run(_ITEM, "featured")
    background = _rgb(look["barBackground"])
    assert len(background) == 3 or background[-1] > 0.5, look


def test_item_width_and_spacing(styled):
    browser = styled.open("tablet")
    browser.get("/tabs/music")
    rects = browser.run("""
        return [...document.querySelectorAll('nav.tab-bar .tab-item')].filter((li) => li.offsetWidth > 0)
          .map((li) => li.getBoundingClientRect().toJSON());
    """)
    assert len(rects) == 7
    for rect in rects:
        assert rect["width"] == pytest.approx(96, abs=0.5), rect
    for left, right in zip(rects, rects[1:]):
        assert right["left"] - left["right"] == pytest.approx(12, abs=0.5), (left, right)


def test_title_position_beside_on_a_phone(styled):
    browser = styled.open("phone")
    browser.get("/tabs/music")
    centres = browser.run("""
        const b = document.querySelector('nav.tab-bar button[value=music]');
        const i = b.querySelector('.tab-icon').getBoundingClientRect(), t = b.querySelector('.tab-title').getBoundingClientRect();
        return [(i.top + i.bottom) / 2, (t.top + t.bottom) / 2, i.right <= t.left + 1];
    """)
    assert abs(centres[0] - centres[1]) < 3 and centres[2], centres


@BOTH_JS_MODES
def test_sidebar_layout_with_tab_groups(styled, js):
    browser = styled.open("desktop", js=js)
    snapshot = browser.get("/tabs/music")
    bar = snapshot["bar"]
    assert bar["left"] == 0 and bar["width"] == pytest.approx(260, abs=1) and bar["height"] == snapshot["innerHeight"]
    assert visible_ids(snapshot) == DEFAULT_ORDER
    tops = [item["rect"]["top"] for item in snapshot["items"]]
    assert tops == sorted(tops) and len(set(round(t) for t in tops)) == 7, tops
    groups = browser.run("""
        return [...document.querySelectorAll('.tab-group-title')].filter((g) => g.offsetHeight > 0).map((g) => g.textContent);
    """)
    assert groups == ["Watch", "Listen"], groups
    content = browser.run("return document.querySelector('main').getBoundingClientRect().left;")
    assert content >= 260, content
    # Choosing from the sidebar and customizing work as anywhere else.
    browser.tap_tab("tv")
    browser.wait_at("/tabs/tv", tab="tv")
    browser.get("/more/edit")
    button = next(b for b in browser.driver.find_elements(
        By.XPATH, '//form[input[@name="tab" and @value="tv"]]//button[@value="up"]') if b.is_displayed())
    browser.tap(button)
    browser.wait(lambda: browser.run("""
        return [...document.querySelectorAll('nav.tab-bar button[name=tab]')].map((b) => b.value).indexOf('tv') === 2;
    """), "the sidebar did not follow the new order")


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_sidebar_setting_keeps_the_bottom_bar_below_1024px(styled, viewport):
    browser = styled.open(viewport)
    snapshot = browser.get("/tabs/music")
    assert abs(snapshot["bar"]["bottom"] - snapshot["innerHeight"]) <= 1
    assert snapshot["bar"]["width"] >= snapshot["clientWidth"] - 1


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_top_bar_layout(top_bar, viewport):
    browser = top_bar.open(viewport)
    snapshot = browser.get("/tabs/music/albums/1")
    bar = snapshot["bar"]
    if viewport == "phone":
        assert abs(bar["bottom"] - snapshot["innerHeight"]) <= 1
        return
    assert bar["top"] < 40 and abs((bar["left"] + bar["right"]) / 2 - snapshot["clientWidth"] / 2) <= 2, bar
    assert visible_ids(snapshot) == DEFAULT_ORDER
    title = browser.run("return document.querySelector('.app-title').getBoundingClientRect().toJSON();")
    assert title["top"] >= bar["bottom"], (title, bar)
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")


def test_background_image(styled):
    browser = styled.open("phone")
    browser.get("/tabs/music")
    image = browser.run("return getComputedStyle(document.querySelector('nav.tab-bar')).backgroundImage;")
    assert "icons/app" in image, image
