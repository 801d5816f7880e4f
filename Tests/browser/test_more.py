# SPDX-License-Identifier: Apache-2.0
"""More: four tabs and More on a phone when there are more than five tabs; every tab in
the bar (and no More) on wide screens."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from conftest import changed_tabs_file, pool_on_tabs

from support import ALL_VIEWPORTS, BOTH_JS_MODES, COMPACT_BAR, COMPACT_MORE, DEFAULT_ORDER, current_ids, visible_ids

_MORE_ROWS = r"""
return [...document.querySelectorAll("main form.more-list button[name=tab]")]
  .filter((b) => { const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((b) => b.value);
"""


@ALL_VIEWPORTS
@BOTH_JS_MODES
@pytest.mark.webkit
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
        assert not [item for item in more["items"] if item["current"]]
        # A tab chosen in More opens with More still highlighted in the bar.
        titles = {item["id"]: item["title"] for item in more["items"]}
        browser.tap_css('main form.more-list button[value="audiobooks"]')
        page = browser.wait_at("/tabs/audiobooks", tab="more", h1=titles["audiobooks"])
        assert next(i for i in page["items"] if i["id"] == "audiobooks")["current"] == "page"
        # Another bar tab, then More again: the tab More showed, as in UIKit; a second
        # tap on More pops to its list.
        browser.tap_tab("movies")
        browser.wait_at("/tabs/movies", tab="movies")
        browser.tap_more()
        browser.wait_at("/tabs/audiobooks", tab="more")
        browser.tap_more()
        browser.wait_at("/more", tab="more")
        browser.tap_css('main form.more-list button[value="purchased"]')
        # The question is asked where the tap happened: on More.
        _confirm_purchased(browser, "/more", "more", then="more")
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
        # A tab that would be in More on a phone is a plain bar tap here.
        browser.tap_tab("podcasts")
        page = browser.wait_at("/tabs/podcasts", tab="podcasts")
        assert current_ids(page) == ["podcasts"]
        browser.tap_tab("purchased")
        _confirm_purchased(browser, "/tabs/podcasts", "podcasts", then="purchased")


def _confirm_purchased(browser, path: str, tab: str, then: str) -> None:
    """The demo's shouldSelect hook asks before Purchased opens: the visitor stays where
    they were, with a notice and a button that confirms."""
    confirm = 'main .notice button[name="tab"][value="purchased"]'
    browser.wait_for(
        lambda s: s["ready"] == "complete" and s["path"] == path and current_ids(s) == [tab]
        and browser.run("return !!document.querySelector(arguments[0]);", confirm),
        "no confirmation notice for Purchased")
    browser.tap_css(confirm)
    page = browser.wait_at("/tabs/purchased", tab=then)
    assert next(i for i in page["items"] if i["id"] == "purchased")["current"] == "page"
    assert not browser.run("return !!document.querySelector(arguments[0]);", confirm)


@pytest.fixture(scope="module")
def five_tabs(tmp_path_factory):
    """A second server whose tab file keeps only the first five shipped tabs."""
    def change(spec):
        spec["tabs"] = spec["tabs"][:5]
    with pool_on_tabs(changed_tabs_file(tmp_path_factory, "five-tabs", change)) as pool:
        yield pool


@pytest.mark.webkit
def test_five_tabs_fit_a_phone_without_more(five_tabs):
    browser = five_tabs.open("phone")
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == DEFAULT_ORDER[:5]
    assert not snapshot["more"]["visible"], "More shows although five tabs fit a phone's bar"
    widths = {round(item["rect"]["width"]) for item in snapshot["items"]}
    assert len(widths) == 1 and min(widths) >= 44, widths
    browser.tap_tab("podcasts")
    browser.wait_at("/tabs/podcasts", tab="podcasts")


@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_more_remembers_its_stack(browsers, js, lang):
    """More → Podcasts → a show → Featured → More shows the show again (UIKit's
    moreNavigationController keeps its stack); a re-tap of More pops to the list."""
    browser = browsers.open("phone", js=js, lang=lang)
    browser.get("/tabs/featured")
    browser.tap_more()
    browser.wait_at("/more", tab="more")
    browser.tap_css('main form.more-list button[value="podcasts"]')
    browser.wait_at("/tabs/podcasts", tab="more")
    show = browser.run("return document.querySelector('main a.row').getAttribute('href');")
    browser.tap_css("main a.row")
    browser.wait_at(show, tab="more")
    browser.tap_tab("featured")
    browser.wait_at("/tabs/featured", tab="featured")
    browser.tap_more()
    browser.wait_at(show, tab="more")
    browser.tap_more()
    browser.wait_at("/more", tab="more")
    # Popped: More shows its list from now on, until a tab of More is opened again.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    browser.tap_more()
    browser.wait_at("/more", tab="more")
