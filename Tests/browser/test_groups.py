# SPDX-License-Identifier: Apache-2.0
"""Declared tab groups as one tab (UIKit's UITabGroup): in the bar,
at any width, the group is one item whose page lists its children; each child opens on
the group's own stack, which the group remembers (selecting it again shows the child, a
re-tap pops to the list). In the sidebar the group is a collapsible section of its
children. `allowsReordering` lets Edit move the children among themselves."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import pool_on_tabs, running_server
from support import BOTH_JS_MODES, visible_ids
from test_accessibility import _report

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
BARS = pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet"])
CHILDREN = ["movies", "tv"]
# The group stands for Movies and TV: six items, 4 + More on a phone.
UNITS = ["featured", "music", "video", "podcasts", "audiobooks", "purchased"]
SIDEBAR = ["featured", "music", "movies", "tv", "podcasts", "audiobooks", "purchased"]


@pytest.fixture(scope="module")
def groups_file(tmp_path_factory):
    """A model of the test's own (not the shipped tabs.json): seven tabs, Movies and TV
    in the declared group "video", which allows reordering; the sidebar at desktop width."""
    def tab(id: str, title: str, **more) -> dict:
        return {"id": id, "title": title, "icon": f"{id}.svg", **more}

    spec = {
        "appearance": {"tint": "#007aff", "regularLayout": "sidebar"},
        "tabs": [
            tab("featured", "Featured", isCustomizable=False), tab("music", "Music", badge={"count": 3}),
            tab("movies", "Movies", group="video"), tab("tv", "TV Shows", group="video", badge={"text": "New"}),
            tab("podcasts", "Podcasts"), tab("audiobooks", "Audiobooks"), tab("purchased", "Purchased"),
        ],
        "groups": [{"id": "video", "title": "Video", "icon": "movies.svg", "allowsReordering": True}],
    }
    path = tmp_path_factory.mktemp("tabs") / "groups.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def grouped(groups_file):
    with pool_on_tabs(groups_file) as pool:
        yield pool


@pytest.fixture(scope="module")
def metered(groups_file):
    """A server of its own with /metrics on, to count the requests that reach it."""
    with running_server("--tabs", str(groups_file), "--metrics", "on") as srv:
        yield srv


def _requests(srv, route: str, method: str, status: int) -> float:
    with urllib.request.urlopen(srv.url("/metrics"), timeout=5) as answer:
        body = answer.read().decode()
    pattern = re.escape(f'tabserver_http_requests_total{{route="{route}",method="{method}",status="{status}"}}')
    match = re.search(pattern + r" (\S+)", body)
    return float(match.group(1)) if match else 0.0


_ROWS = r"""
return [...document.querySelectorAll("main form.more-list button.row")].filter((b) => b.offsetParent)
  .map((b) => b.value);
"""
_BACK = r"""
const link = document.querySelector(".app-header .back-link");
return link && link.offsetParent ? link.getAttribute("href") : null;
"""


def _rows(browser) -> list[str]:
    return browser.run(_ROWS)


@BARS
@BOTH_JS_MODES
@LANGS
@pytest.mark.webkit
def test_a_group_is_one_tab_with_its_own_stack(grouped, viewport, js, lang):
    browser = grouped.open(viewport, js=js, lang=lang)
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == (UNITS[:4] if viewport == "phone" else UNITS)
    browser.tap_tab("video")
    browser.wait_at("/tabs/video", tab="video", h1="Video")
    assert _rows(browser) == CHILDREN
    # A child opens on the group's stack: the group stays the selected item, Back goes to its list.
    browser.tap_css('main form.more-list button.row[value="tv"]')
    browser.wait_at("/tabs/tv", tab="video")
    assert browser.run(_BACK) == "/tabs/video"
    # Another tab, then the group again: the child, where it was left.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    browser.tap_tab("video")
    browser.wait_at("/tabs/tv", tab="video")
    # A re-tap of the selected group pops to its list, and it stays there across a reload.
    browser.tap_tab("video")
    browser.wait_at("/tabs/video", tab="video", h1="Video")
    browser.driver.get(browser.url("/"))
    browser.wait_at("/tabs/video", tab="video")


@BOTH_JS_MODES
@LANGS
def test_the_sidebar_shows_the_children_as_a_section(grouped, js, lang):
    browser = grouped.open("desktop", js=js, lang=lang)
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == SIDEBAR, "no group item in the sidebar: its children instead"
    heading = browser.driver.find_element(By.CSS_SELECTOR, 'nav.tab-bar .tab-group-toggle[value="video"]')
    # The heading is the group's title; a child's badge adds the group's badge after it.
    title = browser.run("return arguments[0].firstChild.textContent", heading)
    assert heading.is_displayed() and title.strip() == "Video"
    browser.tap_tab("tv")
    browser.wait_at("/tabs/tv", tab="tv")
    assert browser.run(_BACK) is None, "the sidebar lists the children: no way back to a list"
    browser.tap(browser.driver.find_element(By.CSS_SELECTOR, 'nav.tab-bar .tab-group-toggle[value="video"]'))
    browser.wait(lambda: visible_ids(browser.snapshot()) == [t for t in SIDEBAR if t not in CHILDREN],
                 "the group did not collapse")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_edit_reorders_the_children(grouped, viewport, js):
    browser = grouped.open(viewport, js=js)
    browser.get("/more/edit")
    up = browser.driver.find_element(By.ID, "g-up-movies")
    assert not up.is_enabled(), "Movies is first in its group"
    # Below the bar's lists: brought to the middle of the screen, as a person scrolls to it.
    browser.run('document.getElementById("g-down-movies").scrollIntoView({block: "center"})')
    browser.tap_css("#g-down-movies")
    browser.wait(lambda: browser.snapshot()["ready"] == "complete"
                 and not browser.driver.find_element(By.ID, "g-up-tv").is_enabled(), "TV did not move up")
    order = ["tv", "movies"]
    if viewport == "phone":
        browser.get("/tabs/video")
        assert _rows(browser) == order
    else:
        assert visible_ids(browser.get("/tabs/featured")) == ["featured", "music", *order, *SIDEBAR[4:]]
    # Back to the model's order.
    browser.get("/more/edit")
    browser.tap_css('button[name="action"][value="reset"]')
    browser.wait(lambda: browser.snapshot()["ready"] == "complete"
                 and not browser.driver.find_element(By.ID, "g-up-movies").is_enabled(), "reset did not apply")


def test_bad_reorders_change_nothing(grouped):
    browser = grouped.open("phone")
    browser.get("/more/edit")
    statuses = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector("input[name=csrf]").value;
        const version = document.querySelector("input[name=version]").value;
        const post = (fields) => fetch("/more/edit", {method: "POST", body: new URLSearchParams(fields),
                                                      credentials: "same-origin", redirect: "manual"})
          .then((r) => r.type === "opaqueredirect" ? 303 : r.status);
        (async () => [
          await post({csrf, version, tab: "nope", action: "up"}),
          await post({version, tab: "tv", action: "up"}),
          await post({csrf, version, tab: "tv", action: "up"}),
          await post({csrf, version, tab: "tv", action: "down"}),
        ])().then(done, () => done(null));
    """)
    assert statuses == [400, 403, 303, 409]
    browser.get("/tabs/video")
    assert _rows(browser) == ["tv", "movies"], "only the good post applied"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "tablet"])
def test_the_group_page_has_no_axe_violations(grouped, scheme, viewport):
    browser = grouped.open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/video")
    browser.wait_at("/tabs/video", tab="video")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)


def test_a_tap_on_the_group_costs_one_request(browsers_for, metered):
    """With the script, a tap on the group's item is one post answered with the page it
    leads to (the list, or the child on its stack), as a tab's is."""
    browser = browsers_for(metered).open("phone")
    # The visitor asks to save data: app.js prefetches nothing, so only the taps' requests count.
    driver = browser.driver
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "if (navigator.connection) Object.defineProperty(navigator.connection, 'saveData', {get: () => true});"})
    loads = _requests(metered, "/tabs/{tab}", "GET", 200)
    browser.get("/tabs/featured")
    # Counted once their answers are sent: the load's own request, and the service worker
    # fetching the page again to keep it (a first visit's page came before the worker).
    browser.wait(lambda: _requests(metered, "/tabs/{tab}", "GET", 200) - loads >= 2,
                 "the load and the worker's copy of the page were not both counted")
    posts = _requests(metered, "/select", "POST", 200)
    pages = _requests(metered, "/tabs/{tab}", "GET", 200)
    redirects = _requests(metered, "/select", "POST", 303)
    browser.tap_tab("video")
    browser.wait_at("/tabs/video", tab="video", h1="Video")
    browser.tap_css('main form.more-list button.row[value="tv"]')
    browser.wait_at("/tabs/tv", tab="video")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    browser.tap_tab("video")
    browser.wait_at("/tabs/tv", tab="video")
    browser.wait(lambda: _requests(metered, "/select", "POST", 200) - posts >= 4, "a tap's post was not counted")
    assert _requests(metered, "/select", "POST", 200) - posts == 4, "each tap is one post answered with its page"
    assert _requests(metered, "/select", "POST", 303) == redirects, "a tap was answered with a redirect"
    assert _requests(metered, "/tabs/{tab}", "GET", 200) == pages, "a tap cost a second request"
