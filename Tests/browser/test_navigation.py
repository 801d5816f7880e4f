# SPDX-License-Identifier: Apache-2.0
"""Selecting tabs, Back, and each tab's own navigation stack, with JavaScript on (the
fetch-and-swap enhancement) and off (plain form posts answered with 303)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from support import ALL_VIEWPORTS, BOTH_JS_MODES, current_ids


def _check_mode(browser, token: str) -> None:
    """With JavaScript on, app.js swaps the page in place; with it off, app.js never ran."""
    if browser.js_enabled:
        assert browser.document_marked(token), "app.js did not handle the tab bar: the page was reloaded"
    else:
        assert not browser.snapshot()["jsClass"], "JavaScript ran although it is disabled"


@ALL_VIEWPORTS
@BOTH_JS_MODES
@pytest.mark.webkit
def test_tapping_a_tab_selects_it_and_back_returns(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    start = browser.get("/tabs/featured")
    assert current_ids(start) == ["featured"]
    assert start["jsClass"] == js
    titles = {item["id"]: item["title"] for item in start["items"]}
    assert start["h1"] == titles["featured"]

    token = browser.mark_document()
    browser.tap_tab("music")
    music = browser.wait_at("/tabs/music", tab="music", h1=titles["music"])
    _check_mode(browser, token)
    # The content is Music's: its album list, not Featured's shelves.
    assert browser.driver.find_elements(By.CSS_SELECTOR, 'main a[href^="/tabs/music/albums/"]')
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "main .shelf")
    featured_button = next(item for item in music["items"] if item["id"] == "featured")
    assert featured_button["current"] is None

    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies", h1=titles["movies"])
    _check_mode(browser, token)

    if js:
        # With the script a tab switch replaces the history entry (docs/tabs.md, History):
        # Back leaves the app, here for the blank page the test started from.
        browser.driver.back()
        browser.wait(lambda: browser.driver.current_url == "about:blank", "Back did not leave the app")
        return
    browser.driver.back()
    browser.wait_at("/tabs/music", tab="music", h1=titles["music"])
    browser.driver.back()
    browser.wait_at("/tabs/featured", tab="featured", h1=titles["featured"])
    assert browser.driver.find_elements(By.CSS_SELECTOR, "main .shelf")


@ALL_VIEWPORTS
@BOTH_JS_MODES
@pytest.mark.webkit
def test_each_tab_keeps_its_own_stack(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    start = browser.get("/tabs/music")
    titles = {item["id"]: item["title"] for item in start["items"]}

    # Drill down: Music → album → track, by following the page's own links.
    browser.tap_css('main a[href="/tabs/music/albums/1"]')
    album = browser.wait_at("/tabs/music/albums/1", tab="music")
    assert album["h1"] and album["h1"] != titles["music"]
    back_link = browser.driver.find_element(By.CSS_SELECTOR, "header a[rel=up]")
    assert back_link.get_attribute("href").endswith("/tabs/music")
    browser.tap_css('main a[href="/tabs/music/albums/1/tracks/2"]')
    track = browser.wait_at("/tabs/music/albums/1/tracks/2", tab="music")
    assert track["h1"] and track["h1"] not in (album["h1"], titles["music"])

    # Another tab, then back to Music: the track again, not Music's root.
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies", h1=titles["movies"])
    browser.tap_tab("music")
    browser.wait_at("/tabs/music/albums/1/tracks/2", tab="music", h1=track["h1"])

    # The selected tab tapped again pops to its root.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music", h1=titles["music"])
    # ... and forgets the old position: Movies and back stays at the root.
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music", h1=titles["music"])

    # GET / restores the last place (state restoration).
    browser.tap_css('main a[href="/tabs/music/albums/3"]')
    browser.wait_at("/tabs/music/albums/3", tab="music")
    browser.driver.get(browser.url("/"))
    browser.wait_at("/tabs/music/albums/3", tab="music")


@pytest.mark.webkit
def test_after_a_switch_back_pops_only_the_tabs_own_stack(browsers):
    """With the Navigation API the script gives history the selected tab's stack alone:
    Back pops it page by page, never shows another tab's pages, and at the tab's root
    leaves the app (here for the blank page the test started from)."""
    browser = browsers.open("phone")
    browser.get("/tabs/music")
    if not browser.run("return !!(window.navigation && navigation.entries)"):
        pytest.skip("no Navigation API in this engine")
    token = browser.mark_document()
    browser.tap_css('main a[href="/tabs/music/albums/1"]')
    browser.wait_at("/tabs/music/albums/1", tab="music")
    browser.tap_css('main a[href="/tabs/music/albums/1/tracks/2"]')
    track = browser.wait_at("/tabs/music/albums/1/tracks/2", tab="music")
    # Movies, then Music again (at the track): history is Music's stack, three pages.
    browser.tap_tab("movies")
    browser.wait_at("/tabs/movies", tab="movies")
    # History up to the page shown (Forward may still hold the entries left behind).
    entries = """return navigation.entries().slice(0, navigation.currentEntry.index + 1)
        .map((entry) => new URL(entry.url).pathname)"""
    browser.wait(lambda: browser.run(entries) == ["/tabs/movies"], "history still holds Music's pages")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music/albums/1/tracks/2", tab="music", h1=track["h1"])
    browser.wait(lambda: browser.run(entries) == [
        "/tabs/music", "/tabs/music/albums/1", "/tabs/music/albums/1/tracks/2"], "history is not Music's stack")
    browser.driver.back()
    browser.wait_at("/tabs/music/albums/1", tab="music")
    browser.driver.back()
    browser.wait_at("/tabs/music", tab="music")
    assert browser.document_marked(token), "Back reloaded the page instead of showing it from memory"
    browser.driver.back()
    browser.wait(lambda: browser.driver.current_url == "about:blank", "Back at the tab's root did not leave the app")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@BOTH_JS_MODES
def test_an_expired_form_is_refused_and_changes_nothing(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    browser.get("/tabs/featured")
    # As if the session had expired since the page was loaded: the token no longer fits.
    browser.run('document.querySelector("nav.tab-bar input[name=csrf]").value = "AAAAAAAAAAAAAAAAAAAAAA";')
    browser.tap_tab("music")
    page = browser.wait_for(lambda s: s["ready"] == "complete" and s["path"] == "/select",
                            "the refused post did not show the server's answer")
    assert browser.run("return performance.getEntriesByType('navigation')[0].responseStatus;") == 403
    assert browser.driver.find_element(By.CSS_SELECTOR, ".error-code").text == "403"
    assert current_ids(page) == ["featured"], "a refused selection changed the selected tab"
    browser.get("/tabs/featured")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_retap_at_a_tabs_root_scrolls_to_the_top(browsers, viewport, js):
    """UIKit scrolls a tab's root to the top when its item is tapped again; without the
    script too (it answered 204 and the page stayed scrolled)."""
    browser = browsers.open(viewport, js=js)
    # Visiting selects the tab, so the tap below is a re-tap at its root.
    browser.get("/tabs/featured")
    browser.wait_at("/tabs/featured", tab="featured")
    browser.run("window.scrollTo(0, document.documentElement.scrollHeight);")
    browser.wait(lambda: browser.run("return scrollY;") > 100, "the page did not scroll down")
    browser.tap_tab("featured")
    browser.wait(lambda: browser.run("return document.readyState === 'complete' && scrollY === 0;"),
                 "a re-tap at the root did not scroll to the top")
    assert browser.path() == "/tabs/featured"


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet", "desktop"])
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@BOTH_JS_MODES
@pytest.mark.webkit(js=[True])  # the pages without the script are the same markup
def test_a_pushed_page_can_hide_the_bar_and_back_brings_it_back(browsers, viewport, lang, js):
    """TabPage.hidesBottomBar (UIKit's hidesBottomBarWhenPushed): the demo's player is
    shown without the bar, nothing reserves room for it, and its back item leads to a
    page with the bar again."""
    browser = browsers.open(viewport, js=js, lang=lang)
    browser.get("/tabs/music/albums/1")
    assert browser.snapshot()["bar"] is not None
    browser.tap_css("main a.play-link")
    player = browser.wait_for(lambda s: s["ready"] == "complete" and s["path"] == "/tabs/music/albums/1/play",
                              "the player did not open")
    assert player["bar"] is None, "the player shows the tab bar"
    room = browser.run("return parseFloat(getComputedStyle(document.body).paddingBottom);")
    assert room <= 40, f"{room} px are kept for a bar that is not there"
    browser.tap_css(".app-header .back-link")
    back = browser.wait_at("/tabs/music/albums/1", tab="music")
    assert back["bar"] is not None, "Back did not bring the bar back"
    assert current_ids(back) == ["music"]
