# SPDX-License-Identifier: Apache-2.0
"""WebKitGTK browsers for the suite: Safari's engine, the one every iPhone browser uses.

Debian's `webkit2gtk-driver` (WebKitWebDriver) drives WebKitGTK's MiniBrowser through
Selenium's `webdriver.WebKitGTK`. MiniBrowser needs an X display: each browser gets an
Xvfb of its own, as large as the phone's screen (so the page has the keyboard focus,
see `_start_display`), stopped by its pid when the browser quits.

WebKitGTK is a desktop port, so what Chromium emulates is set up by other means:

- Size: there is no device emulation. The window is sized so that the layout viewport
  (`innerWidth` x `innerHeight`) is exactly the phone's, at a device pixel ratio of 1.
  MiniBrowser's toolbar would hold the window at 447 px or more: a GTK style sheet (in
  a config folder of our own) lets it shrink; the height it keeps is added to the window.
- Touch: none. No touch events and `(pointer: fine)`/`(hover: hover)`: taps are clicks.
- Language: WebKitGTK takes it from the process locale, not from a setting, and Debian
  ships only C: the locale of the language asked for is compiled (`localedef`) into a
  folder of the session's and passed with LOCPATH and LANG.
- Colour scheme: fixed when MiniBrowser starts (`--dark-mode`); the suite's WebKit
  browsers are light.
- JavaScript off: MiniBrowser's `--enable-javascript=false` (WebDriver's own scripts
  still run, as in Chromium).
- No Chrome DevTools Protocol: no network throttling, no installability report, no
  cookie clearing by command (cookies are deleted on a page of the server instead).
"""

from __future__ import annotations

import glob
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

DRIVER = os.environ.get("WEBKITWEBDRIVER_BINARY", "/usr/bin/WebKitWebDriver")
XVFB = os.environ.get("XVFB_BINARY", "/usr/bin/Xvfb")

# MiniBrowser's toolbar shrinks to nothing (its buttons and entry have a minimum width
# that keeps the window at 447 px or wider otherwise). The web view is left as it is.
_GTK_CSS = """
window > box > *:not(notebook):not(overlay) {
  min-width: 0; min-height: 0; margin: 0; padding: 0; border: 0; font-size: 1px; opacity: 0;
}
window > box > *:not(notebook):not(overlay) * {
  min-width: 0; min-height: 0; margin: 0; padding: 0; border: 0; font-size: 1px;
  -gtk-icon-transform: scale(0.01);
}
"""

# The locale each language of the suite runs in (Accept-Language's first tag). Named
# without a territory where the suite asks for none, so navigator.language is "ar" as
# in Chromium; compiled from the territory's definition.
_LOCALES = {"en-US": ("en_US", "en_US.UTF-8"), "en": ("en_US", "en.UTF-8"), "ar": ("ar_EG", "ar.UTF-8"),
            "de": ("de_DE", "de.UTF-8"), "ja": ("ja_JP", "ja.UTF-8")}


def browser_binary() -> str:
    explicit = os.environ.get("WEBKIT_BROWSER_BINARY")
    if explicit:
        return explicit
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    if not found or not Path(DRIVER).is_file():
        pytest.fail("WebKitGTK is missing: scripts/setup.sh --test installs webkit2gtk-driver and xvfb")
    return found[-1]


class _Files:
    """The session's folders: GTK's config (the style sheet) and compiled locales."""

    def __init__(self) -> None:
        self.folder: tempfile.TemporaryDirectory | None = None

    def root(self) -> Path:
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="tabserver-webkit-")
            gtk = Path(self.folder.name, "config", "gtk-3.0")
            gtk.mkdir(parents=True)
            (gtk / "gtk.css").write_text(_GTK_CSS, encoding="utf-8")
            Path(self.folder.name, "locales").mkdir()
        return Path(self.folder.name)

    def locale(self, lang: str) -> str:
        """The LANG value for `lang`, its locale compiled on first use."""
        first = lang.split(",")[0].strip()
        source, name = _LOCALES.get(first, _LOCALES.get(first.split("-")[0], ("en_US", "en_US.UTF-8")))
        target = self.root() / "locales" / name
        if not target.exists():
            result = subprocess.run(["localedef", "-i", source, "-f", "UTF-8", str(target)],
                                    stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
            if not target.exists():
                pytest.fail(f"localedef could not make {name}: {result.stderr[-500:]}")
        return name

    def environment(self, display: str, lang: str) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "WAYLAND"))}
        env.pop("LANGUAGE", None)
        env.update({
            "DISPLAY": display, "XDG_CONFIG_HOME": str(self.root() / "config"),
            "LOCPATH": str(self.root() / "locales"), "LANG": self.locale(lang),
            # No accessibility bus on the virtual display.
            "NO_AT_BRIDGE": "1",
        })
        return env

    def cleanup(self) -> None:
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


_files = _Files()
# The Xvfb of each browser open, by WebDriver session id.
_displays: dict[str, subprocess.Popen] = {}


def _start_display(width: int, height: int) -> tuple[subprocess.Popen, str]:
    """An Xvfb whose screen is the phone's. Without a window manager nothing gives a
    window the keyboard focus but the pointer (X's focus follows it), which Xvfb puts
    at the screen's centre: inside the window, as the screen is no larger, so the page
    has focus (document.hasFocus(), focus rings) as on a phone."""
    # -displayfd 1: Xvfb picks a free display itself and writes its number once it
    # accepts clients (no race with other runs for a number).
    process = subprocess.Popen(
        [XVFB, "-displayfd", "1", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    number = process.stdout.readline().decode().strip()
    if not number.isdigit():
        _stop_display(process)
        pytest.fail("Xvfb did not start (is the xvfb package installed? scripts/setup.sh --test)")
    return process, ":" + number


def _stop_display(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()  # this pid only
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
    if process.stdout:
        process.stdout.close()


def quit_driver(driver: webdriver.Remote) -> None:
    """Ends the browser (WebKitWebDriver ends MiniBrowser) and then its display."""
    process = _displays.pop(driver.session_id, None)
    try:
        driver.quit()
    finally:
        if process is not None:
            _stop_display(process)


def stop_displays() -> None:
    """The session's end: every display left (a browser that could not quit) and the files."""
    while _displays:
        _stop_display(_displays.popitem()[1])
    _files.cleanup()


def make_driver(width: int, height: int, js: bool, lang: str) -> webdriver.WebKitGTK:
    """A MiniBrowser on a display of its own, whose layout viewport is `width` x
    `height` CSS pixels."""
    binary = browser_binary()
    process, display = _start_display(width, height)
    options = Options()
    options.binary_location = binary
    options.add_argument("--automation")
    if not js:
        options.add_argument("--enable-javascript=false")
    service = Service(executable_path=DRIVER, env=_files.environment(display, lang), log_output=subprocess.DEVNULL)
    try:
        driver = webdriver.WebKitGTK(options=options, service=service)
    except BaseException:
        _stop_display(process)
        raise
    _displays[driver.session_id] = process
    driver.command_executor.client_config.timeout = 60
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    # The window holds the toolbar's few pixels besides the view: size it, see what the
    # view got once it settles, and add the difference (bounded: a few rounds).
    driver.get("about:blank")
    window = [width, height]
    inner: list[int] = []
    for _ in range(4):
        driver.set_window_size(*window)
        inner = _settled_viewport(driver)
        if inner == [width, height]:
            return driver
        window = [max(window[0] + width - inner[0], width), max(window[1] + height - inner[1], height)]
    quit_driver(driver)
    pytest.fail(f"WebKitGTK's viewport stays {inner}, not {[width, height]}")


def _settled_viewport(driver) -> list[int]:
    """The viewport size once two readings 50 ms apart agree (a resize lands a little
    after the command returns), at most about two seconds on."""
    last = driver.execute_script("return [innerWidth, innerHeight];")
    for _ in range(40):
        time.sleep(0.05)
        now = driver.execute_script("return [innerWidth, innerHeight];")
        if now == last and now[0] > 0 and now[1] > 0:
            return now
        last = now
    return last
