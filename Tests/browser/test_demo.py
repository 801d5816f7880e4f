# SPDX-License-Identifier: Apache-2.0
"""The demo's own tabs.json, what a newcomer's first run shows: the
search tab, 3 + More + Search on a phone, Purchased hidden until Edit shows it, and at
desktop width the sidebar with the Watch and Listen headings and its toggle; axe finds
nothing in light and dark. The other tests run on the tests' model (conftest's TEST_TABS)."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from support import visible_ids
from test_accessibility import _report

_SIDEBAR = r"""
const shown = (e) => !!e && e.getBoundingClientRect().width > 0;
return {
  sidebar: document.body.classList.contains("regular-sidebar"),
  headings: [...document.querySelectorAll("nav.tab-bar .tab-group-title")].filter(shown)
    .map((h) => h.textContent.trim()),
  toggle: shown(document.getElementById("sidebar-toggle")),
  minimizes: document.body.classList.contains("minimize-on-scroll-down"),
  // The space between the search row and the row above it.
  searchGap: (() => {
    const rows = [...document.querySelectorAll("nav.tab-bar .tab-item > .tab")].filter(shown);
    const search = rows.findIndex((row) => row.closest(".is-search"));
    return search > 0 ? rows[search].getBoundingClientRect().top - rows[search - 1].getBoundingClientRect().bottom
      : null;
  })(),
};
"""


@pytest.mark.webkit
def test_a_phone_shows_three_tabs_more_and_search(browsers_for, shipped_server):
    browser = browsers_for(shipped_server).open("phone")
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == ["featured", "music", "movies", "search"], snapshot["items"]
    assert snapshot["more"] and snapshot["more"]["visible"], "More holds the rest"
    browser.get("/more")
    rows = browser.run("return [...document.querySelectorAll('.more-list button[name=tab]')]"
                       ".filter((b) => b.getBoundingClientRect().width > 0).map((b) => b.value);")
    assert rows == ["tv", "podcasts", "audiobooks"], f"More lists the rest, Purchased hidden by default: {rows}"


def test_the_desktop_shows_the_sidebar_with_groups_and_toggle(browsers_for, shipped_server):
    browser = browsers_for(shipped_server).open("desktop")
    browser.get("/tabs/music/albums/1")
    seen = browser.run(_SIDEBAR)
    assert seen["sidebar"] and seen["toggle"] and seen["minimizes"], seen
    assert seen["headings"] == ["Watch", "Listen"], seen
    assert seen["searchGap"] >= 12, f"the search row, in no group, stands apart from Listen's rows: {seen}"
    # Edit shows Purchased again, with its group's heading.
    browser.get("/more/edit")
    browser.tap(browser.driver.find_element(By.ID, "show-purchased"))
    browser.wait(lambda: "is shown again" in browser.driver.page_source, "Purchased was not shown")
    browser.get("/tabs/purchased")
    assert "purchased" in visible_ids(browser.snapshot())
    assert browser.run(_SIDEBAR)["headings"] == ["Watch", "Listen", "Library"]


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_first_page_has_no_axe_violations(browsers_for, shipped_server, viewport, scheme):
    browser = browsers_for(shipped_server).open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/featured")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
