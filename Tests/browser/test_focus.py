# SPDX-License-Identifier: Apache-2.0
"""Keyboard focus: every focused element shows a focus ring, and neither the fixed bar
nor the sticky header ever hides the element that has focus (WCAG 2.4.7, 2.4.11)."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import pytest

from support import ALL_VIEWPORTS

_FOCUSED = r"""
const el = document.activeElement;
const s = getComputedStyle(el);
return {
  tag: el.tagName, label: (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40),
  inBar: !!el.closest("nav.tab-bar"), inMain: !!el.closest("main"),
  rect: el.getBoundingClientRect().toJSON(),
  bar: document.querySelector("nav.tab-bar").getBoundingClientRect().toJSON(),
  header: document.querySelector(".app-header").getBoundingClientRect().toJSON(),
  innerHeight, clientWidth: document.documentElement.clientWidth,
  outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0,
  outlineOffset: parseFloat(s.outlineOffset) || 0,
};
"""

MAX_TABS = 80


@ALL_VIEWPORTS
@pytest.mark.webkit
def test_keyboard_focus_is_visible_and_never_under_the_bar(browsers, viewport):
    browser = browsers.open(viewport)
    for path in ("/tabs/music/albums/1", "/tabs/featured"):
        browser.get(path)
        in_main = 0
        for _ in range(MAX_TABS):
            ActionChains(browser.driver).send_keys(Keys.TAB).perform()
            focus = browser.run(_FOCUSED)
            if focus["tag"] == "BODY":
                continue
            where = f"{path}: focused {focus['tag']} {focus['label']!r}"
            assert focus["outlineStyle"] != "none" and focus["outlineWidth"] >= 2, f"{where} shows no focus ring"
            rect = focus["rect"]
            if focus["inBar"]:
                # The ring is drawn inside the viewport, not cut off at its bottom edge.
                ring = focus["outlineOffset"] + focus["outlineWidth"]
                assert rect["bottom"] + ring <= focus["innerHeight"] + 0.5, f"{where}: its focus ring is cut off"
                assert rect["left"] - ring >= -0.5 and rect["right"] + ring <= focus["clientWidth"] + 0.5, where
                break
            if focus["inMain"]:
                in_main += 1
                assert rect["bottom"] <= focus["bar"]["top"] + 0.5, (
                    f"{where} ends at {rect['bottom']}, under the bar (top {focus['bar']['top']})")
                assert rect["top"] >= focus["header"]["bottom"] - 0.5, (
                    f"{where} starts at {rect['top']}, under the header (bottom {focus['header']['bottom']})")
        else:
            raise AssertionError(f"{path}: {MAX_TABS} presses of Tab never reached the tab bar")
        assert in_main >= 5, f"{path}: only {in_main} focusable elements in main"


@pytest.mark.parametrize("viewport", ["tablet", "desktop"])
def test_choosing_a_tab_with_the_keyboard_keeps_focus_on_it(browsers, viewport):
    """With app.js the page is swapped in place: focus must not fall back to <body>."""
    browser = browsers.open(viewport, js=True)
    browser.get("/tabs/featured")
    browser.tab_button("music").send_keys(Keys.ENTER)
    browser.wait_at("/tabs/music", tab="music")
    focused = browser.run("""
        const el = document.activeElement;
        return {inBar: !!el.closest("nav.tab-bar"), value: el.value || null,
                ring: el.matches(":focus-visible")};
    """)
    assert focused == {"inBar": True, "value": "music", "ring": True}, focused


_SHORTCUTS = r"""
return [...document.querySelectorAll("nav.tab-bar .tab-item .tab")]
  .filter((el) => el.getBoundingClientRect().width > 0)
  .map((el) => ({id: el.name === "more" ? "more" : el.value, keys: el.getAttribute("aria-keyshortcuts")}));
"""


@pytest.mark.parametrize("viewport", ["phone", "tablet", "desktop"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_control_and_a_digit_select_the_nth_item(browsers, viewport, js):
    """With the script, Ctrl+1…9 (⌘ on Apple systems) select the nth item of the bar on
    screen, as iPad apps do with a keyboard, and the items say so in aria-keyshortcuts. Without the script no item claims a shortcut."""
    browser = browsers.open(viewport, js=js)
    browser.get("/tabs/featured")
    items = browser.run(_SHORTCUTS)
    if not js:
        assert all(item["keys"] is None for item in items), items
        return
    assert [item["keys"] for item in items] == [f"Control+{n}" for n in range(1, len(items) + 1)], items
    ActionChains(browser.driver).key_down(Keys.CONTROL).send_keys("3").key_up(Keys.CONTROL).perform()
    browser.wait_at(f"/tabs/{items[2]['id']}", tab=items[2]["id"])
    # The last item on a phone is More, an item like the others.
    target = len(items) if items[-1]["id"] == "more" else 1
    ActionChains(browser.driver).key_down(Keys.CONTROL).send_keys(str(target)).key_up(Keys.CONTROL).perform()
    if target == 1:
        browser.wait_at("/tabs/featured", tab="featured")
    else:
        browser.wait_at("/more", tab="more")
    # The shortcuts follow the bar after the page changed.
    assert [item["keys"] for item in browser.run(_SHORTCUTS)] == [item["keys"] for item in items]
