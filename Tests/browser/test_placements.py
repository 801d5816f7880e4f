# SPDX-License-Identifier: Apache-2.0
"""Hidden and placed tabs (UITab.allowsHiding, isHiddenByDefault,
preferredPlacement): Edit hides and shows the tabs that allow it with plain form posts
(303), the placements hold in the bar, More and the sidebar, and bad or stale posts
change nothing."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import changed_tabs_file, pool_on_tabs
from support import BOTH_JS_MODES, EVERY_VIEWPORT, visible_ids
from test_accessibility import _report

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])

PLACEMENTS = {
    "featured": {"preferredPlacement": "fixed"},
    "music": {"preferredPlacement": "movable"},
    "movies": {"allowsHiding": True},
    "tv": {"preferredPlacement": "optional"},
    "audiobooks": {"preferredPlacement": "sidebarOnly"},
    "purchased": {"preferredPlacement": "pinned"},
}


@pytest.fixture(scope="module")
def placed(tmp_path_factory):
    """The seven tabs with placements (Featured fixed, Music movable, Movies hideable, TV
    optional, Audiobooks sidebar-only, Purchased pinned) and the sidebar at 1024 px."""
    def change(spec):
        spec["appearance"]["regularLayout"] = "sidebar"
        spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
        for tab in spec["tabs"]:
            tab.pop("isCustomizable", None)
            tab.update(PLACEMENTS.get(tab["id"], {}))
    with pool_on_tabs(changed_tabs_file(tmp_path_factory, "placed", change)) as pool:
        yield pool


def _expected_bar(viewport: str, shown_tv: bool = False, hidden_movies: bool = False) -> list[str]:
    listed = ["featured", "music"] + ([] if hidden_movies else ["movies"]) + (["tv"] if shown_tv else []) + ["podcasts"]
    if viewport == "desktop":
        return listed + ["audiobooks", "purchased"]
    if viewport == "phone" and len(listed) > 4:
        return listed[:3] + ["purchased"]
    return listed + ["purchased"]


def _status(browser) -> int:
    return browser.run("return performance.getEntriesByType('navigation')[0].responseStatus;")


def _press(browser, button_id_suffix: str) -> None:
    buttons = browser.driver.find_elements(By.CSS_SELECTOR, f'[id$="{button_id_suffix}"]')
    button = next(b for b in buttons if b.is_displayed())
    browser.tap(button)


@EVERY_VIEWPORT
@BOTH_JS_MODES
@LANGS
def test_edit_hides_and_shows_and_the_bar_follows(placed, viewport, js, lang):
    browser = placed.open(viewport, js=js, lang=lang)
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == _expected_bar(viewport)
    # The pinned tab sits at the bar's trailing end: right in LTR, left in RTL.
    items = {item["id"]: item["rect"] for item in snapshot["items"] if item["visible"]}
    if viewport != "desktop":
        others = [rect for key, rect in items.items() if key != "purchased"]
        if lang == "ar":
            assert all(items["purchased"]["right"] <= rect["left"] + 0.5 for rect in others), items
        else:
            assert all(items["purchased"]["left"] >= rect["right"] - 0.5 for rect in others), items
    # TV is hidden: no page; Audiobooks lives in the sidebar only, but has its pages.
    browser.driver.get(browser.url("/tabs/tv"))
    browser.wait(lambda: browser.snapshot()["ready"] == "complete", "the 404 did not load")
    assert _status(browser) == 404
    assert browser.get("/tabs/audiobooks")["h1"]

    browser.get("/more/edit")
    assert browser.driver.find_element(By.ID, "show-tv").is_displayed()
    assert not browser.driver.find_elements(By.CSS_SELECTOR, '[id$="-hide-featured"], [id$="-hide-purchased"]')
    mark = browser.mark_document()
    browser.tap(browser.driver.find_element(By.ID, "show-tv"))
    browser.wait(lambda: not browser.driver.find_elements(By.ID, "show-tv")
                 and browser.snapshot()["ready"] == "complete", "showing TV did not answer")
    notice = browser.driver.find_element(By.CSS_SELECTOR, "main .notice").text
    assert ("is shown again" in notice) if lang != "ar" else ("عاد" in notice), notice
    assert browser.path() == "/more/edit"
    assert not browser.driver.find_elements(By.ID, "show-tv")
    if js:
        assert browser.document_marked(mark), "the script swapped the page in"
    # Hide Movies: its row leaves the lists, and focus (or the fragment) goes to its Show button.
    _press(browser, "-hide-movies")
    browser.wait(lambda: browser.driver.find_elements(By.ID, "show-movies")
                 and browser.snapshot()["ready"] == "complete", "hiding Movies did not answer")
    focus = browser.run("return [location.hash, document.activeElement && document.activeElement.id];")
    assert "#show-movies" in focus or "show-movies" in focus, focus
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == _expected_bar(viewport, shown_tv=True, hidden_movies=True)
    browser.driver.refresh()
    snapshot = browser.wait_at("/tabs/featured", tab="featured")
    assert visible_ids(snapshot) == _expected_bar(viewport, shown_tv=True, hidden_movies=True)
    if viewport == "phone":
        browser.get("/tabs/podcasts")
        browser.get("/more")
        more = [el.get_attribute("value") for el in browser.driver.find_elements(By.CSS_SELECTOR, "main button[name=tab]")
                if el.is_displayed()]
        assert "audiobooks" not in more and "movies" not in more and "purchased" not in more, more


@BOTH_JS_MODES
def test_bad_and_stale_posts_change_nothing(placed, js):
    browser = placed.open("phone", js=js)
    browser.get("/more/edit")
    statuses = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector("input[name=csrf]").value;
        const version = document.querySelector("input[name=version]").value;
        const post = (fields) => fetch("/more/edit", {method: "POST", body: new URLSearchParams(fields),
                                                      credentials: "same-origin", redirect: "manual"})
          .then(async (r) => [r.status, await r.text()]);
        Promise.all([
          post({csrf, version, action: "hide", tab: "ghost"}),
          post({csrf, version, action: "hide", tab: "featured"}),
          post({csrf, version, action: "hide", tab: "purchased"}),
          post({version, action: "hide", tab: "movies"}),
        ]).then(done, () => done(null));
    """)
    (unknown, unknown_page), (fixed, fixed_page), (pinned, _), (forged, _) = statuses
    assert (unknown, fixed, pinned, forged) == (400, 400, 400, 403)
    assert "ghost" in unknown_page and "does not allow hiding" in fixed_page
    # Another window hides Movies; this page (from before) then asks to show TV.
    status = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const body = new URLSearchParams({csrf: document.querySelector("input[name=csrf]").value,
                                          version: document.querySelector("input[name=version]").value,
                                          action: "hide", tab: "movies"});
        fetch("/more/edit", {method: "POST", body, credentials: "same-origin", redirect: "manual"})
          .then((r) => done(r.type === "opaqueredirect" ? 303 : r.status), () => done(0));
    """)
    assert status == 303
    browser.tap(browser.driver.find_element(By.ID, "show-tv"))
    browser.wait(lambda: _status(browser) == 409 and browser.snapshot()["ready"] == "complete"
                 if not js else browser.driver.find_elements(By.ID, "show-movies"),
                 "the stale post was not answered 409")
    assert browser.driver.find_elements(By.ID, "show-movies"), "the answer shows the arrangement as it is"
    assert browser.driver.find_elements(By.ID, "show-tv"), "TV stays hidden"
    snapshot = browser.get("/tabs/featured")
    assert visible_ids(snapshot) == _expected_bar("phone", hidden_movies=True)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_placements_have_no_axe_violations(placed, viewport, scheme):
    browser = placed.open(viewport)
    browser.color_scheme(scheme)
    for path in ("/tabs/featured", "/more/edit"):
        browser.get(path)
        axe = Axe(browser.driver)
        axe.inject()
        violations = axe.run()["violations"]
        assert not violations, _report(violations)
