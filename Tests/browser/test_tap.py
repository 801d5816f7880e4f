# SPDX-License-Identifier: Apache-2.0
"""With the script: a tap shows its item selected before
the server answers, costs one request, shows a prefetched tab at once (prefetches change
nothing), and history is a tab app's (switching tabs replaces the entry, pages pushed in
a tab add one, Back shows them from memory, Back after a question does not ask again).
Without the script the other modules' tests cover the same flows (POST → 303 → GET)."""

from __future__ import annotations

import re
import urllib.request

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from conftest import running_server
from support import current_ids

# A slow network: every request waits this long, so what shows before an answer is
# told apart from what the answer brought.
SLOW = {"offline": False, "latency": 600, "downloadThroughput": -1, "uploadThroughput": -1}
FAST = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
# The visitor asks to save data: app.js prefetches nothing.
SAVE_DATA = "if (navigator.connection) Object.defineProperty(navigator.connection, 'saveData', {get: () => true});"


@pytest.fixture(scope="module")
def metered(seven_tabs_file):
    """A server of its own with /metrics on, to count the requests that reach it."""
    with running_server("--tabs", str(seven_tabs_file), "--metrics", "on") as srv:
        yield srv


@pytest.fixture()
def slow(request):
    """Throttles a browser's network for one test and puts it back after."""
    throttled = []

    def throttle(browser, save_data: bool = False):
        driver = browser.driver
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW)
        script = None
        if save_data:
            script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SAVE_DATA})
        throttled.append((driver, script))

    yield throttle
    for driver, script in throttled:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", FAST)
        if script:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def _requests(srv, route: str, method: str, status: int) -> float:
    with urllib.request.urlopen(srv.url("/metrics"), timeout=5) as answer:
        body = answer.read().decode()
    pattern = re.escape(f'tabserver_http_requests_total{{route="{route}",method="{method}",status="{status}"}}')
    match = re.search(pattern + r" (\S+)", body)
    return float(match.group(1)) if match else 0.0


def _restored(browser, srv) -> str | None:
    """Where GET / sends this browser's session (its remembered place), asked outside the browser."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in browser.driver.get_cookies())

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(srv.url("/"), headers={"Cookie": cookie}), timeout=5)
    except urllib.error.HTTPError as error:
        return error.headers.get("Location")
    return None


def _prefetched(browser) -> list[str]:
    return browser.run("""
        return performance.getEntriesByType('resource')
          .filter((e) => e.initiatorType === 'fetch').map((e) => new URL(e.name).pathname);
    """)


# Watches the bar: the first time the item of the tab given as the script's argument is
# marked current, the heading shown then goes to sessionStorage (which outlives the page,
# if the answer replaces it).
_NOTE_HEADING_WHEN_SELECTED = """
sessionStorage.removeItem('tap-test-heading');
const tab = arguments[0];
const noteIfSelected = () => {
  const item = document.querySelector(`nav.tab-bar button[name=tab][value="${tab}"]`);
  if (item && item.getAttribute("aria-current") === "page" && !sessionStorage.getItem('tap-test-heading')) {
    sessionStorage.setItem('tap-test-heading', (document.querySelector("h1")?.textContent || "").trim());
  }
};
new MutationObserver(noteIfSelected).observe(document.documentElement,
  {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_tap_shows_its_item_selected_before_the_answer(browsers, slow):
    browser = browsers.open("phone")
    browser.get("/tabs/featured")
    slow(browser, save_data=True)
    browser.get("/tabs/featured")
    titles = {item["id"]: item["title"] for item in browser.snapshot()["items"]}
    # The page notes the heading it shows at the moment the tapped item is first marked
    # current: the order of the two, not a time, tells a selection shown before the answer.
    browser.run(_NOTE_HEADING_WHEN_SELECTED, "music")
    browser.tap_tab("music")
    browser.wait_at("/tabs/music", tab="music", h1=titles["music"])
    noted = browser.run("return sessionStorage.getItem('tap-test-heading');")
    assert noted is not None, "the tapped item was never seen marked current before the page changed"
    assert noted == titles["featured"], "the page changed before the tapped item was shown selected"


def test_a_question_puts_the_bar_back_to_the_truth(browsers, slow):
    browser = browsers.open("desktop")
    browser.get("/tabs/music")
    slow(browser, save_data=True)
    browser.get("/tabs/music")
    browser.run(_NOTE_HEADING_WHEN_SELECTED, "purchased")
    browser.tap_tab("purchased")
    # Purchased asks first: the answer is the question, on Music, with Music selected.
    browser.wait(lambda: browser.run("return location.search;") == "?confirm=purchased", "no question")
    page = browser.wait_at("/tabs/music", tab="music")
    assert current_ids(page) == ["music"]
    noted = browser.run("return sessionStorage.getItem('tap-test-heading');")
    assert noted is not None, "the tapped item was not shown selected before the answer"


def test_one_request_per_tap(browsers_for, metered, slow):
    browser = browsers_for(metered).open("phone")
    browser.get("/tabs/featured")
    slow(browser, save_data=True)  # nothing prefetched: only the taps' own requests
    browser.get("/tabs/featured")
    titles = {item["id"]: item["title"] for item in browser.snapshot()["items"]}
    posts = _requests(metered, "/select", "POST", 200)
    pages = _requests(metered, "/tabs/{tab}", "GET", 200)
    redirects = _requests(metered, "/select", "POST", 303)
    for tab in ("music", "movies", "featured"):
        browser.tap_tab(tab)
        browser.wait_at(f"/tabs/{tab}", tab=tab, h1=titles[tab])
    # The server counts a request once its answer is written: wait for the three posts.
    browser.wait(lambda: _requests(metered, "/select", "POST", 200) - posts == 3,
                 "each tap is one post answered with its page")
    assert _requests(metered, "/select", "POST", 303) == redirects, "a tap was answered with a redirect"
    assert _requests(metered, "/tabs/{tab}", "GET", 200) == pages, "a tap cost a second request"


def test_a_prepared_tab_shows_at_once_and_prefetches_change_nothing(browsers_for, metered):
    browser = browsers_for(metered).open("phone")
    browser.get("/tabs/music/albums/1")
    titles = {item["id"]: item["title"] for item in browser.snapshot()["items"]}
    # The bar's other tabs are prefetched once the page is idle.
    browser.wait(lambda: {"/tabs/featured", "/tabs/movies", "/tabs/tv"} <= set(_prefetched(browser)),
                 "the bar's tabs were not prefetched", timeout=15)
    # Prefetches changed nothing: the visitor is still on the album.
    assert _restored(browser, metered) == "/tabs/music/albums/1"
    mark = browser.mark_document()
    browser.run(HOLD_POSTS)
    browser.tap_tab("movies")
    # The post is held: the page shown is the prefetched one.
    early = browser.wait_at("/tabs/movies", tab="movies", h1=titles["movies"])
    assert current_ids(early) == ["movies"]
    assert browser.run("return window.heldPosts.length;") == 1, "the tap was not sent"
    # The post still goes out and selects the tab.
    browser.run("window.heldPosts.forEach((go) => go());")
    browser.wait(lambda: _restored(browser, metered) == "/tabs/movies", "the tap did not reach the server")
    assert browser.document_marked(mark)



# Holds the page's posts until the test lets them go (the network's own throttling does
# not delay them reliably enough to look between a tap and its answer).
HOLD_POSTS = """
  const send = window.fetch;
  window.heldPosts = [];
  window.answeredPosts = 0;
  window.fetch = (input, init) => init && init.method === "POST"
    ? new Promise((resolve) => window.heldPosts.push(() => {
        window.fetch = send;
        resolve(send(input, init).finally(() => { window.answeredPosts += 1; }));
      }))
    : send(input, init);
"""


def test_a_prepared_tab_takes_the_newest_token(browsers):
    """A tab prefetched before the visitor had a session carries the token made for
    visitors without one; shown after the session is stored, its forms must carry the
    session's token, or a tap made before the select's answer (More, at once) is refused
    as an expired form."""
    browser = browsers.open("phone")
    browser.get("/tabs/featured")
    browser.wait(lambda: "/tabs/music" in _prefetched(browser), "Music was not prefetched", timeout=15)
    browser.tap_more()
    browser.wait_at("/more", tab="more")
    # The first change of state: the session is stored now, with a token of its own.
    browser.tap_css('main form.more-list button[value="podcasts"]')
    browser.wait_at("/tabs/podcasts", tab="more")
    token = browser.run("return document.querySelector('nav.tab-bar input[name=csrf]').value;")
    browser.run(HOLD_POSTS)
    browser.tap_tab("music")
    browser.wait(lambda: browser.run("return window.heldPosts.length;") == 1, "the tap's post was not sent")
    # The page shown before the answer is the prepared one.
    assert browser.snapshot()["path"] == "/tabs/music", "the prepared tab did not show at once"
    tokens = browser.run("return [...document.querySelectorAll('input[name=csrf]')].map((f) => f.value);")
    assert tokens and set(tokens) == {token}, "the prepared page's forms kept the token of a visitor without a session"
    browser.run("window.heldPosts.forEach((go) => go());")
    browser.wait(lambda: browser.run("return window.answeredPosts;") == 1, "the select was not answered")
    # The token works: More (a post) is taken, and shows the tab left on its stack.
    browser.tap_more()
    browser.wait_at("/tabs/podcasts", tab="more")


@pytest.mark.webkit
def test_switching_tabs_replaces_the_entry_and_back_leaves(browsers):
    browser = browsers.open("phone")
    browser.get("/tabs/featured")
    titles = {item["id"]: item["title"] for item in browser.snapshot()["items"]}
    entries = browser.run("return history.length;")
    for tab in ("music", "movies", "tv"):
        browser.tap_tab(tab)
        browser.wait_at(f"/tabs/{tab}", tab=tab, h1=titles[tab])
    assert browser.run("return history.length;") == entries, "a tab switch added a history entry"
    # Back leaves the app (to the page before it: the suite's blank page), as on Android.
    browser.driver.back()
    try:
        browser.wait(lambda: browser.driver.current_url == "about:blank", "Back did not leave the app", timeout=30)
    except TimeoutException:
        where = browser.driver.current_url
        raise AssertionError(f"Back did not leave the app: it shows {where} ({entries} entries before the taps)")


@pytest.mark.webkit
def test_back_inside_a_tab_shows_the_page_from_memory(browsers):
    browser = browsers.open("phone")
    browser.get("/tabs/music")
    mark = browser.mark_document()
    loads = browser.run("return performance.getEntriesByType('navigation').length;")
    browser.tap_css('main a[href="/tabs/music/albums/1"]')
    album = browser.wait_at("/tabs/music/albums/1", tab="music")
    browser.tap_css('main a[href="/tabs/music/albums/1/tracks/2"]')
    track = browser.wait_at("/tabs/music/albums/1/tracks/2", tab="music")
    assert track["h1"] != album["h1"]
    browser.driver.back()
    browser.wait_at("/tabs/music/albums/1", tab="music", h1=album["h1"])
    browser.driver.back()
    browser.wait_at("/tabs/music", tab="music")
    browser.driver.forward()
    browser.wait_at("/tabs/music/albums/1", tab="music", h1=album["h1"])
    assert browser.document_marked(mark), "Back or Forward reloaded the page"
    assert browser.run("return performance.getEntriesByType('navigation').length;") == loads
    # The header's back item walks the same history.
    entries = browser.run("return history.length;")
    browser.tap_css(".app-header .back-link")
    browser.wait_at("/tabs/music", tab="music")
    assert browser.document_marked(mark)
    assert browser.run("return history.length;") == entries


def test_back_after_a_confirmation_does_not_ask_again(browsers):
    browser = browsers.open("desktop")
    browser.get("/tabs/music")
    mark = browser.mark_document()
    browser.tap_css('main a[href="/tabs/music/albums/1"]')
    browser.wait_at("/tabs/music/albums/1", tab="music")
    browser.tap_tab("purchased")
    browser.wait(lambda: browser.run("return location.search;") == "?confirm=purchased", "no question")
    browser.tap_css("main .notice button[name=tab]")
    browser.wait_at("/tabs/purchased", tab="purchased")
    # Music again: its place is the album, and Back pops Music's own stack to its root.
    browser.tap_tab("music")
    browser.wait_at("/tabs/music/albums/1", tab="music")
    # The page Back shows is kept in memory; the script then tells the server of the visit
    # (a fetch of the page) and takes its bar. Once that answer is in, nothing else comes.
    visits = ("return performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'fetch'"
              " && new URL(e.name).pathname === '/tabs/music' && e.responseEnd > 0).length;")
    before = browser.run(visits)
    browser.driver.back()
    page = browser.wait_at("/tabs/music", tab="music")
    browser.wait(lambda: browser.run(visits) > before, "the visit Back makes is told to the server")
    assert browser.run("return location.search;") == ""
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "main .notice"), "Back asked the question again"
    assert current_ids(page) == ["music"]
    assert browser.document_marked(mark), "Back reloaded the page"
