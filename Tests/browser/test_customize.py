# SPDX-License-Identifier: Apache-2.0
"""Customizing through the UI: More → Edit tabs → move a tab into the bar, move it up,
reload, reset, Done. Everything is a form post, so it must work with JavaScript off."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from support import ALL_VIEWPORTS, BOTH_JS_MODES, DEFAULT_ORDER, visible_ids

_LISTS = r"""
const ids = (list) => list ? [...list.querySelectorAll("li.customize-row")].map((row) => {
  const tab = row.querySelector("input[name=tab]");
  return tab ? tab.value : "fixed:" + (row.querySelector(".row-title")?.textContent || "").trim();
}) : [];
const reset = document.querySelector("button[name=action][value=reset]");
// The lists of the arrangement on screen: the phone's, or the regular bar's (>= 768 px).
const visible = (el) => el && el.getBoundingClientRect().height > 0;
const list = (id) => [...document.querySelectorAll(`ol[aria-labelledby^="${id}"]`)].find(visible);
return {
  ready: document.activeViewTransition ? "transition" : document.readyState, path: location.pathname,
  bar: ids(list("bar-heading")),
  more: ids(list("more-heading")),
  resetDisabled: reset ? reset.disabled : null,
};
"""


def _lists(browser) -> dict:
    return browser.run(_LISTS)


def _wait_lists(browser, bar: list[str], more: list[str]) -> dict:
    def matches():
        state = _lists(browser)
        ok = state["ready"] == "complete" and state["path"] == "/more/edit"
        return state if ok and state["bar"][1:] == bar and state["more"] == more else None

    return browser.wait(matches, f"customize page did not show bar {bar} / More {more}; last: {_lists(browser)}")


def _press(browser, tab: str, action: str) -> None:
    buttons = browser.driver.find_elements(
        By.XPATH, f'//form[input[@name="tab" and @value="{tab}"]]//button[@name="action" and @value="{action}"]')
    button = next(b for b in buttons if b.is_displayed())
    assert button.is_enabled(), f"{action} for {tab} is disabled"
    browser.tap(button)


@ALL_VIEWPORTS
@BOTH_JS_MODES
@pytest.mark.webkit
def test_customization_round_trip(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    start = browser.get("/tabs/featured")
    if viewport == "phone":
        browser.tap_more()
    else:
        # Every tab fits at regular width, so More is not in the bar: open it by URL.
        assert not start["more"]["visible"]
        browser.get("/more")
    browser.wait_at("/more")
    browser.tap_css('main a[href$="/more/edit"]')

    # Featured is fixed in the first place; the customizable tabs follow. The page shows
    # the arrangement of the width on screen: 4 + More on the phone, all seven beyond.
    phone = viewport == "phone"
    default = ((["music", "movies", "tv"], ["podcasts", "audiobooks", "purchased"]) if phone
               else (DEFAULT_ORDER[1:], []))
    state = _wait_lists(browser, *default)
    assert state["bar"][0].startswith("fixed:")
    assert state["resetDisabled"] is True

    if phone:
        _press(browser, "audiobooks", "bar")
        _wait_lists(browser, bar=["music", "movies", "audiobooks"], more=["tv", "podcasts", "purchased"])
        _press(browser, "audiobooks", "up")
        edited = (["music", "audiobooks", "movies"], ["tv", "podcasts", "purchased"])
    else:
        for bar in (["music", "movies", "tv", "audiobooks", "podcasts", "purchased"],
                    ["music", "movies", "audiobooks", "tv", "podcasts", "purchased"]):
            _press(browser, "audiobooks", "up")
            _wait_lists(browser, bar, [])
        _press(browser, "audiobooks", "up")
        edited = (["music", "audiobooks", "movies", "tv", "podcasts", "purchased"], [])
    state = _wait_lists(browser, *edited)
    assert state["resetDisabled"] is False

    customized = ["featured", "music", "audiobooks", "movies", "tv", "podcasts", "purchased"]
    browser.driver.refresh()
    _wait_lists(browser, *edited)
    # The customize page's own tab bar shows the new order too.
    snapshot = browser.snapshot()
    assert [item["id"] for item in snapshot["items"]] == customized
    expected_visible = customized[:4] if viewport == "phone" else customized
    assert visible_ids(snapshot) == expected_visible

    # Done → More; the order holds on every page and across a reload.
    browser.tap_css('button[name="action"][value="done"]')
    browser.wait_at("/more")
    snapshot = browser.get("/tabs/music")
    browser.driver.refresh()
    snapshot = browser.wait_at("/tabs/music", tab="music")
    assert [item["id"] for item in snapshot["items"]] == customized
    assert visible_ids(snapshot) == expected_visible
    if viewport == "phone":
        browser.tap_tab("audiobooks")  # now a bar tab on the phone
        browser.wait_at("/tabs/audiobooks", tab="audiobooks")

    # Reset brings back the default order, also after a reload.
    browser.get("/more/edit")
    browser.tap_css('button[name="action"][value="reset"]')
    state = _wait_lists(browser, *default)
    assert state["resetDisabled"] is True
    browser.driver.refresh()
    _wait_lists(browser, *default)
    snapshot = browser.get("/tabs/featured")
    assert [item["id"] for item in snapshot["items"]] == DEFAULT_ORDER


_ROW_ICONS = r"""
const rtl = getComputedStyle(document.documentElement).direction === "rtl";
return [...document.querySelectorAll("li.customize-row")].filter((row) => row.getBoundingClientRect().height > 0).map((row) => {
  const icon = row.querySelector(".tab-icon").getBoundingClientRect();
  const title = row.querySelector(".row-title").getBoundingClientRect();
  return {
    tab: row.dataset.tab,
    leads: rtl ? icon.left >= title.right - 0.5 : icon.right <= title.left + 0.5,
    sameLine: icon.top < title.bottom && title.top < icon.bottom,
  };
});
"""


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet", "desktop"])
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@BOTH_JS_MODES
def test_edit_rows_start_with_their_icon(browsers, viewport, lang, js):
    """Each Edit row's icon leads its title on the same line, at every width (on the
    desktop it fell below the buttons at the trailing edge)."""
    browser = browsers.open(viewport, js=js, lang=lang)
    browser.get("/more/edit")
    rows = browser.run(_ROW_ICONS)
    assert len(rows) == len(DEFAULT_ORDER), rows
    misplaced = [row for row in rows if not (row["leads"] and row["sameLine"])]
    assert not misplaced, misplaced
