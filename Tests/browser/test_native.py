# SPDX-License-Identifier: Apache-2.0
"""Feels native on every width: one test (or more) per defect, at phone
portrait and landscape, tablet and desktop sizes, JavaScript on and off."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import BOTH_JS_MODES, EVERY_VIEWPORT, PHONES, visible_ids

LANGS = pytest.mark.parametrize("lang", ["en-US,en", "de", "ja", "ar"], ids=["en", "de", "ja", "ar"])

_VISIBLE = r"""
const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
"""


def _edit(browser, tab: str, action: str) -> None:
    """Presses the visible `action` button (up, down, bar, more) of `tab` on the Edit page."""
    buttons = [b for b in browser.driver.find_elements(
        By.XPATH, f'//form[input[@name="tab" and @value="{tab}"]]//button[@name="action" and @value="{action}"]')
        if b.is_displayed()]
    assert buttons and buttons[0].is_enabled(), f"no enabled {action} button for {tab}"
    browser.tap(buttons[0])


def _edit_lists(browser) -> dict:
    """The visible lists of the Edit page: tab ids in the bar and in More."""
    return browser.run(_VISIBLE + r"""
const lists = [...document.querySelectorAll("ol.customize-list")].filter(visible);
const ids = (list) => [...list.querySelectorAll("li.customize-row")].map((row) =>
  row.dataset.tab || row.querySelector("input[name=tab]")?.value || "featured");
const bar = lists.find((l) => (l.getAttribute("aria-labelledby") || "").startsWith("bar-heading"));
const more = lists.find((l) => (l.getAttribute("aria-labelledby") || "").startsWith("more-heading"));
return {ready: document.readyState, path: location.pathname, bar: bar ? ids(bar) : [], more: more ? ids(more) : []};
""")


def _wait_edit(browser, predicate, message: str) -> dict:
    def check():
        lists = _edit_lists(browser)
        return lists if lists["ready"] == "complete" and lists["path"] == "/more/edit" and predicate(lists) else None

    return browser.wait(check, f"{message}; last: {_edit_lists(browser)}")


# 1. Text badges size to their text.

@EVERY_VIEWPORT
@pytest.mark.webkit
def test_text_badges_size_to_their_text(browsers, viewport):
    browser = browsers.open(viewport)
    if viewport == "phone":
        # Audiobooks ("New") sits in More on the phone: move it into the bar first.
        browser.get("/more/edit")
        _edit(browser, "audiobooks", "bar")
        _wait_edit(browser, lambda l: "audiobooks" in l["bar"], "audiobooks did not move into the bar")
    snapshot = browser.get("/tabs/featured")
    assert "audiobooks" in visible_ids(snapshot)
    badges = browser.run(_VISIBLE + r"""
return [...document.querySelectorAll("nav.tab-bar .tab-badge:not(.is-dot)")].filter(visible).map((b) => ({
  text: b.textContent, scrollWidth: b.scrollWidth, clientWidth: b.clientWidth,
  tab: b.closest("button").value}));
""")
    new = [badge for badge in badges if badge["tab"] == "audiobooks"]
    assert new and new[0]["text"] == "New", badges
    for badge in badges:
        assert badge["scrollWidth"] <= badge["clientWidth"] + 0.5, f"the badge {badge['text']!r} is cut: {badge}"


# 2. The Edit page shows whole names and the arrangement of this width.

@EVERY_VIEWPORT
@LANGS
def test_edit_page_shows_whole_names_and_the_arrangement_on_screen(browsers, viewport, lang):
    browser = browsers.open(viewport, lang=lang)
    snapshot = browser.get("/more/edit")
    titles = browser.run(_VISIBLE + r"""
return [...document.querySelectorAll(".customize-row .row-title")].filter(visible).map((t) => ({
  text: t.textContent, cut: t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1}));
""")
    assert len(titles) == 7, titles
    assert not [t for t in titles if t["cut"]], titles
    assert browser.run(_WORDS, ".customize-row .row-title") == [], "a name breaks inside a word"
    overlaps = browser.run(_VISIBLE + r"""
return [...document.querySelectorAll(".customize-row")].filter(visible).filter((row) => {
  const i = row.querySelector(".tab-icon").getBoundingClientRect(), t = row.querySelector(".row-title").getBoundingClientRect();
  return i.left < t.right - 0.5 && t.left < i.right - 0.5 && i.top < t.bottom - 0.5 && t.top < i.bottom - 0.5;
}).map((row) => row.dataset.tab);
""")
    assert overlaps == [], f"icons cover the names of {overlaps}"
    lists = _edit_lists(browser)
    assert lists["bar"] == visible_ids(snapshot), (lists, visible_ids(snapshot))
    assert not set(lists["more"]) & set(visible_ids(snapshot)), lists


# 3. Edit steps keep focus and place, say what they swap, line up, and the page has a name.

@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@BOTH_JS_MODES
def test_edit_step_keeps_focus_on_the_row(browsers, viewport, js):
    browser = browsers.open(viewport, js=js)
    browser.get("/more/edit")
    button = [b for b in browser.driver.find_elements(
        By.XPATH, '//form[input[@name="tab" and @value="movies"]]//button[@value="down"]') if b.is_displayed()][0]
    browser.run("arguments[0].focus();", button)
    button.send_keys(Keys.ENTER)
    _wait_edit(browser, lambda l: l["bar"].index("movies") > l["bar"].index("tv") if "tv" in l["bar"] else False,
               "movies did not move down")
    focus = browser.wait(lambda: browser.run(r"""
const el = document.activeElement;
if (!el || el === document.body || !el.closest("li.customize-row")) return null;
const r = el.getBoundingClientRect();
return {row: el.closest("li.customize-row").dataset.tab, id: el.id, inView: r.top >= 0 && r.bottom <= innerHeight};
"""), "focus fell out of the moved row")
    assert focus["row"] == "movies" and focus["inView"], focus


def test_to_more_says_what_it_swaps(browsers):
    browser = browsers.open("phone")
    browser.get("/more/edit")
    _edit(browser, "tv", "more")
    _wait_edit(browser, lambda l: "tv" in l["more"], "TV Shows did not move to More")
    status = browser.run("return document.querySelector('main [role=status]')?.textContent || '';")
    assert "TV Shows" in status and "Podcasts" in status, status


@EVERY_VIEWPORT
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["en", "ar"])
def test_edit_buttons_line_up_and_the_page_is_named(browsers, viewport, lang):
    browser = browsers.open(viewport, lang=lang)
    browser.get("/more/edit")
    columns = browser.run(_VISIBLE + r"""
const xs = (value) => [...document.querySelectorAll(`.customize-row button[value=${value}]`)].filter(visible)
  .map((b) => Math.round(b.getBoundingClientRect().left));
return {up: xs("up"), down: xs("down"), title: document.title, h1: document.querySelector("h1").textContent};
""")
    assert len(set(columns["up"])) == 1 and len(columns["up"]) >= 3, columns
    assert len(set(columns["down"])) == 1, columns
    if lang.startswith("en"):
        assert columns["title"].startswith("Edit tabs") and columns["h1"] == "Edit tabs", columns


# 4. History holds no duplicates.

@BOTH_JS_MODES
def test_retap_and_edit_steps_add_no_history_entries(browsers, js):
    browser = browsers.open("phone", js=js)
    browser.get("/tabs/featured")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    entries = browser.run("return history.length;")
    if js:
        # A re-tap at the root: nothing to show (204), the script scrolls up. Without it
        # the browser loads the root again to show it from the top,
        # which a browser records as a navigation: test_retap_at_a_tabs_root_scrolls_to_the_top.
        browser.tap_tab("music")
        time.sleep(0.5)
        browser.wait_at("/tabs/music", tab="music")
        assert browser.run("return history.length;") == entries
    else:
        token = browser.mark_document()
        browser.tap_tab("music")
        browser.wait(lambda: not browser.document_marked(token), "the root was not loaded again")
        browser.wait_at("/tabs/music", tab="music")
        assert browser.run("return history.length;") <= entries + 1
    if js:
        browser.get("/more/edit")
        entries = browser.run("return history.length;")
        _edit(browser, "music", "down")
        _wait_edit(browser, lambda l: l["bar"][1] == "movies", "music did not move down")
        _edit(browser, "music", "up")
        _wait_edit(browser, lambda l: l["bar"][1] == "music", "music did not move up")
        assert browser.run("return history.length;") == entries


# 5. A confirmation is asked where the tap happened, in the page's language.

@BOTH_JS_MODES
def test_confirmation_from_more_is_asked_on_more(browsers, js):
    browser = browsers.open("phone", js=js, lang="de")
    browser.get("/more")
    browser.tap_css('.more-list button[value="purchased"]')
    browser.wait(lambda: browser.run("return location.search;") == "?confirm=purchased", "no question on More")
    browser.wait_at("/more")
    for reload in (False, True):
        if reload:
            browser.driver.refresh()
            browser.wait_at("/more")
        notice = browser.run("""
            const n = document.querySelector("main .notice");
            return n && {text: n.textContent, confirm: !!n.querySelector("button[name=confirmed], input[name=confirmed]"),
                         cancel: n.querySelector(".notice-cancel")?.getAttribute("href")};
        """)
        assert notice and "Bestellverlauf" in notice["text"] and notice["confirm"], notice
        assert notice["cancel"] == "/more", notice
    browser.tap_css("main .notice-cancel")
    browser.wait(lambda: browser.run("return location.search === '' && !document.querySelector('main .notice');"),
                 "Cancel did not dismiss the question")


# 6. A tab opened from More has a back item to More and keeps its place.

@BOTH_JS_MODES
def test_a_tab_opened_from_more_goes_back_to_more_and_keeps_its_place(browsers, js):
    browser = browsers.open("phone", js=js)
    browser.get("/tabs/podcasts/shows/1")
    browser.get("/tabs/podcasts")
    back = browser.driver.find_element(By.CSS_SELECTOR, ".app-header .back-link")
    assert back.is_displayed() and back.get_attribute("href").endswith("/more"), back.get_attribute("href")
    browser.get("/tabs/podcasts/shows/1")
    browser.tap_more()
    browser.wait_at("/more")
    browser.tap_css('.more-list button[value="podcasts"]')
    browser.wait_at("/tabs/podcasts/shows/1", tab="more")
    desktop = browsers.open("desktop", js=js)
    desktop.get("/tabs/podcasts")
    assert not desktop.run(_VISIBLE + "return [...document.querySelectorAll('.back-link')].some(visible);")


# 8. With JavaScript, a tap is announced and a skip link does not reload the page.

def test_a_tap_is_announced_and_focus_is_kept(browsers):
    browser = browsers.open("phone", js=True)
    browser.get("/tabs/featured")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    state = browser.wait(lambda: browser.run("""
        const a = document.querySelector("[aria-live]");
        return a && a.textContent.includes("Music") && document.activeElement !== document.body &&
          {live: a.textContent, focus: document.activeElement.tagName};
    """), "the new page was not announced, or focus fell to body")
    assert state["live"]


def test_skip_link_then_back_keeps_the_page(browsers):
    browser = browsers.open("desktop", js=True)
    browser.get("/tabs/music")
    mark = browser.mark_document()
    link = browser.driver.find_element(By.CSS_SELECTOR, ".skip-link")
    browser.run("arguments[0].focus();", link)
    link.send_keys(Keys.ENTER)
    browser.wait(lambda: browser.run("return location.hash === '#main';"), "skip link did not go to #main")
    browser.driver.back()
    browser.wait(lambda: browser.run("return location.hash === '';"), "Back did not leave #main")
    time.sleep(0.5)
    assert browser.document_marked(mark), "Back after the skip link reloaded the page"


# 9. Landscape phone: a compact bar and header, no words broken; no clipped letters.

@pytest.mark.webkit
def test_landscape_phone_keeps_the_content_in_view(browsers):
    browser = browsers.open("landscape")
    snapshot = browser.get("/tabs/music/albums/1")
    header = browser.run("return document.querySelector('.app-header').getBoundingClientRect().height;")
    bar = snapshot["bar"]["height"]
    assert bar <= 40, f"the landscape bar is {bar} px high"
    assert header + bar <= 100, f"header {header} + bar {bar} px of {snapshot['innerHeight']}"
    # Icon and title side by side.
    side = browser.run("""
        const b = document.querySelector('nav.tab-bar button[value=music]');
        const i = b.querySelector('.tab-icon').getBoundingClientRect(), t = b.querySelector('.tab-title').getBoundingClientRect();
        return Math.abs((i.top + i.bottom) / 2 - (t.top + t.bottom) / 2) < 4;
    """)
    assert side


_WORDS = _VISIBLE + r"""
const out = [];
for (const title of document.querySelectorAll(arguments[0] || "nav.tab-bar .tab-title")) {
  if (!visible(title)) continue;
  const text = title.firstChild;
  if (!text) continue;
  const content = text.textContent;
  // Each word on one line: a range over it has one line box. (Japanese may break
  // between words, which the segmenter tells apart.)
  const words = new Intl.Segmenter(document.documentElement.lang, {granularity: "word"}).segment(content);
  for (const {segment, index, isWordLike} of words) {
    if (!isWordLike) continue;
    const range = document.createRange();
    range.setStart(text, index); range.setEnd(text, index + segment.length);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (tops.size > 1) out.push(segment);
  }
  // On one line and not ellipsized, the ink of the first and last letters stays inside
  // the clip box (the padding box).
  const s = getComputedStyle(title);
  const box = title.getBoundingClientRect();
  if (box.height > parseFloat(s.lineHeight) * 1.5 || title.scrollWidth > title.clientWidth + 1) continue;
  const canvas = document.createElement("canvas").getContext("2d");
  canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  canvas.direction = s.direction;
  const m = canvas.measureText(content);
  const padL = parseFloat(s.paddingLeft), padR = parseFloat(s.paddingRight);
  const width = box.width - padL - padR;
  // Start-aligned text: its origin is the content box's left (ltr) or right (rtl) edge.
  const origin = s.direction === "rtl" ? width : 0;
  const inkLeft = origin - m.actualBoundingBoxLeft, inkRight = origin + m.actualBoundingBoxRight;
  if (inkLeft < -padL - 0.75 || inkRight > width + padR + 0.75)
    out.push(`clipped:${content}:${inkLeft.toFixed(1)}..${inkRight.toFixed(1)} in -${padL}..${(width + padR).toFixed(1)}`);
}
return out;
"""


@EVERY_VIEWPORT
@LANGS
@pytest.mark.webkit
def test_tab_titles_never_break_inside_a_word_or_clip_a_letter(browsers, viewport, lang):
    browser = browsers.open(viewport, lang=lang)
    browser.get("/tabs/music")
    broken = browser.run(_WORDS)
    assert broken == [], broken


# 10. Desktop: the header lines up with the content; the More page marks something current.

@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["en", "ar"])
def test_desktop_header_lines_up_with_the_content(browsers, lang):
    browser = browsers.open("desktop", lang=lang)
    browser.get("/tabs/music")
    edges = browser.run("""
        const h = document.querySelector('.app-title').getBoundingClientRect();
        const c = document.querySelector('main .rows').getBoundingClientRect();
        return {h: [h.left, h.right], c: [c.left, c.right], rtl: document.dir === 'rtl'};
    """)
    if edges["rtl"]:
        assert abs(edges["h"][1] - edges["c"][1]) <= 17, edges
    else:
        assert abs(edges["h"][0] - edges["c"][0]) <= 17, edges
    assert edges["c"][0] > 200, edges


@EVERY_VIEWPORT
def test_the_more_page_marks_itself_current(browsers, viewport):
    browser = browsers.open(viewport)
    browser.get("/more")
    current = browser.run(_VISIBLE + "return [...document.querySelectorAll('[aria-current=page]')].filter(visible).length;")
    assert current == 1


# Drag-and-drop on the Edit page (an enhancement; the buttons stay).

@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_drag_and_drop_reorders_the_tabs(browsers, viewport):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    browser = browsers.open(viewport, js=True)
    browser.get("/more/edit")
    handles = {row: h for row, h in (
        (h.find_element(By.XPATH, "./ancestor::li[1]").get_attribute("data-tab"), h)
        for h in browser.driver.find_elements(By.CSS_SELECTOR, ".drag-handle") if h.is_displayed())}
    # Every movable tab has a handle; Featured is fixed.
    assert set(handles) == {"music", "movies", "tv", "podcasts", "audiobooks", "purchased"}, handles.keys()
    source, target = ("movies", "music")
    if viewport == "phone":
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(browser.driver, mouse=finger)
        actions.pointer_action.move_to(handles[source]).pointer_down().move_to(handles[target]).pointer_up()
        actions.perform()
    else:
        ActionChains(browser.driver).click_and_hold(handles[source]).move_to_element(handles[target]).release().perform()
    browser.wait(lambda: browser.run(
        "return [...document.querySelectorAll('nav.tab-bar button[name=tab]')].map((b) => b.value).slice(0, 3);")
        == ["featured", "movies", "music"], "the drop did not reorder the bar")
    lists = _edit_lists(browser)
    assert lists["bar"][:3] == ["featured", "movies", "music"], lists


@pytest.mark.webkit
def test_each_tab_keeps_its_scroll_position(browsers):
    """With the script, a tab comes back where it was scrolled to."""
    browser = browsers.open("phone", js=True)
    browser.get("/tabs/featured")
    browser.run("window.scrollTo(0, 500);")
    browser.wait(lambda: browser.run("return Math.round(scrollY) === 500;"), "did not scroll")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music")
    browser.tap_tab("featured")
    browser.wait_at("/tabs/featured", tab="featured")
    browser.wait(lambda: abs(browser.run("return scrollY;") - 500) <= 2, "Featured did not come back at 500 px")


# 11. The large title collapses into an inline title as the content scrolls: UIKit's
# large title shrinks into the navigation bar.

_TITLES = r"""
const large = document.querySelector(".app-title"), inline = document.querySelector(".app-header .inline-title");
const header = document.querySelector(".app-header").getBoundingClientRect();
const bar = document.querySelector("nav.tab-bar").getBoundingClientRect();
const l = large.getBoundingClientRect();
return {header: header.height, chrome: (header.height + bar.height) / innerHeight,
        largeSeen: l.bottom > header.bottom + 1 && l.height > 1, largeSize: parseFloat(getComputedStyle(large).fontSize),
        inlineOpacity: inline ? parseFloat(getComputedStyle(inline).opacity) : null,
        inlineText: inline ? inline.textContent.trim() : null, largeText: large.textContent.trim()};
"""


@pytest.mark.parametrize("viewport", ["phone", "tablet"])
@pytest.mark.parametrize("lang", ["en-US,en", "ar"], ids=["ltr", "rtl"])
@BOTH_JS_MODES
@pytest.mark.webkit
def test_large_title_collapses_into_an_inline_title(browsers, viewport, lang, js):
    browser = browsers.open(viewport, js=js, lang=lang)
    for path in ("/tabs/featured", "/tabs/music/albums/1"):
        browser.get(path)
        top = browser.run(_TITLES)
        assert top["largeSeen"] and top["largeSize"] >= 28, top
        assert top["inlineOpacity"] == 0, f"{path}: the inline title shows over the large one: {top}"
        # The bar row alone: a back item on a detail page does not make it grow.
        assert top["header"] <= 60, f"{path}: the header is {top['header']} px high"
        if browser.run("return document.documentElement.scrollHeight - innerHeight;") < 120:
            assert path != "/tabs/featured", "Featured is longer than every tested viewport"
            continue  # a page that does not scroll keeps its large title, as in UIKit
        browser.run("window.scrollTo(0, 400);")
        browser.wait(lambda: browser.run(_TITLES)["inlineOpacity"] == 1, f"{path}: no inline title after scrolling")
        scrolled = browser.run(_TITLES)
        assert not scrolled["largeSeen"], scrolled
        assert scrolled["inlineText"] == scrolled["largeText"], scrolled
        assert scrolled["chrome"] <= 0.16, f"{path}: header and bar take {scrolled['chrome']:.0%} of the screen"
        browser.run("window.scrollTo(0, 0);")
        browser.wait(lambda: browser.run(_TITLES)["inlineOpacity"] == 0, f"{path}: the inline title stays at the top")
