# SPDX-License-Identifier: Apache-2.0
"""axe-core finds no violations on every kind of page, in light and dark mode, and a
screenshot of each is kept in screenshots/ for people to look at."""

from __future__ import annotations

import json
import re

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By

from conftest import TEST_TABS, running_server

from support import ALL_VIEWPORTS

PAGES = {
    "tab": ("/tabs/music", 200),
    "drilldown": ("/tabs/music/albums/1", 200),
    "more": ("/more", 200),
    "customize": ("/more/edit", 200),
    "notfound": ("/tabs/nope", 404),
    "offline": ("/offline", 200),
}

# Colours of the text the bar shows, composited over what is behind it, with their
# contrast ratio. A canvas resolves any CSS colour syntax (color-mix, color()) to sRGB.
_BAR_CONTRAST = r"""
const canvas = document.createElement("canvas");
canvas.width = canvas.height = 1;
const ctx = canvas.getContext("2d", {willReadFrequently: true});
const rgba = (css) => {
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = "#000"; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
};
const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255, 1]);
const nav = document.querySelector("nav.tab-bar");
const barBackground = over(rgba(getComputedStyle(nav).backgroundColor), page);
// Disabled items are exempt from the contrast rule (WCAG 1.4.3).
return [...nav.querySelectorAll(".tab-title")].filter((t) => t.getBoundingClientRect().width > 0 &&
    !t.closest(".tab").disabled).map((t) => {
  const fg = over(rgba(getComputedStyle(t).color), barBackground);
  const opacity = parseFloat(getComputedStyle(t.closest(".tab")).opacity);
  const seen = over(fg.slice(0, 3).concat([opacity]), barBackground);
  return {title: t.textContent.trim(), ratio: ratio(seen, barBackground)};
});
"""


def _report(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:6]:
            messages = [check["message"] for kind in ("any", "all", "none") for check in node[kind]]
            lines.append(f"    {' '.join(node['target'])}: {'; '.join(messages)[:300]}")
    return "\n".join(lines)


@ALL_VIEWPORTS
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violations(browsers, screenshots, viewport, scheme):
    browser = browsers.open(viewport)
    browser.color_scheme(scheme)
    failures = []
    for name, (path, status) in PAGES.items():
        browser.get(path)
        assert browser.run("return matchMedia(arguments[0]).matches;", f"(prefers-color-scheme: {scheme})")
        status_seen = browser.run(
            "return performance.getEntriesByType('navigation')[0].responseStatus;")
        assert status_seen == status, f"{path} answered {status_seen}"
        assert browser.snapshot()["bar"] is not None, f"{path} has no tab bar"
        browser.screenshot(screenshots, f"{scheme}-{name}")
        axe = Axe(browser.driver)
        axe.inject()
        results = axe.run()
        if results["violations"]:
            failures.append(f"--- {path} ({scheme}, {viewport})\n{_report(results['violations'])}")
        # axe cannot see through the bar's translucent colour-mix background: check the
        # labels' contrast (WCAG AA for small text) directly.
        for label in browser.run(_BAR_CONTRAST):
            if label["ratio"] < 4.5:
                failures.append(f"--- {path} ({scheme}, {viewport}): bar label {label['title']!r} "
                                f"has contrast {label['ratio']:.2f}:1, below 4.5:1")
    assert not failures, "\n".join(failures)


# What a screen reader hears for each item a person sees in the bar, in reading order.
_BAR_NAMES = r"""
const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
return [...document.querySelectorAll("nav.tab-bar .tab-item")].filter(visible).map((li) => {
  const item = li.querySelector(".tab");
  return {id: item.name === "more" ? "more" : item.value, title: li.querySelector(".tab-title").textContent.trim(),
          left: li.getBoundingClientRect().left};
});
"""


def _spoken(browser) -> list[dict]:
    items = browser.run(_BAR_NAMES)
    elements = [e for e in browser.driver.find_elements(By.CSS_SELECTOR, "nav.tab-bar .tab-item .tab")
                if e.is_displayed()]
    assert len(elements) == len(items)
    for item, element in zip(items, elements):
        item["name"] = element.accessible_name
        item["role"] = element.aria_role
    return items


@pytest.mark.parametrize("viewport", ["phone", "landscape", "tablet", "desktop"])
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@pytest.mark.parametrize("model", ["seven", "eight"])
def test_screen_readers_count_the_items_in_the_bar(browsers_for, server, eight_tabs_server, viewport, lang, model):
    """UIKit reads "Audiobooks, four of seven", counting the items in the bar on screen:
    More is one of them and has their role; the reading order is the screen's; no space
    stands before a comma."""
    browser = browsers_for(server if model == "seven" else eight_tabs_server).open(viewport, lang=lang)
    browser.get("/tabs/featured")
    items = _spoken(browser)
    count = len(items)
    assert count >= 5, items
    # Reading order is the order on screen (right to left in Arabic).
    lefts = [item["left"] for item in items]
    assert lefts == sorted(lefts, reverse=(lang == "ar")), items
    for position, item in enumerate(items, start=1):
        name = item["name"]
        assert name.startswith(item["title"] + ","), f"the name does not start with the title: {name!r}"
        assert " ," not in name, f"a space before a comma: {name!r}"
        digits = re.findall(r"\d+", name.rsplit(",", 1)[1])
        assert digits and sorted(map(int, digits)) == sorted([position, count]), (
            f"{item['id']} is {position} of {count} on screen but reads {name!r}")
        assert item["role"] == items[0]["role"] == "button", f"{item['id']} has the role {item['role']!r}"
    if viewport == "phone":
        assert items[-1]["id"] == ("search" if model == "eight" else "more"), items
        assert any(item["id"] == "more" for item in items), items


def test_sidebar_group_headings_are_read(browsers_for, tmp_path_factory):
    """The sidebar's group headings are part of what a screen reader reads there."""
    spec = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    spec["appearance"]["regularLayout"] = "sidebar"
    for tab in spec["tabs"]:
        if tab["id"] in ("movies", "tv"):
            tab["group"] = "Watch"
    path = tmp_path_factory.mktemp("tabs") / "groups.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    with running_server("--tabs", str(path)) as srv:
        browser = browsers_for(srv).open("desktop")
        browser.get("/tabs/featured")
        headings = browser.driver.find_elements(By.CSS_SELECTOR, "nav.tab-bar .tab-group-title")
        assert headings and all(h.is_displayed() for h in headings)
        hidden = browser.run("""return [...document.querySelectorAll("nav.tab-bar .tab-group-title")]
            .filter((h) => h.closest("[aria-hidden=true]")).length;""")
        assert hidden == 0, "group headings are hidden from screen readers"
        assert browser.run("""return [...document.querySelectorAll("nav.tab-bar [role=heading]")]
            .map((h) => h.textContent.trim());""") == ["Watch"]


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_page_has_no_axe_violations(browsers_for, eight_tabs_server, viewport, scheme):
    browser = browsers_for(eight_tabs_server).open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/search?q=blue")
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_page_without_the_bar_has_no_axe_violations(browsers, viewport, scheme):
    browser = browsers.open(viewport)
    browser.color_scheme(scheme)
    browser.get("/tabs/music/albums/1/play")
    assert browser.snapshot()["bar"] is None
    axe = Axe(browser.driver)
    axe.inject()
    violations = axe.run()["violations"]
    assert not violations, _report(violations)
