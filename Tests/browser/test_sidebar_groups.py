# SPDX-License-Identifier: Apache-2.0
"""Tab groups in the sidebar (UITabGroup): at 1024
px and wider each group's heading collapses and expands its section, a button of the
bar's form (303 without the script, swapped in with it), kept in the session; narrower
screens keep the bar, without headings."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import changed_tabs_file, pool_on_tabs
from support import BOTH_JS_MODES, DEFAULT_ORDER, visible_ids
from test_accessibility import _report

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
GROUPS = {"movies": "Watch", "tv": "Watch", "podcasts": "Listen", "audiobooks": "Listen"}


@pytest.fixture(scope="module")
def grouped(tmp_path_factory):
    """The seven tabs in the sidebar layout, Movies and TV in "Watch", Podcasts and
    Audiobooks in "Listen"."""
    def change(spec):
        spec["appearance"]["regularLayout"] = "sidebar"
        spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
        for tab in spec["tabs"]:
            if tab["id"] in GROUPS:
                tab["group"] = GROUPS[tab["id"]]
    with pool_on_tabs(changed_tabs_file(tmp_path_factory, "grouped", change)) as pool:
        yield pool


_TOGGLES = r"""
return [...document.querySelectorAll("nav.tab-bar .tab-group-toggle")].map((b) => ({
  name: b.value, expanded: b.getAttribute("aria-expanded"), shown: b.getBoundingClientRect().height > 0,
  focused: document.activeElement === b, height: b.getBoundingClientRect().height,
}));
"""


def _toggle(browser, name: str):
    return browser.driver.find_element(By.CSS_SELECTOR, f'nav.tab-bar .tab-group-toggle[value="{name}"]')


@BOTH_JS_MODES
@LANGS
def test_a_group_collapses_and_stays_collapsed(grouped, js, lang):
    browser = grouped.open("desktop", js=js, lang=lang)
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == DEFAULT_ORDER
    toggles = browser.run(_TOGGLES)
    assert [(t["name"], t["expanded"], t["shown"]) for t in toggles] == [("Watch", "true", True), ("Listen", "true", True)]
    assert all(t["height"] >= 44 for t in toggles), toggles
    mark = browser.mark_document()
    browser.tap(_toggle(browser, "Watch"))
    browser.wait(lambda: browser.run(_TOGGLES)[0]["expanded"] == "false" and browser.snapshot()["ready"] == "complete",
                 "the group did not collapse")
    assert browser.path() == "/tabs/featured"
    assert visible_ids(browser.snapshot()) == [t for t in DEFAULT_ORDER if t not in ("movies", "tv")]
    if js:
        assert browser.document_marked(mark), "the script swapped the page in"
        assert browser.run(_TOGGLES)[0]["focused"], "focus stays on the heading's button"
    # Kept in the session: another page, a reload.
    browser.get("/tabs/music")
    browser.driver.refresh()
    snapshot = browser.wait_at("/tabs/music", tab="music")
    assert visible_ids(snapshot) == [t for t in DEFAULT_ORDER if t not in ("movies", "tv")]
    browser.tap(_toggle(browser, "Watch"))
    browser.wait(lambda: browser.run(_TOGGLES)[0]["expanded"] == "true" and browser.snapshot()["ready"] == "complete",
                 "the group did not expand")
    assert visible_ids(browser.snapshot()) == DEFAULT_ORDER


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet"])
@LANGS
def test_narrower_screens_keep_the_bar_without_headings(grouped, viewport, lang):
    browser = grouped.open(viewport, lang=lang)
    snapshot = browser.get("/tabs/featured")
    assert not any(t["shown"] for t in browser.run(_TOGGLES))
    expected = DEFAULT_ORDER[:4] if viewport == "phone" else DEFAULT_ORDER
    assert visible_ids(snapshot) == expected
    # A section collapsed on a wide screen leaves the bar whole.
    status = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const body = new URLSearchParams({csrf: document.querySelector("input[name=csrf]").value, collapse: "Watch"});
        fetch("/sidebar/group", {method: "POST", body, credentials: "same-origin", redirect: "manual"})
          .then((r) => done(r.type === "opaqueredirect" ? 303 : r.status), () => done(0));
    """)
    assert status == 303
    assert visible_ids(browser.get("/tabs/featured")) == expected


def test_bad_and_stale_posts_change_nothing(grouped):
    browser = grouped.open("desktop")
    browser.get("/tabs/featured")
    statuses = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector("input[name=csrf]").value;
        const post = (fields) => fetch("/sidebar/group", {method: "POST", body: new URLSearchParams(fields),
                                                          credentials: "same-origin", redirect: "manual"})
          .then(async (r) => [r.status, await r.text()]);
        Promise.all([post({csrf, collapse: "Read"}), post({collapse: "Watch"}), post({csrf, expand: "Watch"})])
          .then(done, () => done(null));
    """)
    (unknown, unknown_page), (forged, _), (stale, stale_page) = statuses
    assert (unknown, forged, stale) == (400, 403, 409)
    assert "Read" in unknown_page and "already expanded" in stale_page
    assert visible_ids(browser.get("/tabs/featured")) == DEFAULT_ORDER


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_groups_have_no_axe_violations(grouped, scheme):
    browser = grouped.open("desktop")
    browser.color_scheme(scheme)
    browser.get("/tabs/featured")
    browser.tap(_toggle(browser, "Listen"))
    browser.wait(lambda: browser.run(_TOGGLES)[1]["expanded"] == "false" and browser.snapshot()["ready"] == "complete",
                 "the group did not collapse")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
