"""More: four tabs and More on a phone when there are more than five tabs; every tab in
the bar (and no More) on wide screens."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import ALL_VIEWPORTS, BOTH_JS_MODES, COMPACT_BAR, COMPACT_MORE, DEFAULT_ORDER, current_ids, visible_ids

_MORE_ROWS = r"""
return [...document.querySelectorAll("main form.more-list button[name=tab]")]
  .filter((b) => { const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((b) => b.value);
"""


@ALL_VIEWPORTS
@BOTH_JS_MODES
def test_more_lists_the_tabs_that_do_not_fit(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    snapshot = browser.get("/tabs/featured")
    assert [item["id"] for item in snapshot["items"]] == DEFAULT_ORDER

    if viewport == "phone":
        assert visible_ids(snapshot) == COMPACT_BAR
        assert snapshot["more"]["visible"], "More is missing from the phone's bar"
        browser.tap_more()
        more = browser.wait_at("/more", tab="more")
        assert browser.run(_MORE_ROWS) == COMPACT_MORE
        assert not more["items"][0]["current"]
        # A tab chosen in More opens with More still highlighted in the bar.
        titles = {item["id"]: item["title"] for item in more["items"]}
        browser.driver.find_element(By.CSS_SELECTOR, 'main form.more-list button[value="audiobooks"]').click()
        page = browser.wait_at("/tabs/audiobooks", tab="more", h1=titles["audiobooks"])
        assert next(i for i in page["items"] if i["id"] == "audiobooks")["current"] == "page"
        # Another bar tab, then More again: More's own list, as in UIKit.
        browser.tap_tab("movies")
        browser.wait_at("/tabs/movies", tab="movies")
        browser.tap_more()
        browser.wait_at("/more", tab="more")
    else:
        # Regular width: all seven fit (up to eight do), More is hidden.
        assert visible_ids(snapshot) == DEFAULT_ORDER
        assert not snapshot["more"]["visible"], "More shows although every tab fits"
        tops = {round(item["rect"]["top"]) for item in snapshot["items"]}
        assert len(tops) == 1, f"the bar wraps onto several lines: {tops}"
        # Even at /more, no row duplicates a bar tab; a note says that all fit.
        browser.get("/more")
        assert browser.run(_MORE_ROWS) == []
        assert browser.driver.find_element(By.CSS_SELECTOR, ".more-empty-regular").is_displayed()
        # Selecting a tab that would be in More on a phone is a plain bar tap here.
        browser.tap_tab("purchased")
        page = browser.wait_at("/tabs/purchased", tab="purchased")
        assert current_ids(page) == ["purchased"]
