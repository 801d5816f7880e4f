"""The search tab (`"role": "search"`): trailing in the bar (leading in right-to-left),
a search landmark whose field has focus, results at a shareable URL, and the last query
remembered when the tab is selected again. JavaScript on and off."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, running_server


@pytest.fixture(scope="module")
def search_server():
    folder = Path(tempfile.mkdtemp(prefix="tabserver-search-"))
    model = json.loads((ROOT / "tabs.json").read_text())
    model["tabs"].insert(1, {"id": "search", "title": "Search", "icon": "search.svg", "role": "search"})
    (folder / "tabs.json").write_text(json.dumps(model))
    with running_server("--tabs", str(folder / "tabs.json")) as srv:
        yield srv
    shutil.rmtree(folder, ignore_errors=True)


def _bar_edges(browser) -> dict:
    return browser.run(
        "const items = Array.from(document.querySelectorAll('nav.tab-bar .tab-item'))"
        "  .filter(li => li.offsetParent !== null);"
        "const box = li => li.getBoundingClientRect();"
        "const search = items.find(li => li.classList.contains('is-search'));"
        "return {search: search ? box(search).left : null,"
        "        min: Math.min(...items.map(li => box(li).left)), max: Math.max(...items.map(li => box(li).left))};")


@pytest.mark.parametrize("lang", ["en-US,en", "ar"])
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
