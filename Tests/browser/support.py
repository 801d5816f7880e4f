# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the browser tests: a thin wrapper around one Selenium driver that
knows the app's markup (the tab bar form, the More item, the customize rows).

Lookups go by ids, values and hrefs, never by English text, so the tests keep working
when the interface is localized.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from urllib3.exceptions import ReadTimeoutError
from selenium.common.exceptions import (
    JavascriptException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

VIEWPORTS = {"phone": (390, 844), "landscape": (844, 390), "tablet": (820, 1180), "desktop": (1440, 900)}
# Phones (touch, 3x): portrait and landscape.
PHONES = ("phone", "landscape")
# An Android phone (Chromium's mobile emulation with an Android user agent and client
# hints, so the server draws Material's bar): apart from the lists above, which the
# other tests run through; test_material.py opens it by name.
ANDROID = "android"
SIZES = {**VIEWPORTS, ANDROID: (412, 915)}
# Sizes a finger taps (the others are clicked).
TOUCH = (*PHONES, ANDROID)
ALL_VIEWPORTS = pytest.mark.parametrize("viewport", ["phone", "tablet", "desktop"])
# The sizes: phone portrait and landscape, tablet, desktop.
EVERY_VIEWPORT = pytest.mark.parametrize("viewport", list(VIEWPORTS))
BOTH_JS_MODES = pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])

# The seven tabs of the tests' model (Tests/Fixtures/tabs.json) that most tests run on (conftest's `server`),
# in their default order.
DEFAULT_ORDER = ["featured", "music", "movies", "tv", "podcasts", "audiobooks", "purchased"]
COMPACT_BAR = DEFAULT_ORDER[:4]
COMPACT_MORE = DEFAULT_ORDER[4:]
# The tests' model itself (conftest's `eight_tabs_server`): the search tab keeps the
# end, so a phone's bar holds three tabs, More, then Search.
EIGHT_ORDER = DEFAULT_ORDER + ["search"]
EIGHT_COMPACT_BAR = EIGHT_ORDER[:3] + ["search"]

# Bounded waits: every wait ends after this many seconds at most.
TIMEOUT = 10

# Whether a view transition runs (its pseudo-elements animate): while it does, they take
# every click. WebKit has no document.activeViewTransition.
_TRANSITION = r"""
return !!document.activeViewTransition || document.getAnimations().some(
  (a) => String(a.effect && a.effect.pseudoElement || "").startsWith("::view-transition"));
"""

# One snapshot of what the page shows, taken in a single script so it never mixes two
# documents. Visibility is layout-based: an element hidden by a media query has no box.
_SNAPSHOT = r"""
const visible = (el) => {
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
};
const box = (el) => el ? el.getBoundingClientRect().toJSON() : null;
const nav = document.querySelector("nav.tab-bar");
const items = nav ? [...nav.querySelectorAll("button[name=tab]")].map((b) => ({
  id: b.value,
  title: (b.querySelector(".tab-title")?.textContent || "").trim(),
  visible: visible(b),
  current: b.getAttribute("aria-current"),
  rect: box(b),
})) : [];
const more = nav ? nav.querySelector(".tab-more .tab") : null;
const transition = (() => { __TRANSITION__ })();
return {
  // Loaded, and done with the view transition into it: until its first frame is shown,
  // Chromium drops input, and while it runs the transition's pseudo-elements take every
  // click, so a tap right after a navigation could be lost.
  ready: transition ? "transition" : document.readyState,
  path: location.pathname,
  h1: (document.querySelector("h1")?.textContent || "").trim(),
  lang: document.documentElement.getAttribute("lang"),
  dir: document.documentElement.getAttribute("dir"),
  jsClass: document.documentElement.classList.contains("js"),
  innerWidth, innerHeight,
  // The viewport less any scrollbar.
  clientWidth: document.documentElement.clientWidth,
  bar: box(nav),
  items,
  more: more ? {visible: visible(more), current: more.getAttribute("aria-current"), rect: box(more),
                action: more.getAttribute("formaction")} : null,
};
""".replace("__TRANSITION__", _TRANSITION)


class Browser:
    """One browser tab of the suite (Chromium, or WebKitGTK for tests marked `webkit`),
    on a new session per test."""

    def __init__(self, driver, base_url: str, viewport: str, js: bool, engine: str = "chromium"):
        self.driver = driver
        self.base_url = base_url
        self.viewport = viewport
        self.js_enabled = js
        self.engine = engine

    @property
    def webkit(self) -> bool:
        return self.engine == "webkit"

    def chromium_only(self, what: str) -> None:
        """Skips the rest of a test in WebKitGTK: `what` needs Chromium (its DevTools
        protocol or its emulation)."""
        if self.webkit:
            pytest.skip(f"Chromium only: {what}")

    # Session and environment

    def reset(self) -> None:
        """A new visitor: blank page, no cookies (so a new server session), light mode."""
        if self.webkit:
            # No DevTools protocol: WebDriver deletes the cookies of the page's site, and
            # cookies ignore ports, so one page of the server's clears those of every
            # server on 127.0.0.1. WebKit browsers start light and stay light.
            # A request the last test's page had in flight (a prefetch, a post) may still
            # bring its cookie back just after the deletion: delete until none is left.
            self.driver.get("about:blank")
            self.driver.get(self.url("/healthz"))
            for _ in range(20):
                self.driver.delete_all_cookies()
                if self.driver.get_cookies() == []:
                    break
                time.sleep(0.1)
            assert self.driver.get_cookies() == [], "the last test's cookies could not be deleted"
            self.driver.get("about:blank")
            return
        self.driver.get("about:blank")
        self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        self.color_scheme("light")
        assert self.driver.get_cookies() == []

    def color_scheme(self, scheme: str) -> None:
        if self.webkit:
            if scheme != "light":
                self.chromium_only("a colour scheme switched at run time (WebKitGTK's is set at launch)")
            return
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}],
        })

    # Navigation and waiting

    def url(self, path: str) -> str:
        return self.base_url + path

    def get(self, path: str) -> dict:
        self.driver.get(self.url(path))
        return self.wait_for(lambda s: s["ready"] == "complete" and s["path"] == urlparse(self.url(path)).path,
                             f"page {path} did not load")

    def run(self, script: str, *args):
        try:
            return self.driver.execute_script(script, *args)
        except ReadTimeoutError:
            # WebKitWebDriver has once left a script unanswered for the client's 60 s while
            # a page without the script loaded after a form post: asked once more, as a
            # person would look again. Chromium's driver has not, so there it fails.
            if not self.webkit:
                raise
            return self.driver.execute_script(script, *args)

    def snapshot(self) -> dict:
        return self.run(_SNAPSHOT)

    def path(self) -> str:
        return urlparse(self.driver.current_url).path

    def wait(self, condition, message: str, timeout: float = TIMEOUT):
        """Waits until `condition()` is truthy; page changes under it are retried."""
        wait = WebDriverWait(
            self.driver, timeout, poll_frequency=0.05,
            ignored_exceptions=(StaleElementReferenceException, NoSuchElementException, JavascriptException),
        )
        return wait.until(lambda _driver: condition(), message)

    def wait_for(self, predicate, message: str, timeout: float = TIMEOUT) -> dict:
        """Waits until `predicate(snapshot)` holds and returns that snapshot."""
        last: dict = {}

        def check():
            nonlocal last
            last = self.snapshot()
            return last if predicate(last) else None

        try:
            return self.wait(check, message, timeout)
        except TimeoutException as error:
            summary = {k: last.get(k) for k in ("ready", "path", "h1", "lang", "dir")}
            summary["current"] = current_ids(last) if last else None
            raise AssertionError(f"{message}; last seen: {json.dumps(summary, ensure_ascii=False)}") from error

    def wait_at(self, path: str, tab: str | None = None, h1: str | None = None) -> dict:
        """Waits for a loaded page at `path` whose bar marks `tab` current (a tab id, or
        "more" for the More item) and, if given, whose heading is `h1`."""

        def matches(s: dict) -> bool:
            if s["ready"] != "complete" or s["path"] != path:
                return False
            if tab is not None and current_ids(s) != [tab]:
                return False
            return h1 is None or s["h1"] == h1

        return self.wait_for(matches, f"expected {path} with tab {tab!r} current and heading {h1!r}")

    # Pointer input

    def tap(self, element) -> None:
        """A finger tap on the phone (touch pointer), a mouse click elsewhere and in
        WebKitGTK (a desktop port: no touch input)."""
        assert element.is_displayed(), f"cannot tap a hidden {element.tag_name}"
        # As a person would, wait for the page to stop cross-fading.
        self.wait(lambda: not self.run(_TRANSITION), "a view transition did not end")
        if self.viewport not in TOUCH or self.webkit:
            element.click()
            return
        # Pointer actions do not scroll: bring the element into view first, and out from
        # under the bar (the floating capsule lies over the page's last lines).
        self.run("""
            const e = arguments[0], r = e.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (r.top < 0 || r.bottom > innerHeight || !(hit && (hit === e || e.contains(hit)))) {
                e.scrollIntoView({block: "center"});
            }
        """, element)
        # chromedriver's element click hangs under mobile emulation with JavaScript off,
        # and a real phone sends touch events anyway: tap with a touch pointer.
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.driver, mouse=finger)
        actions.pointer_action.move_to(element).pointer_down().pointer_up()
        actions.perform()

    def tap_css(self, selector: str) -> None:
        self._tap_fresh(lambda: self.driver.find_element(By.CSS_SELECTOR, selector))

    # The tab bar

    def tab_button(self, tab_id: str):
        return self.driver.find_element(By.CSS_SELECTOR, f'nav.tab-bar button[name="tab"][value="{tab_id}"]')

    def tap_tab(self, tab_id: str) -> None:
        def find():
            button = self.tab_button(tab_id)
            assert button.is_displayed(), f"tab {tab_id} is not shown in the bar"
            return button
        self._tap_fresh(find)

    def tap_more(self) -> None:
        def find():
            link = self.driver.find_element(By.CSS_SELECTOR, "nav.tab-bar .tab-more .tab")
            assert link.is_displayed(), "More is not shown in the bar"
            return link
        self._tap_fresh(find)

    def _tap_fresh(self, find) -> None:
        """Taps what `find` returns. The script may swap the bar in (a page it fetched, a
        live redraw) between finding an item and tapping it: the same item in the new bar
        is found again, at most three times."""
        for attempt in range(3):
            try:
                self.tap(find())
                return
            except StaleElementReferenceException:
                if attempt == 2:
                    raise

    def mark_document(self) -> str:
        """Tags the current document, to tell later whether a full page load happened."""
        token = secrets.token_hex(8)
        self.run("window.__tabserverTestMark = arguments[0];", token)
        return token

    def document_marked(self, token: str) -> bool:
        return self.run("return window.__tabserverTestMark === arguments[0];", token)

    def region_pixels(self, rects: list[dict]) -> list[list[tuple[int, ...]]]:
        """The RGBA pixels drawn in each of `rects` (viewport boxes, in CSS pixels), one
        pixel per CSS pixel. Chromium captures each box alone (at 3x a full screenshot is
        slow to decode in Python); WebKitGTK's element captures come out blank under Xvfb,
        so its boxes are cut from one screenshot of the viewport."""
        import base64

        def cut(width: int, pixels: list, scale: float, left: float, top: float, rect: dict) -> list:
            return [pixels[int((y - top) * scale) * width + int((x - left) * scale)]
                    for y in range(int(rect["top"]), int(rect["bottom"]))
                    for x in range(int(rect["left"]), int(rect["right"]))]

        if self.webkit:
            width, _, pixels = png_pixels(self.driver.get_screenshot_as_png())
            scale = width / self.run("return innerWidth;")
            return [cut(width, pixels, scale, 0, 0, rect) for rect in rects]
        regions = []
        for rect in rects:
            shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": {
                "x": int(rect["left"]), "y": int(rect["top"]), "scale": 1,
                "width": int(rect["right"]) - int(rect["left"]), "height": int(rect["bottom"]) - int(rect["top"])}})
            width, _, pixels = png_pixels(base64.b64decode(shot["data"]))
            regions.append(cut(width, pixels, width / (int(rect["right"]) - int(rect["left"])),
                               int(rect["left"]), int(rect["top"]), rect))
        return regions

    def screenshot(self, directory: Path, name: str) -> None:
        self.driver.save_screenshot(str(directory / f"{self.viewport}-{name}.png"))


def current_ids(snapshot: dict) -> list[str]:
    """Ids of the bar items marked aria-current="page" that a person can see."""
    ids = [item["id"] for item in snapshot["items"] if item["current"] == "page" and item["visible"]]
    more = snapshot.get("more")
    if more and more["visible"] and more["current"] == "page":
        ids.append("more")
    return ids


def visible_ids(snapshot: dict) -> list[str]:
    return [item["id"] for item in snapshot["items"] if item["visible"]]


def bar_order(snapshot: dict) -> list[str]:
    return [item["id"] for item in snapshot["items"]]


def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and RGBA pixels (row by row) of an 8-bit RGB or RGBA PNG, as
    browsers write screenshots; the standard library has no image decoder."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(line)
        previous = line
    pixels = []
    for line in rows:
        for x in range(width):
            pixel = tuple(line[x * channels:(x + 1) * channels])
            pixels.append(pixel if channels == 4 else pixel + (255,))
    return width, height, pixels
