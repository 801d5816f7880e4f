# SPDX-License-Identifier: Apache-2.0
"""Screenshots of the demo for the README: phone, phone landscape, tablet and desktop,
light and dark.

Usage (from the repository root, with the browser suite's virtualenv):
    .venv/bin/python scripts/screenshots.py SUFFIX [BINARY]
writes docs/screenshot-<size>-<SUFFIX>.png and docs/screenshot-<size>-<SUFFIX>-dark.png
from BINARY (default .build/debug/tabserver) on the demo's own tabs.json, each after
pressing Play on the first album (so the now-playing strip shows), the phone again with
`"barStyle": "classic"` (docs/screenshot-phone-classic.png and its -dark), and, with SIDEBAR=1,
docs/screenshot-desktop-sidebar.png of the sidebar layout on the tests' seven tabs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/browser"))

from selenium.webdriver.common.by import By  # noqa: E402

from conftest import TEST_TABS, BrowserPool, Server  # noqa: E402

SHOTS = {"phone": "/tabs/featured", "landscape": "/tabs/music", "tablet": "/tabs/featured",
         "desktop": "/tabs/music/albums/1"}


def play(browser) -> None:
    """Play on the first album's full-screen player: the now-playing strip then shows."""
    browser.get("/tabs/music/albums/1/play")
    browser.tap(browser.driver.find_element(By.ID, "player-play"))
    browser.wait(lambda: browser.run("return document.querySelector('main [role=status]') !== null;"),
                 "the player did not say it plays")


def main() -> None:
    suffix = sys.argv[1]
    binary = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / ".build/debug/tabserver"
    server = Server(binary)
    server.start()
    pool = BrowserPool(server)
    try:
        for scheme, name in (("light", suffix), ("dark", f"{suffix}-dark")):
            for viewport, path in SHOTS.items():
                browser = pool.open(viewport)
                browser.color_scheme(scheme)
                play(browser)
                browser.get(path)
                browser.driver.save_screenshot(str(ROOT / f"docs/screenshot-{viewport}-{name}.png"))
    finally:
        pool.close()
        server.stop()
    classic(binary)
    if os.environ.get("SIDEBAR"):
        sidebar(binary)


def classic(binary: Path) -> None:
    """The demo's phone page with the classic bar, light and dark."""
    spec = json.loads((ROOT / "tabs.json").read_text(encoding="utf-8"))
    spec["appearance"]["barStyle"] = "classic"
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(spec, file)
    server = Server(binary, ("--tabs", file.name))
    server.start()
    pool = BrowserPool(server)
    try:
        for scheme, name in (("light", "classic"), ("dark", "classic-dark")):
            browser = pool.open("phone")
            browser.color_scheme(scheme)
            play(browser)
            browser.get(SHOTS["phone"])
            browser.driver.save_screenshot(str(ROOT / f"docs/screenshot-phone-{name}.png"))
    finally:
        pool.close()
        server.stop()
        os.unlink(file.name)


def sidebar(binary: Path) -> None:
    """The tests' seven tabs with the sidebar layout, tab groups and the selection pill."""
    spec = json.loads(TEST_TABS.read_text(encoding="utf-8"))
    spec["tabs"] = [tab for tab in spec["tabs"] if tab.get("role") != "search"]
    spec["appearance"].update({"regularLayout": "sidebar", "selectionIndicatorTint": "#007aff26"})
    groups = {"movies": "Watch", "tv": "Watch", "podcasts": "Listen", "audiobooks": "Listen"}
    for tab in spec["tabs"]:
        if tab["id"] in groups:
            tab["group"] = groups[tab["id"]]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(spec, file)
    server = Server(binary, ("--tabs", file.name))
    server.start()
    pool = BrowserPool(server)
    try:
        browser = pool.open("desktop")
        browser.get("/tabs/music/albums/1")
        browser.driver.save_screenshot(str(ROOT / "docs/screenshot-desktop-sidebar.png"))
    finally:
        pool.close()
        server.stop()
        os.unlink(file.name)


if __name__ == "__main__":
    main()
