# SPDX-License-Identifier: Apache-2.0
"""The sidebar toggle (UITabBarController.mode .tabSidebar): at
1024 px and wider a button switches between the sidebar and the bar, kept in the
session; a form post (303) without the script, the same post swapped in with it; bad
and stale posts change nothing."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import changed_tabs_file, pool_on_tabs
from support import BOTH_JS_MODES, DEFAULT_ORDER, visible_ids
from test_accessibility import _report

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])


@pytest.fixture(scope="module")
def sidebar(tmp_path_factory):
    """The seven tabs with the sidebar at 1024 px and wider (the toggle's default)."""
    def change(spec):
        spec["appearance"]["regularLayout"] = "sidebar"
        spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    with pool_on_tabs(changed_tabs_file(tmp_path_factory, "sidebar", change)) as pool:
        yield pool


_LAYOUT = r"""
const body = document.body.classList;
const toggle = document.getElementById("sidebar-toggle");
const r = toggle ? toggle.getBoundingClientRect() : null;
return {
  layout: body.contains("regular-sidebar") ? "sidebar" : body.contains("regular-top-bar") ? "topBar" : "bottomBar",
  toggle: toggle && r.width > 0 ? {value: toggle.value, label: toggle.getAttribute("aria-label"),
                                   left: r.left, right: r.right, top: r.top, width: r.width, height: r.height,
                                   focused: document.activeElement === toggle} : null,
  bar: document.querySelector("nav.tab-bar").getBoundingClientRect().toJSON(),
  main: document.querySelector("main").getBoundingClientRect().toJSON(),
};
"""


def _layout(browser) -> dict:
    return browser.run(_LAYOUT)


def _wait_layout(browser, layout: str) -> dict:
    browser.wait(lambda: _layout(browser)["layout"] == layout and browser.snapshot()["ready"] == "complete",
                 f"the page did not switch to the {layout}")
    return _layout(browser)


@BOTH_JS_MODES
@LANGS
def test_the_toggle_switches_between_sidebar_and_bar_and_is_kept(sidebar, js, lang):
    browser = sidebar.open("desktop", js=js, lang=lang)
    browser.get("/tabs/music/albums/1")
    seen = _layout(browser)
    assert seen["layout"] == "sidebar"
    toggle = seen["toggle"]
    assert toggle and toggle["value"] == "hide" and toggle["width"] >= 44 and toggle["height"] >= 44, toggle
    # At the top of the sidebar, inside it; the sidebar at the leading edge (right in Arabic).
    bar, width = seen["bar"], browser.snapshot()["clientWidth"]
    assert bar["width"] == pytest.approx(260, abs=1)
    assert (bar["left"] == 0) if lang != "ar" else (abs(bar["right"] - width) <= 1), bar
    assert bar["left"] <= toggle["left"] and toggle["right"] <= bar["right"] and toggle["top"] < 80, toggle
    mark = browser.mark_document()
    browser.tap(browser.driver.find_element(By.ID, "sidebar-toggle"))
    after = _wait_layout(browser, "topBar")
    assert browser.path() == "/tabs/music/albums/1", "the toggle stays on the page it was on"
    assert after["toggle"]["value"] == "show"
    assert visible_ids(browser.snapshot()) == DEFAULT_ORDER
    # The floating bar never covers the content, and the toggle sits inside it.
    assert after["bar"]["top"] < 40 and after["main"]["top"] >= after["bar"]["bottom"], after
    assert after["bar"]["left"] <= after["toggle"]["left"] <= after["toggle"]["right"] <= after["bar"]["right"]
    if js:
        assert browser.document_marked(mark), "the script swapped the page in without a reload"
        assert after["toggle"]["focused"], "focus stays on the toggle"
    else:
        assert not browser.document_marked(mark)
    # Kept in the session: another tab, a reload.
    browser.get("/tabs/movies")
    assert _layout(browser)["layout"] == "topBar"
    browser.tap_tab("tv")
    browser.wait_at("/tabs/tv", tab="tv")
    assert _layout(browser)["layout"] == "topBar"
    browser.tap(browser.driver.find_element(By.ID, "sidebar-toggle"))
    back = _wait_layout(browser, "sidebar")
    assert back["toggle"]["value"] == "hide"
    browser.get("/more")
    assert _layout(browser)["layout"] == "sidebar"


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet"])
def test_no_toggle_below_1024px(sidebar, viewport):
    browser = sidebar.open(viewport)
    snapshot = browser.get("/tabs/music")
    assert _layout(browser)["toggle"] is None
    assert abs(snapshot["bar"]["bottom"] - snapshot["innerHeight"]) <= 1
    # A choice made on a wide screen leaves phones with their bar.
    browser.run("""
        const body = new URLSearchParams({csrf: document.querySelector("input[name=csrf]").value, sidebar: "hide"});
        return fetch("/sidebar", {method: "POST", body, credentials: "same-origin"}).then((r) => r.status);
    """)
    snapshot = browser.get("/tabs/music")
    assert _layout(browser)["toggle"] is None
    assert abs(snapshot["bar"]["bottom"] - snapshot["innerHeight"]) <= 1


@BOTH_JS_MODES
def test_a_stale_toggle_says_so_and_changes_nothing(sidebar, js):
    browser = sidebar.open("desktop", js=js)
    browser.get("/tabs/podcasts")
    assert _layout(browser)["toggle"]["value"] == "hide"
    # Another window hides the sidebar (the same session): this page still offers "hide".
    status = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const body = new URLSearchParams({csrf: document.querySelector("input[name=csrf]").value, sidebar: "hide"});
        fetch("/sidebar", {method: "POST", body, credentials: "same-origin", redirect: "manual"})
          .then((r) => done(r.type === "opaqueredirect" ? 303 : r.status), () => done(0));
    """)
    assert status == 303
    browser.tap(browser.driver.find_element(By.ID, "sidebar-toggle"))
    browser.wait(lambda: browser.run(
        "return performance.getEntriesByType('navigation')[0].responseStatus;") == 409
        and browser.snapshot()["ready"] == "complete", "the stale post was not answered 409")
    message = browser.driver.find_element(By.CSS_SELECTOR, "main").text
    assert "already hidden" in message and "Nothing was changed" in message, message
    seen = _layout(browser)
    assert seen["layout"] == "topBar" and seen["toggle"]["value"] == "show", "the answer shows the state as it is"
    browser.get("/tabs/podcasts")
    assert _layout(browser)["layout"] == "topBar"


def test_an_unknown_value_or_a_missing_token_is_refused(sidebar):
    browser = sidebar.open("desktop")
    browser.get("/tabs/music")
    statuses = browser.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector("input[name=csrf]").value;
        const post = (fields) => fetch("/sidebar", {method: "POST", body: new URLSearchParams(fields),
                                                    credentials: "same-origin", redirect: "manual"})
          .then(async (r) => [r.status, await r.text()]);
        Promise.all([post({csrf, sidebar: "sideways"}), post({sidebar: "hide"}), post({csrf: "x", sidebar: "hide"})])
          .then(done, () => done(null));
    """)
    (unknown, unknown_page), (missing, _), (wrong, _) = statuses
    assert (unknown, missing, wrong) == (400, 403, 403)
    assert "sideways" in unknown_page and "show or hide" in unknown_page
    browser.get("/tabs/music")
    assert _layout(browser)["layout"] == "sidebar", "nothing was changed"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("shown", [True, False], ids=["sidebar", "bar"])
def test_the_toggle_has_no_axe_violations(sidebar, scheme, shown):
    browser = sidebar.open("desktop")
    browser.color_scheme(scheme)
    browser.get("/tabs/music")
    if not shown:
        browser.tap(browser.driver.find_element(By.ID, "sidebar-toggle"))
        _wait_layout(browser, "topBar")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
