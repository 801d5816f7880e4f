# SPDX-License-Identifier: Apache-2.0
"""The bar's geometry (fixed to the viewport bottom, never covering content, items big
enough to tap, labels readable), the header's hairline and the sidebar's end."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from support import ALL_VIEWPORTS, BOTH_JS_MODES, visible_ids
from test_minimize import _long_page, _scroll

# The last content element of <main> (the deepest last element with a box) and whether
# the element drawn at its centre belongs to it, i.e. nothing (the bar) lies on top.
_LAST_CONTENT = r"""
const main = document.querySelector("main");
let last = null;
for (const el of main.querySelectorAll("*")) {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden" &&
      (!last || r.bottom >= last.getBoundingClientRect().bottom)) last = el;
}
const r = last.getBoundingClientRect();
const x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2;
const hit = document.elementFromPoint(x, Math.min(y, innerHeight - 1));
return {tag: last.tagName, text: last.textContent.trim().slice(0, 40), rect: r.toJSON(),
        onTop: hit === last || last.contains(hit),
        hitClass: hit ? hit.className : null};
"""

_SCROLL_END = "window.scrollTo(0, document.documentElement.scrollHeight);"
_AT_END = ("return Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1 "
           "&& scrollY > 0;")


def _assert_bar_at_bottom(snapshot: dict, when: str) -> None:
    bar = snapshot["bar"]
    assert bar is not None, "no tab bar"
    assert abs(bar["bottom"] - snapshot["innerHeight"]) <= 1, (
        f"{when}: the bar ends at {bar['bottom']}, the viewport at {snapshot['innerHeight']}")
    assert bar["left"] <= 0 and bar["right"] >= snapshot["clientWidth"] - 0.5, f"{when}: the bar is not full width: {bar}"
    assert bar["height"] >= 44, f"{when}: the bar is {bar['height']} px high"


@ALL_VIEWPORTS
@pytest.mark.webkit
def test_bar_stays_at_the_bottom_and_covers_nothing(browsers, viewport):
    browser = browsers.open(viewport)
    for path in ("/tabs/featured", "/tabs/music/albums/1"):
        before = browser.get(path)
        _assert_bar_at_bottom(before, f"{path} before scrolling")
        scrollable = browser.run("return document.documentElement.scrollHeight > innerHeight + 50;")
        if path == "/tabs/featured":
            # Featured is longer than every tested viewport: scrolling is really tested.
            assert scrollable, f"{path} is expected to be longer than the {viewport} viewport"
        if scrollable:
            browser.run(_SCROLL_END)
            browser.wait(lambda: browser.run(_AT_END), f"{path} did not scroll to its end")
        after = browser.snapshot()
        _assert_bar_at_bottom(after, f"{path} scrolled to the end")
        last = browser.run(_LAST_CONTENT)
        assert last["rect"]["bottom"] <= after["bar"]["top"] + 0.5, (
            f"{path}: the last content element ({last['tag']} {last['text']!r}) ends at "
            f"{last['rect']['bottom']}, under the bar that starts at {after['bar']['top']}")
        assert last["onTop"], f"{path}: the last content element is covered by {last['hitClass']!r}"


@pytest.mark.webkit
@pytest.mark.parametrize("viewport", ["phone", "landscape"])
def test_the_bar_is_translucent_and_blurs_what_scrolls_under_it(browsers, viewport):
    """UIKit's default bar: the content scrolls on under it, blurred and saturated. The
    filter must hold in WebKit (Safari takes the prefixed property before 18)."""
    browser = browsers.open(viewport)
    browser.get("/tabs/featured")
    browser.run("window.scrollTo(0, 200);")
    look = browser.run("""
        const s = getComputedStyle(document.querySelector("nav.tab-bar"));
        return {filter: s.backdropFilter || s.webkitBackdropFilter, background: s.backgroundColor};
    """)
    assert "blur(20px)" in look["filter"] and "saturate(" in look["filter"], look
    channels = look["background"][look["background"].index("(") + 1:-1].replace("/", " ").replace(",", " ").split()
    alpha = float(channels[-1]) if len(channels) in (4, 5) else 1.0
    assert 0 < alpha < 1, f"the bar is not translucent: {look}"


_TARGETS = r"""
return [...document.querySelectorAll("nav.tab-bar .tab")].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}).map((el) => {
  const title = el.querySelector(".tab-title");
  const t = title.getBoundingClientRect();
  const badge = el.querySelector(".tab-badge");
  const b = badge ? badge.getBoundingClientRect() : null;
  const s = getComputedStyle(title);
  return {
    name: (el.value || el.getAttribute("href")), rect: el.getBoundingClientRect().toJSON(),
    title: title.textContent.trim(), titleRect: t.toJSON(),
    fontSize: parseFloat(s.fontSize), color: s.color, opacity: s.opacity,
    badgeOverTitle: !!b && b.left < t.right - 0.5 && t.left < b.right - 0.5 && b.top < t.bottom - 0.5 && t.top < b.bottom - 0.5,
    badgeInside: !b || (b.left >= el.getBoundingClientRect().left - 0.5 && b.right <= el.getBoundingClientRect().right + 0.5),
    truncated: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1,
    hit: (() => {
      const h = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
      return h === el || el.contains(h);
    })(),
  };
});
"""


@ALL_VIEWPORTS
@pytest.mark.parametrize("lang", ["en-US,en", "de", "ja", "ar"], ids=["en", "de", "ja", "ar"])
@pytest.mark.webkit
def test_bar_items_are_big_enough_to_tap_and_labelled(browsers, viewport, lang):
    """In every shipped language: labels are long in German and Arabic, wide in Japanese."""
    browser = browsers.open(viewport, lang=lang)
    snapshot = browser.get("/tabs/music")
    targets = browser.run(_TARGETS)
    expected = len(visible_ids(snapshot)) + (1 if snapshot["more"]["visible"] else 0)
    assert len(targets) == expected and expected >= 5, targets
    bar = snapshot["bar"]
    for target in targets:
        rect = target["rect"]
        assert rect["width"] >= 44 and rect["height"] >= 44, f"{target['name']}: {rect['width']}x{rect['height']} px"
        # Inside the bar and the viewport: the whole target can be tapped.
        assert rect["top"] >= bar["top"] - 0.5 and rect["bottom"] <= snapshot["innerHeight"] + 0.5, target
        assert rect["left"] >= -0.5 and rect["right"] <= snapshot["clientWidth"] + 0.5, target
        assert target["title"], f"{target['name']} has no visible label"
        assert target["titleRect"]["width"] > 0 and target["titleRect"]["height"] > 0, target
        assert target["fontSize"] >= 10, target
        assert not target["truncated"], f"the label {target['title']!r} is cut off"
        assert target["hit"], f"the label of {target['name']} is covered"
        assert not target["badgeOverTitle"], f"the badge of {target['name']} covers its label"
        assert target["badgeInside"], f"the badge of {target['name']} sticks out of the item"
    # Items do not overlap one another.
    rects = sorted((t["rect"] for t in targets), key=lambda r: r["left"])
    for left, right in zip(rects, rects[1:]):
        assert left["right"] <= right["left"] + 0.5, (left, right)


# Each visible title's text against the box that shows it, and each badge against its
# icon and the bar's top edge.
_CLIPPING = r"""
const bar = document.querySelector("nav.tab-bar").getBoundingClientRect();
return [...document.querySelectorAll("nav.tab-bar .tab")].filter((el) => el.getBoundingClientRect().width > 0).map((el) => {
  const title = el.querySelector(".tab-title"), icon = el.querySelector(".tab-icon"), badge = el.querySelector(".tab-badge");
  const range = document.createRange();
  range.selectNodeContents(title);
  const text = range.getBoundingClientRect(), box = title.getBoundingClientRect(), i = icon.getBoundingClientRect();
  const s = getComputedStyle(title);
  const room = box.width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  let covered = null, badgeTop = null;
  if (badge) {
    const b = badge.getBoundingClientRect();
    const w = Math.max(0, Math.min(b.right, i.right) - Math.max(b.left, i.left));
    const h = Math.max(0, Math.min(b.bottom, i.bottom) - Math.max(b.top, i.top));
    covered = (w * h) / (i.width * i.height);
    badgeTop = b.top - bar.top;
  }
  return {title: title.textContent.trim(), textWidth: text.width, room, lines: Math.round(text.height / parseFloat(s.lineHeight || s.fontSize)),
          scroll: title.scrollWidth, client: title.clientWidth, covered, badgeTop, dot: !!badge && badge.classList.contains("is-dot")};
});
"""


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet", "desktop"])
@pytest.mark.parametrize("model", ["seven", "eight"])
@pytest.mark.webkit
def test_titles_are_whole_and_badges_leave_icons_seen(browsers_for, server, eight_tabs_server, viewport, model):
    """No title is cut, not even by a pixel ("Audioboo…" at 820 px), and in phone
    landscape a badge covers at most a third of its icon and stays inside the bar."""
    browser = browsers_for(server if model == "seven" else eight_tabs_server).open(viewport)
    browser.get("/tabs/featured")
    for item in browser.run(_CLIPPING):
        assert item["scroll"] <= item["client"], f"{item['title']!r} is cut off: {item}"
        if item["lines"] <= 1:
            assert item["textWidth"] <= item["room"] + 0.01, f"{item['title']!r} is cut off: {item}"
        if item["covered"] is not None:
            assert item["badgeTop"] >= 0, f"the badge of {item['title']!r} sticks out above the bar: {item}"
            if viewport == "landscape" and not item["dot"]:
                assert item["covered"] <= 0.3, f"the badge of {item['title']!r} covers its icon: {item}"


_HAIRLINE_ALPHA = r"""
const color = getComputedStyle(document.querySelector(".app-header")).borderBottomColor;
const rgba = color.match(/[\d.]+/g).map(Number);
return rgba.length > 3 ? rgba[3] : 1;
"""


@BOTH_JS_MODES
@pytest.mark.webkit(js=[True])
def test_the_headers_hairline_shows_only_with_content_under_it(browsers, js):
    """UIKit's scroll-edge appearance of the navigation bar: no hairline at the top of a
    page; once content scrolls under the header, the hairline; back at the top, none."""
    browser = browsers.open("phone", js=js)
    _long_page(browser, "/tabs/music")
    browser.wait(lambda: browser.run(_HAIRLINE_ALPHA) == 0, "a hairline at the top of the page")
    _scroll(browser, 300)
    browser.wait(lambda: browser.run(_HAIRLINE_ALPHA) > 0, "no hairline with content under the header")
    _scroll(browser, 0)
    browser.wait(lambda: browser.run(_HAIRLINE_ALPHA) == 0, "the hairline stayed back at the top")


_SHOWN_LINKS = r"""
const shown = (e) => !!e && e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== "hidden";
return {header: shown(document.querySelector(".header-more")),
        sidebar: [...document.querySelectorAll(".sidebar-links a")].filter(shown)
          .map((a) => [new URL(a.href).pathname, a.getAttribute("aria-current")])};
"""


def test_the_sidebar_ends_with_edit_and_settings_and_the_header_has_no_more(browsers_for, shipped_server):
    """iPadOS's sidebar lists every tab and has no More: the header's More link goes, and
    Edit and the settings (More's page) end the sidebar; on a phone neither changes."""
    pool = browsers_for(shipped_server)
    desktop = pool.open("desktop")
    desktop.get("/tabs/featured")
    links = desktop.run(_SHOWN_LINKS)
    assert not links["header"], links
    assert links["sidebar"] == [["/more/edit", None], ["/more", None]], links
    desktop.driver.find_element(By.CSS_SELECTOR, ".sidebar-links a[href$='/more']").click()
    desktop.wait(lambda: desktop.run(_SHOWN_LINKS)["sidebar"] == [["/more/edit", None], ["/more", "page"]],
                 "the settings link does not mark the More page")
    phone = pool.open("phone")
    phone.get("/tabs/featured")
    assert phone.run(_SHOWN_LINKS)["sidebar"] == []
