# SPDX-License-Identifier: Apache-2.0
"""Development mode (--dev), with the page open in Chromium and the files changed on disk
as an editor saves them (a new file renamed into place): a template change shows on the
page without anyone reloading it, where it was scrolled to; a stylesheet change applies
without a reload; a tab renamed in the tab file shows in the bar; a broken template is
named with its file and line on the page while the server keeps running, and the page
comes back once it is fixed. The times each took are written to
.build/development-mode-times.json (the targets are in bench/, not asserted here)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ROOT, running_server

TIMES = ROOT / ".build" / "development-mode-times.json"


@pytest.fixture()
def dev_server(seven_tabs_file):
    """A server in development mode on copies of the shipped files."""
    folder = Path(tempfile.mkdtemp(prefix="tabserver-dev-"))
    for name in ("Templates", "Public", "Locales"):
        shutil.copytree(ROOT / name, folder / name)
    shutil.copy(seven_tabs_file, folder / "tabs.json")
    args = ("--dev", "--templates", str(folder / "Templates"), "--public", str(folder / "Public"),
            "--locales", str(folder / "Locales"), "--tabs", str(folder / "tabs.json"))
    with running_server(*args) as srv:
        yield srv, folder
    shutil.rmtree(folder, ignore_errors=True)


def save(path: Path, text: str) -> None:
    """As editors save: the new text in a file of its own, renamed over the old one."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def record(name: str, seconds: float) -> None:
    times = json.loads(TIMES.read_text()) if TIMES.exists() else {}
    times[name] = round(seconds, 3)
    TIMES.parent.mkdir(exist_ok=True)
    TIMES.write_text(json.dumps(times, indent=2))


def live(browser) -> None:
    browser.wait(lambda: browser.run("return document.documentElement.dataset.live === 'open';"),
                 "the page follows the live channel")


def test_saved_files_show_on_the_open_page(dev_server, browsers_for):
    server, folder = dev_server
    browser = browsers_for(server).open("phone")
    browser.get("/tabs/featured")
    live(browser)

    # A template: the page reloads itself, where it was scrolled to.
    scrolled = browser.run(
        "window.scrollTo(0, Math.min(300, document.documentElement.scrollHeight - innerHeight));"
        "return window.scrollY;")
    assert scrolled > 0, "the page can be scrolled"
    layout = folder / "Templates" / "layout.mustache"
    started = time.monotonic()
    save(layout, layout.read_text().replace("<body ", '<body data-saved-marker="1" ', 1))
    browser.wait(lambda: browser.run("return document.body.dataset.savedMarker === '1';"),
                 "the saved template shows on the open page", timeout=20)
    record("template", time.monotonic() - started)
    browser.wait(lambda: abs(browser.run("return window.scrollY;") - scrolled) <= 2,
                 "the reloaded page is where it was scrolled to")
    live(browser)

    # A stylesheet: applied without a reload (the page keeps what it had).
    token = browser.mark_document()
    css = folder / "Public" / "css" / "app.css"
    started = time.monotonic()
    save(css, css.read_text() + "\n.app-header { outline: 3px solid rgb(1, 2, 3); }\n")
    browser.wait(lambda: browser.run(
        "return getComputedStyle(document.querySelector('.app-header')).outlineColor === 'rgb(1, 2, 3)';"),
        "the saved stylesheet applies", timeout=20)
    record("stylesheet", time.monotonic() - started)
    assert browser.document_marked(token), "the stylesheet was swapped without a reload"

    # The tab file: a tab renamed shows in the bar.
    tabs = folder / "tabs.json"
    model = json.loads(tabs.read_text())
    for tab in model["tabs"]:
        if tab["id"] == "music":
            tab["title"] = "Songs"
    started = time.monotonic()
    save(tabs, json.dumps(model))
    browser.wait(lambda: browser.run(
        "return Array.from(document.querySelectorAll('nav.tab-bar .tab-title')).some(t => t.textContent === 'Songs');"),
        "the renamed tab shows in the bar", timeout=20)
    record("tab file", time.monotonic() - started)


def test_a_broken_template_is_named_in_the_browser_until_it_is_fixed(dev_server, browsers_for):
    server, folder = dev_server
    browser = browsers_for(server).open("desktop")
    browser.get("/tabs/featured")
    live(browser)
    template = folder / "Templates" / "tabs" / "featured.mustache"
    good = template.read_text()
    save(template, good + "\n{{#unclosed}}\n")
    browser.wait(lambda: browser.run("return document.documentElement.dataset.devError === 'shown';"),
                 "the open page shows the problem", timeout=20)
    shown = browser.run("return document.getElementById('tabserver-dev-error').textContent;")
    assert "featured.mustache:" in shown, shown
    assert "unclosed" in shown, shown
    # A page loaded now is the problem's, and the server still runs.
    browser.get("/tabs/music")
    body = browser.run("return document.body.textContent;")
    assert "featured.mustache:" in body and "unclosed" in body, body
    assert server.process.poll() is None, "the server keeps running"
    started = time.monotonic()
    save(template, good)
    browser.wait(lambda: browser.run(
        "return !document.body.classList.contains('dev-error-page') && !!document.querySelector('nav.tab-bar');"),
        "the page comes back once the template is fixed", timeout=20)
    record("fixed", time.monotonic() - started)
