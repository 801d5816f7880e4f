"""The search tab (`"role": "search"`, in the shipped tabs.json and the tests' model): trailing in the bar
(leading in right-to-left), a styled search landmark whose field has focus, results at a
shareable URL, and the last query remembered when the tab is selected again. JavaScript
on and off."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import ROOT

from support import BOTH_JS_MODES, EVERY_VIEWPORT


@pytest.fixture(scope="module")
def search_server(eight_tabs_server):
    """The tests' eight-tab model has the search tab: no model of its own."""
    return eight_tabs_server


def _bar_edges(browser) -> dict:
    return browser.run(
        "const items = Array.from(document.querySelectorAll('nav.tab-bar .tab-item'))"
        "  .filter(li => li.offsetParent !== null);"
        "const box = li => li.getBoundingClientRect();"
        "const search = items.find(li => li.classList.contains('is-search'));"
        "return {search: search ? box(search).left : null,"
        "        min: Math.min(...items.map(li => box(li).left)), max: Math.max(...items.map(li => box(li).left))};")


@pytest.mark.parametrize("lang", ["en-US,en", "ar"])
@pytest.mark.webkit
def test_search_sits_at_the_trailing_end(search_server, browsers_for, lang):
    browser = browsers_for(search_server).open("phone", lang=lang)
    browser.get("/tabs/movies")
    edges = _bar_edges(browser)
    assert edges["search"] is not None, "the search tab is in the bar"
    expected = edges["min"] if lang == "ar" else edges["max"]
    assert edges["search"] == expected, edges


@pytest.mark.parametrize("js", [False, True])
def test_search_field_results_and_remembered_query(search_server, browsers_for, js):
    browser = browsers_for(search_server).open("desktop", js=js)
    browser.get("/tabs/search")
    assert browser.run("return document.querySelector('[role=search]') !== null;")
    if not js:
        assert browser.run("return document.activeElement && document.activeElement.id;") == "search-query"
    field = browser.driver.find_element("id", "search-query")
    field.send_keys("blue")
    field.submit()
    browser.wait(lambda: "q=blue" in browser.driver.current_url, "results have a shareable URL")
    browser.wait(lambda: browser.run("return document.querySelectorAll('main a.row').length;") > 0,
                 "results are listed")
    browser.tap_tab("music")
    browser.wait(lambda: browser.path() == "/tabs/music", "on Music")
    browser.tap_tab("search")
    browser.wait(lambda: "q=blue" in browser.driver.current_url, "selecting Search returns to the last query")


def test_the_shipped_model_has_a_search_tab():
    tabs = json.loads((ROOT / "tabs.json").read_text())["tabs"]
    assert [tab["id"] for tab in tabs if tab.get("role") == "search"] == ["search"]


# The search page's styles as the visitor meets them.
_SEARCH_STYLES = r"""
const field = document.getElementById("search-query");
const label = document.querySelector("label[for=search-query]");
const button = document.querySelector("form[role=search] button[type=submit]");
const heading = document.getElementById("search-results");
const f = field.getBoundingClientRect(), l = label.getBoundingClientRect();
const plain = document.createElement("button");
document.body.append(plain);
const plainBackground = getComputedStyle(plain).backgroundColor;
plain.remove();
return {
  fieldFont: parseFloat(getComputedStyle(field).fontSize), fieldHeight: f.height, fieldWidth: f.width,
  labelGap: Math.max(f.top - l.bottom, f.left - l.right),
  buttonHeight: button.getBoundingClientRect().height,
  buttonBackground: getComputedStyle(button).backgroundColor, plainBackground,
  buttonRadius: parseFloat(getComputedStyle(button).borderTopLeftRadius),
  headingTransform: heading ? getComputedStyle(heading).textTransform : null,
  headingText: heading ? heading.textContent : null,
};
"""


@EVERY_VIEWPORT
@pytest.mark.webkit
def test_search_page_is_styled(search_server, browsers_for, viewport):
    browser = browsers_for(search_server).open(viewport)
    browser.get("/tabs/search?q=Blue")
    styles = browser.run(_SEARCH_STYLES)
    # iOS Safari zooms the page in on a focused field whose text is below 16 px.
    assert styles["fieldFont"] >= 16, styles
    assert styles["fieldHeight"] >= 44 and styles["buttonHeight"] >= 44, styles
    assert styles["fieldWidth"] >= 200, styles
    assert styles["labelGap"] >= 4, f"the label sits against the field: {styles}"
    assert styles["buttonBackground"] != styles["plainBackground"], f"the button is the browser's default: {styles}"
    assert styles["buttonRadius"] >= 8, styles
    # The query is shown as typed, not upper-cased.
    assert styles["headingTransform"] == "none", styles
    assert "Blue" in styles["headingText"], styles


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_selecting_search_focuses_the_field(search_server, browsers_for, viewport, js):
    browser = browsers_for(search_server).open(viewport, js=js)
    browser.get("/tabs/movies")
    browser.tap_tab("search")
    browser.wait(lambda: browser.path() == "/tabs/search", "on Search")
    browser.wait(lambda: browser.run("return document.activeElement && document.activeElement.id;") == "search-query",
                 "the search field has focus")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_cancelling_the_search_returns_to_the_tab_before_it(search_server, browsers_for, viewport, lang, js):
    """iOS 26: cancelling the search (its Cancel button, or Escape with the script)
    returns to the tab that was selected before it, where it was left (feature 15)."""
    browser = browsers_for(search_server).open(viewport, js=js, lang=lang)
    browser.get("/tabs/movies")
    show = browser.run("return document.querySelector('main a.row').getAttribute('href');")
    browser.get(show)
    browser.tap_tab("search")
    browser.wait_at("/tabs/search", tab="search")
    browser.tap_css("#search-cancel")
    browser.wait_at(show, tab="movies")
    if js:
        browser.tap_tab("search")
        browser.wait_at("/tabs/search", tab="search")
        # The field has focus and is empty: Escape cancels.
        browser.wait(lambda: browser.run("return document.activeElement.id;") == "search-query", "field focused")
        ActionChains(browser.driver).send_keys(Keys.ESCAPE).perform()
        browser.wait_at(show, tab="movies")
