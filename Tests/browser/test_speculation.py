# SPDX-License-Identifier: Apache-2.0
"""Speculation rules in a real browser: the likeliest next tab is prerendered, and when
the visitor goes there the prerendered page is shown at once, counts as the visit then
(not when it was fetched ahead) and brings its bar up to date."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By


def _change_language(browser, code: str) -> None:
    """The visitor's language changed elsewhere (another window of the same browser, as the
    session cookie says), over plain HTTP: the page on screen does not hear of it."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.driver.get_cookies())
    more = urllib.request.urlopen(urllib.request.Request(browser.url("/more"), headers={"Cookie": cookie}))
    token = re.search(r'name="csrf" value="([^"]+)"', more.read().decode()).group(1)
    form = urllib.parse.urlencode({"csrf": token, "lang": code}).encode()

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(browser.url("/language"), data=form, headers={"Cookie": cookie}))
        raise AssertionError("the language post was not answered with a redirect")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303, answer.code


def _shown_from_prerender(browser) -> float:
    """Goes to Music from Featured, where the rules prerender it, after the visitor's
    language changed elsewhere, and returns the page's activationStart (0: it was
    loaded, not prerendered). How long the prerender takes is not visible through
    WebDriver (DevTools' own preload events turn prerendering off), so a visitor who went
    too soon is tried again as a new one, waiting longer."""
    for wait in (1.5, 3.0, 6.0):
        browser.reset()
        browser.get("/tabs/movies")  # the session is stored: its pages may be prerendered
        browser.get("/tabs/featured")  # Music is the likeliest next tab (a count badge)
        time.sleep(wait)
        _change_language(browser, "de")
        browser.run("location.href = arguments[0];", browser.url("/tabs/music"))
        browser.wait(lambda: browser.path() == "/tabs/music", "Music was not shown")
        activation = browser.run("return performance.getEntriesByType('navigation')[0].activationStart")
        if activation > 0:
            return activation
    return 0


def test_a_prerendered_tab_shown_is_visited_then_and_brings_its_bar_up_to_date(browsers):
    browser = browsers.open("phone")
    browser.chromium_only("speculation rules")
    assert _shown_from_prerender(browser) > 0, "the page shown was never the prerendered one"
    # The document is the one prerendered before the change (English) ...
    assert browser.run("return document.documentElement.lang") == "en"
    # ... and, shown, it asks for itself again: the visit's answer is German, and the
    # page takes that answer's bar.
    music = 'nav.tab-bar button[value="music"]'
    browser.wait(lambda: "Musik" in browser.driver.find_element(By.CSS_SELECTOR, music).text,
                 "the prerendered page kept the bar of the moment it was fetched")
    # The visit was counted: GET / goes back to where the visitor was.
    browser.driver.get(browser.url("/"))
    browser.wait_at("/tabs/music", tab="music")
