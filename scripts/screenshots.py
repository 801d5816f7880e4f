"""Screenshots of the demo for the README: phone, phone landscape, tablet and desktop.

Usage (from the repository root, with the browser suite's virtualenv):
    .venv/bin/python scripts/screenshots.py SUFFIX [BINARY]
writes docs/screenshot-<size>-<SUFFIX>.png from BINARY (default .build/debug/tabserver).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests/browser"))

from conftest import BrowserPool, Server  # noqa: E402

SHOTS = {"phone": "/tabs/featured", "landscape": "/tabs/music", "tablet": "/tabs/featured",
         "desktop": "/tabs/music/albums/1"}


def main() -> None:
    suffix = sys.argv[1]
    binary = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / ".build/debug/tabserver"
    server = Server(binary)
    server.start()
    pool = BrowserPool(server)
    try:
        for viewport, path in SHOTS.items():
            browser = pool.open(viewport)
            browser.get(path)
            browser.driver.save_screenshot(str(ROOT / f"docs/screenshot-{viewport}-{suffix}.png"))
    finally:
        pool.close()
        server.stop()


if __name__ == "__main__":
    main()
