# SPDX-License-Identifier: Apache-2.0
"""The floating bar ("barStyle": "floating", iOS 26): a capsule of glass inset from the
screen's edges, fully rounded, the selected item in a lens, the search tab a circle apart
at the trailing end (leading in right-to-left); a finger that scrubs across the items
selects where it lifts (one request, as a tap) and nothing when it lifts outside;
on the search tab's page the field takes the bar's place beside Cancel's circle;
minimized, the capsule is the selected item's circle with the accessory beside it;
labels and icons keep 4.5:1 over white, black and the demo's most colourful artwork;
reduced transparency gives an opaque bar, more contrast a solid one with a border,
forced colours the system's. At the four sizes, light and dark, both directions, with
the script and without. The classic bar's own tests run unchanged on the tests' model."""

from __future__ import annotations

import re
import time
import urllib.request

import pytest
from axe_selenium_python import Axe
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from conftest import BrowserPool, changed_tabs_file, running_server
from floating import GEOMETRY, contrast, rgba, worst_contrasts
from support import BOTH_JS_MODES, EVERY_VIEWPORT, current_ids


def _settled_geometry(browser) -> dict:
    """The bar's geometry once the capsule's size has stopped changing (its width eases
    while the labels settle after load): two reads 100 ms apart agree, at most 3 s."""
    last = browser.run(GEOMETRY)
    for _ in range(30):
        time.sleep(0.1)
        now = browser.run(GEOMETRY)
        if now["capsule"] == last["capsule"] and now["circle"] == last["circle"]:
            return now
        last = now
    return last
from test_accessibility import _report
from test_accessory import _start_playing, _strip
from test_minimize import _long_page, _scroll

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
SCHEMES = pytest.mark.parametrize("scheme", ["light", "dark"])


def _floating(spec: dict) -> None:
    spec["appearance"]["barStyle"] = "floating"


@pytest.fixture(scope="module")
def floating(tmp_path_factory):
    """The tests' model (seven tabs and the search tab: 3 + More + Search on a phone) with
    the floating style and /metrics on (to count the posts that reach the server)."""
    path = changed_tabs_file(tmp_path_factory, "floating", _floating)
    with running_server("--tabs", str(path), "--metrics", "on") as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture(scope="module")
def prominent(tmp_path_factory):
    """The floating model with Purchased as iOS 27's prominent tab (the search tab then
    joins the capsule)."""
    def change(spec):
        _floating(spec)
        next(tab for tab in spec["tabs"] if tab["id"] == "purchased")["role"] = "prominent"
    path = changed_tabs_file(tmp_path_factory, "floating-prominent", change)
    with running_server("--tabs", str(path)) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


@pytest.fixture(scope="module")
def minimizing(tmp_path_factory):
    """The same, minimizing while the page scrolls down."""
    def change(spec):
        _floating(spec)
        spec["appearance"]["minimizeBehavior"] = "onScrollDown"
    path = changed_tabs_file(tmp_path_factory, "floating-minimizing", change)
    with running_server("--tabs", str(path)) as srv:
        pool = BrowserPool(srv)
        try:
            yield pool
        finally:
            pool.close()


def _emulate(browser, scheme: str = "light", **features: str) -> None:
    """The colour scheme and the other media features of the system (Chromium's
    emulation; each call sets every one of them)."""
    if browser.webkit:
        browser.color_scheme(scheme)
        if features:
            browser.chromium_only("media features emulated through the DevTools protocol")
        return
    wanted = {"prefers-color-scheme": scheme, "prefers-reduced-transparency": "no-preference",
              "prefers-contrast": "no-preference", "forced-colors": "none"}
    wanted.update({name.replace("_", "-"): value for name, value in features.items()})
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "media": "", "features": [{"name": name, "value": value} for name, value in wanted.items()]})


def _posts(pool: BrowserPool) -> float:
    """POST /select answered so far (with the page, as the script asks, or with a 303)."""
    with urllib.request.urlopen(pool.server.url("/metrics"), timeout=5) as answer:
        body = answer.read().decode()
    total = 0.0
    for status in (200, 303, 204):
        match = re.search(re.escape(f'tabserver_http_requests_total{{route="/select",method="POST",status="{status}"}}')
                          + r" (\S+)", body)
        total += float(match.group(1)) if match else 0.0
    return total


@EVERY_VIEWPORT
@SCHEMES
@LANGS
@BOTH_JS_MODES
@pytest.mark.webkit(scheme=["light"])
def test_the_capsule_is_inset_round_and_of_glass(floating, viewport, scheme, lang, js):
    browser = floating.open(viewport, js=js, lang=lang)
    _emulate(browser, scheme)
    browser.get("/tabs/movies")
    g = _settled_geometry(browser)
    capsule, circle = g["capsule"], g["circle"]
    assert g["floating"] and g["content"] != "none", g
    # Inset from the sides and above the bottom edge (no safe area here), fully rounded.
    left_edge = min(capsule["left"], circle["left"])
    right_edge = max(capsule["right"], circle["right"])
    assert left_edge >= 8 and g["innerWidth"] - right_edge >= 8, g
    assert g["innerHeight"] - capsule["bottom"] >= 8 and g["innerHeight"] - circle["bottom"] >= 8, g
    assert g["radius"] >= 20 and g["radius"] >= capsule["height"] / 2 - 0.5, g
    if viewport == "desktop":
        # A capsule as wide as its items, centred.
        assert abs(left_edge - (g["innerWidth"] - right_edge)) <= 2, g
    # The search tab apart: a circle at the trailing end, 8 px or more from the capsule.
    assert abs(circle["width"] - circle["height"]) <= 1 and g["circleRadius"] >= circle["height"] / 2 - 0.5, g
    assert abs(circle["height"] - capsule["height"]) <= 1, g
    if lang == "ar":
        assert capsule["left"] - circle["right"] >= 8, f"the search circle leads in right-to-left: {g}"
    else:
        assert circle["left"] - capsule["right"] >= 8, f"the search circle trails: {g}"
    # Glass: a translucent fill, blurred and saturated behind it (WebKit's prefixed filter).
    fill = rgba(browser, g["fill"])
    assert 0.5 <= fill[3] < 1, g
    assert "blur" in g["filter"] and "saturate" in g["filter"], g
    assert "blur" in g["circleFilter"], g
    # The selected item alone sits in a lens inside the capsule.
    assert g["lensed"] == ["movies"], g
    lens = g["lens"]
    assert capsule["left"] < lens["left"] and lens["right"] < capsule["right"], g
    assert capsule["top"] < lens["top"] and lens["bottom"] < capsule["bottom"], g


@pytest.mark.parametrize("viewport", ["phone", "landscape"])
@LANGS
@pytest.mark.webkit
def test_a_scrub_selects_where_it_lifts_with_one_request(floating, viewport, lang):
    browser = floating.open(viewport, lang=lang)
    browser.get("/tabs/featured")
    browser.run("""
        window.__buzzes = 0;
        if (navigator.vibrate) navigator.vibrate = () => { window.__buzzes += 1; return true; };
        window.__trail = [];
        new MutationObserver(() => {
          const over = document.querySelector("nav.tab-bar .is-scrub-target");
          const id = over && over.value;
          if (id && window.__trail[window.__trail.length - 1] !== id) window.__trail.push(id);
        }).observe(document.querySelector("nav.tab-bar"), {subtree: true, attributes: true, attributeFilter: ["class"]});
    """)
    before = _posts(floating)
    _drag(browser, ["featured", "music", "movies"])
    browser.wait_at("/tabs/movies", tab="movies")
    # The server counts a request once its answer is written: the page can show first.
    browser.wait(lambda: _posts(floating) - before >= 1, "the lift's post was not counted")
    assert _posts(floating) - before == 1, "the lift is one request, as a tap"
    trail = browser.run("return window.__trail;")
    # The lens went item by item under the finger (the new page's bar has no trail).
    assert trail[-2:] == ["music", "movies"], trail
    if browser.run("return 'vibrate' in navigator;"):
        assert browser.run("return window.__buzzes;") >= 2, "a buzz for each item reached"


@pytest.mark.parametrize("viewport", ["phone", "landscape"])
@pytest.mark.webkit
def test_a_scrub_lifted_outside_the_bar_selects_nothing(floating, viewport):
    browser = floating.open(viewport)
    browser.get("/tabs/featured")
    before = _posts(floating)
    _drag(browser, ["featured", "music", "movies"], lift_above=180)
    # The lens goes back to the selected item; nothing was asked of the server.
    browser.wait(lambda: not browser.run(
        "return document.querySelector('nav.tab-bar').classList.contains('has-moving-lens');"), "the lens went back")
    assert browser.snapshot()["path"] == "/tabs/featured" and current_ids(browser.snapshot()) == ["featured"]
    # A tap afterwards is the only post the server has seen since.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    # The server counts a request once its answer is written: the page can show first.
    browser.wait(lambda: _posts(floating) - before >= 1, "the tap's post was not counted")
    assert _posts(floating) - before == 1, "the lift outside the bar sent nothing"


@pytest.mark.parametrize("viewport", ["phone"])
def test_without_the_script_the_bar_is_plain_taps(floating, viewport):
    browser = floating.open(viewport, js=False)
    browser.get("/tabs/featured")
    before = _posts(floating)
    _drag(browser, ["featured", "music", "movies"])
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    browser.wait(lambda: _posts(floating) - before >= 1, "the tap's post was not counted")
    assert _posts(floating) - before == 1, "a drag without the script selects nothing; the tap selects"


def _drag(browser, ids: list[str], lift_above: int = 0) -> None:
    """A finger (a mouse in WebKitGTK) pressed on the first item, slid over the others in
    steps, lifted on the last, or `lift_above` px above it."""
    rects = {item["id"]: item["rect"] for item in browser.run(GEOMETRY)["items"]}
    kind = interaction.POINTER_MOUSE if browser.webkit else interaction.POINTER_TOUCH
    finger = PointerInput(kind, "finger")
    actions = ActionBuilder(browser.driver, mouse=finger, duration=60)
    first = rects[ids[0]]
    y = int(first["top"] + first["height"] / 2)
    actions.pointer_action.move_to_location(int(first["left"] + first["width"] / 2), y).pointer_down()
    for tab in ids[1:]:
        r = rects[tab]
        for step in (0.25, 0.5):
            actions.pointer_action.move_to_location(int(r["left"] + r["width"] * step), y)
            actions.pointer_action.pause(0.05)
    if lift_above:
        actions.pointer_action.move_to_location(int(rects[ids[-1]]["left"] + 10), max(1, y - lift_above))
        actions.pointer_action.pause(0.05)
    actions.pointer_action.pointer_up()
    actions.perform()


_SEARCH_DOCK = r"""
const form = document.querySelector(".search-form"), cancel = document.getElementById("search-cancel");
const field = document.getElementById("search-query"), nav = document.querySelector("nav.tab-bar");
const box = (e) => e.getBoundingClientRect().toJSON();
const f = getComputedStyle(form), g = getComputedStyle(form, "::before"), c = getComputedStyle(cancel);
return {form: box(form), cancel: box(cancel), field: box(field), position: f.position,
        formRadius: parseFloat(g.borderTopLeftRadius), cancelRadius: parseFloat(c.borderTopLeftRadius),
        filter: g.backdropFilter || g.webkitBackdropFilter || "", fill: g.backgroundColor,
        nav: getComputedStyle(nav).visibility, cancelName: cancel.textContent.trim(),
        current: nav.querySelector("[aria-current=page]")?.value || null,
        barHeight: parseFloat(getComputedStyle(document.body).getPropertyValue("--bar-height")),
        innerWidth: document.documentElement.clientWidth, innerHeight};
"""


@EVERY_VIEWPORT
@LANGS
@BOTH_JS_MODES
@pytest.mark.webkit
def test_searching_puts_the_field_in_the_bar_and_cancel_brings_the_capsule_back(floating, viewport, lang, js):
    """iOS 26: tapping the search tab expands its field where the bar was, beside a circle
    of the tab a Cancel returns to (leading; trailing in right-to-left); a search keeps it
    there; Cancel brings the capsule back with that tab selected. At 1024 px and wider the
    field stays on the page."""
    browser = floating.open(viewport, js=js, lang=lang)
    browser.get("/tabs/movies")
    browser.tap_tab("search")
    browser.wait_at("/tabs/search")
    d = browser.run(_SEARCH_DOCK)
    assert d["current"] == "search" and d["cancelName"], d
    if viewport == "desktop":
        assert d["position"] != "fixed" and d["nav"] == "visible", d
    else:
        form, cancel, field = d["form"], d["cancel"], d["field"]
        assert d["position"] == "fixed" and d["nav"] == "hidden", d
        # At the capsule's height, above the bottom edge, both fully rounded.
        assert abs(form["height"] - d["barHeight"]) <= 1 and abs(cancel["height"] - d["barHeight"]) <= 1, d
        assert abs(form["bottom"] - cancel["bottom"]) <= 1 and d["innerHeight"] - form["bottom"] >= 8, d
        assert abs(cancel["width"] - cancel["height"]) <= 1 and d["cancelRadius"] >= cancel["height"] / 2 - 0.5, d
        assert d["formRadius"] >= form["height"] / 2 - 0.5, d
        # Cancel's circle leads (trails in right-to-left), 8 px or more from the field's capsule.
        if lang == "ar":
            assert cancel["left"] - form["right"] >= 8 and d["innerWidth"] - cancel["right"] >= 8, d
            assert form["left"] >= 8, d
        else:
            assert form["left"] - cancel["right"] >= 8 and cancel["left"] >= 8, d
            assert d["innerWidth"] - form["right"] >= 8, d
        # The field inside its capsule, taking most of it; the capsule of glass.
        assert form["left"] <= field["left"] and field["right"] <= form["right"], d
        assert field["width"] >= form["width"] * 0.4, d
        assert "blur" in d["filter"] and 0.5 <= rgba(browser, d["fill"])[3] < 1, d
    # A search from the field: the results come, the field stays where it is.
    field = browser.driver.find_element(By.ID, "search-query")
    field.send_keys("blue")
    field.submit()
    browser.wait(lambda: "q=blue" in browser.driver.current_url, "the search was not sent")
    browser.wait(lambda: browser.run("return document.querySelectorAll('main a.row').length;") > 0,
                 "results are listed")
    assert browser.run(_SEARCH_DOCK)["position"] == d["position"]
    # Cancel: back to Movies, the capsule whole again.
    browser.tap_css("#search-cancel")
    browser.wait_at("/tabs/movies", tab="movies")
    assert browser.run("return getComputedStyle(document.querySelector('nav.tab-bar')).visibility;") == "visible"


@pytest.mark.parametrize("viewport", ["phone"])
@SCHEMES
def test_the_field_in_the_bar_follows_the_systems_legibility_settings(floating, viewport, scheme):
    """Reduced transparency: the field's capsule and Cancel's circle opaque; forced
    colours: the system's."""
    browser = floating.open(viewport)
    browser.get("/tabs/movies")
    browser.tap_tab("search")
    browser.wait_at("/tabs/search")
    _emulate(browser, scheme, prefers_reduced_transparency="reduce")
    d = browser.run(_SEARCH_DOCK)
    assert rgba(browser, d["fill"])[3] == 1 and "blur" not in d["filter"], d
    _emulate(browser, scheme, forced_colors="active")
    d = browser.run(_SEARCH_DOCK)
    canvas = browser.run("""const e = document.createElement("div"); e.style.backgroundColor = "Canvas";
        document.body.append(e); const c = getComputedStyle(e).backgroundColor; e.remove(); return c;""")
    assert d["fill"] == canvas, d
    _emulate(browser, scheme)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@SCHEMES
def test_reduced_transparency_and_more_contrast(floating, viewport, scheme):
    browser = floating.open(viewport)
    _emulate(browser, scheme, prefers_reduced_transparency="reduce")
    browser.get("/tabs/music")
    g = browser.run(GEOMETRY)
    assert rgba(browser, g["fill"])[3] == 1 and g["filter"] == "none", f"reduced transparency: opaque {g}"
    assert rgba(browser, g["circleFill"])[3] == 1 and g["circleFilter"] == "none", g
    _emulate(browser, scheme, prefers_contrast="more")
    browser.get("/tabs/music")
    g = browser.run(GEOMETRY)
    assert rgba(browser, g["fill"])[3] == 1 and g["filter"] == "none", f"more contrast: solid {g}"
    assert g["border"] >= 2 and g["circleBorder"] >= 2, f"more contrast: a border {g}"
    border, fill = rgba(browser, g["borderColor"]), rgba(browser, g["fill"])
    assert contrast(border, fill) >= 4.5, g
    _emulate(browser, scheme, forced_colors="active")
    browser.get("/tabs/music")
    g = browser.run(GEOMETRY)
    canvas = rgba(browser, browser.run(
        "const p = document.createElement('i'); p.style.background = 'Canvas'; document.body.append(p);"
        "const c = getComputedStyle(p).backgroundColor; p.remove(); return c;"))
    assert rgba(browser, g["fill"]) == canvas and g["border"] >= 2, f"forced colours: the system's {g}"


@EVERY_VIEWPORT
@SCHEMES
@pytest.mark.webkit(scheme=["light"])
def test_labels_and_icons_read_over_white_black_and_artwork(floating, viewport, scheme):
    browser = floating.open(viewport)
    _emulate(browser, scheme)
    # Featured shows the artwork; Music is selected on its own page (a lens, a badge).
    browser.get("/tabs/featured")
    failing = []
    for kind in ("white", "black", "artwork"):
        for mark in worst_contrasts(browser, kind):
            if mark["ratio"] < 4.5:
                failing.append(mark)
    assert not failing, failing


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@SCHEMES
@LANGS
def test_no_axe_violations(floating, viewport, scheme, lang):
    browser = floating.open(viewport, lang=lang)
    _emulate(browser, scheme)
    for path in ("/tabs/featured", "/tabs/search", "/more"):
        browser.get(path)
        axe = Axe(browser.driver)
        axe.inject()
        violations = axe.run()["violations"]
        assert not violations, f"{path}: {_report(violations)}"


_MINIMIZED = r"""
const nav = document.querySelector("nav.tab-bar");
const list = nav.querySelector(".tab-items");
const l = list.getBoundingClientRect(), b = getComputedStyle(list, "::before");
const capsule = {left: l.left + parseFloat(b.left), right: l.right - parseFloat(b.right), top: l.top, bottom: l.bottom};
const strip = document.querySelector("aside.tab-accessory").getBoundingClientRect().toJSON();
const search = nav.querySelector(".is-search > .tab").getBoundingClientRect().toJSON();
const shown = [...nav.querySelectorAll(".tab-item:not(.is-search)")].filter((li) => li.getBoundingClientRect().width > 1)
  .map((li) => li.querySelector(".tab").value || "more");
return {capsule, strip, search, shown,
        minimized: parseFloat(getComputedStyle(document.body).getPropertyValue("--bar-minimized")) || 0};
"""


@BOTH_JS_MODES
@LANGS
@pytest.mark.webkit
def test_minimized_the_capsule_is_the_selected_circle_with_the_accessory_beside_it(minimizing, js, lang):
    browser = minimizing.open("phone", js=js, lang=lang)
    _start_playing(browser)
    assert _strip(browser)["shown"]
    _long_page(browser, "/tabs/music")
    _scroll(browser, 900)

    def minimized():
        s = browser.run(_MINIMIZED)
        c = s["capsule"]
        circle = abs((c["right"] - c["left"]) - (c["bottom"] - c["top"])) <= 0.5
        return s if s["minimized"] == 1 and circle and s["shown"] == ["music"] else None

    # Only the selected item is left, in a circle.
    s = browser.wait(minimized, "the capsule did not shrink to the selected item's circle")
    c, strip, search = s["capsule"], s["strip"], s["search"]
    # Between the circle of the selected item and the search circle, at the bar's height.
    if lang == "ar":
        assert search["right"] <= strip["left"] and strip["right"] <= c["left"], s
    else:
        assert c["right"] <= strip["left"] and strip["right"] <= search["left"], s
    assert abs((strip["top"] + strip["bottom"]) / 2 - (c["top"] + c["bottom"]) / 2) <= 2, s


_APART = r"""
const nav = document.querySelector("nav.tab-bar");
const list = nav.querySelector(".tab-items");
const l = list.getBoundingClientRect(), b = getComputedStyle(list, "::before");
const capsule = {left: l.left + parseFloat(b.left), right: l.right - parseFloat(b.right)};
const rect = (selector) => nav.querySelector(selector).getBoundingClientRect().toJSON();
const prominent = nav.querySelector(".is-prominent > .tab");
return {capsule, prominent: rect(".is-prominent > .tab"), search: rect(".is-search > .tab"),
        fill: getComputedStyle(prominent).backgroundColor,
        apart: [...nav.querySelectorAll(".is-apart > .tab")].map((tab) => tab.value),
        label: prominent.querySelector(".tab-position-compact").textContent};
"""


@BOTH_JS_MODES
@LANGS
@pytest.mark.webkit
def test_the_prominent_tab_is_a_tinted_circle_apart_and_the_search_tab_joins_the_capsule(prominent, js, lang):
    browser = prominent.open("phone", js=js, lang=lang)
    browser.get("/tabs/featured")

    def settled():
        first = browser.run(_APART)
        time.sleep(0.1)
        return first if browser.run(_APART) == first else None

    a = browser.wait(settled, "the bar did not settle")
    capsule, circle, search = a["capsule"], a["prominent"], a["search"]
    assert a["apart"] == ["purchased"], a
    # Apart: at least 8 px from the capsule, at its trailing end (leading in right-to-left).
    gap = circle["left"] - capsule["right"] if lang != "ar" else capsule["left"] - circle["right"]
    assert gap >= 8, a
    assert abs(circle["width"] - circle["height"]) <= 1, a
    # The search tab is the capsule's last item now.
    assert capsule["left"] - 0.5 <= search["left"] and search["right"] <= capsule["right"] + 0.5, a
    # Filled with the tint, opaque.
    assert rgba(browser, a["fill"])[3] > 0.9, a
    # VoiceOver counts it among the items on screen: Featured, Music, More, Search, it.
    assert a["label"].endswith(("5 of 5", "5 من 5")), a
