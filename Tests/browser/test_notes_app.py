# SPDX-License-Identifier: Apache-2.0
"""The Notes example app (Examples/Notes) in a real browser, JavaScript on and off:
adding a note, an empty title refused with 422 and nothing stored, a delete asked
first, Back after saving posting nothing again, and a note outliving a restart.

Builds nothing: it starts the Notes binary already built (Examples/Notes/.build/debug/Notes,
which Examples/Notes/smoke-test.sh builds; skipped when it is missing) from its folder on
a free loopback port with a database of its own in a temporary folder (NOTES_DATABASE),
and stops it by pid. What is stored is read from that database file itself.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, BrowserPool, Server

NOTES = ROOT / "Examples" / "Notes"
NOTES_BINARY = Path(os.environ.get("NOTES_BINARY", NOTES / ".build" / "debug" / "Notes"))
NOTE_PATH = re.compile(r"/tabs/notes/(\d+)")


@pytest.fixture(scope="module")
def notes(tmp_path_factory):
    if not NOTES_BINARY.is_file():
        pytest.skip(f"{NOTES_BINARY} is missing: build it first (cd Examples/Notes && swift build)")
    database = tmp_path_factory.mktemp("notes") / "notes.sqlite"
    srv = Server(NOTES_BINARY, cwd=NOTES, env={**os.environ, "NOTES_DATABASE": str(database)})
    srv.database = database
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
        srv.log.close()


@pytest.fixture(scope="module")
def pool(notes):
    browsers = BrowserPool(notes)
    try:
        yield browsers
    finally:
        browsers.close()


def stored(database: Path) -> list[tuple[int, str]]:
    """The notes in the database file: (id, title), by id."""
    with closing(sqlite3.connect(database, timeout=5)) as db:
        return db.execute("SELECT id, title FROM notes ORDER BY id").fetchall()


def response_status(browser) -> int:
    """The HTTP status of the document shown (Navigation Timing)."""
    return browser.run("return performance.getEntriesByType('navigation')[0].responseStatus;")


def open_new_note_form(browser) -> None:
    browser.get("/tabs/notes")
    browser.tap_css("#new-note")
    browser.wait_at("/tabs/notes/new", tab="notes")


def submit_note(browser, title: str, body: str) -> None:
    browser.driver.find_element(By.ID, "field-title").send_keys(title)
    browser.driver.find_element(By.ID, "field-body").send_keys(body)
    browser.tap_css("form.tab-form button[type=submit]")


def add_note(browser, title: str, body: str = "") -> int:
    """Adds a note through the form; returns its id once its page is shown."""
    open_new_note_form(browser)
    submit_note(browser, title, body)
    shown = browser.wait_for(
        lambda s: s["ready"] == "complete" and NOTE_PATH.fullmatch(s["path"]) is not None and s["h1"] == title,
        f"the saved note {title!r} is shown")
    return int(NOTE_PATH.fullmatch(shown["path"]).group(1))


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_add_a_note(notes, pool, js):
    browser = pool.open("desktop", js=js)
    before = stored(notes.database)
    open_new_note_form(browser)
    assert browser.snapshot()["jsClass"] == js
    mark = browser.mark_document()
    title = f"Groceries ({'js' if js else 'nojs'})"
    submit_note(browser, title, "Apples\nPears")
    browser.wait_for(lambda s: NOTE_PATH.fullmatch(s["path"]) is not None and s["h1"] == title,
                     "after saving, the tab shows the saved note")
    note_id = int(NOTE_PATH.fullmatch(browser.path()).group(1))
    assert stored(notes.database) == before + [(note_id, title)]
    notice = browser.driver.find_element(By.CSS_SELECTOR, "main .notice").text
    assert f"Saved “{title}”." in notice
    paragraphs = [p.text for p in browser.driver.find_elements(By.CSS_SELECTOR, "main .blurb p")]
    assert paragraphs == ["Apples", "Pears"]
    # With the script the page is swapped in place; without it the browser loads it.
    assert browser.document_marked(mark) == js
    # The list shows it.
    browser.get("/tabs/notes")
    assert browser.driver.find_elements(By.CSS_SELECTOR, f'main a.row[data-note="{note_id}"]')


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_an_empty_title_is_refused_with_422_and_nothing_stored(notes, pool, js):
    browser = pool.open("desktop", js=js)
    before = stored(notes.database)
    open_new_note_form(browser)
    submit_note(browser, "   ", "a body without a title")
    browser.wait(lambda: browser.driver.find_elements(By.CSS_SELECTOR, "#error-title"),
                 "the form comes back with the title's message")
    assert response_status(browser) == 422
    assert browser.path() == "/tabs/notes/new"
    assert browser.driver.find_element(By.ID, "error-title").text == "A note needs a title."
    assert browser.driver.find_element(By.ID, "field-title").get_attribute("aria-invalid") == "true"
    assert browser.driver.find_element(By.ID, "field-body").get_attribute("value") == "a body without a title"
    assert stored(notes.database) == before


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_delete_asks_first(notes, pool, js):
    browser = pool.open("desktop", js=js)
    title = f"Old receipt ({'js' if js else 'nojs'})"
    note_id = add_note(browser, title)
    before = stored(notes.database)
    browser.tap_css("#delete-note")
    browser.wait(lambda: browser.driver.find_elements(By.CSS_SELECTOR, ".confirm-question"),
                 "a delete asks first")
    assert browser.path() == f"/tabs/notes/{note_id}/delete"
    assert title in browser.driver.find_element(By.CSS_SELECTOR, ".confirm-question").text
    assert stored(notes.database) == before, "nothing is deleted before the answer"
    browser.tap_css(".confirm-page button[type=submit]")
    browser.wait_at("/tabs/notes", tab="notes")
    assert (note_id, title) not in stored(notes.database)
    assert len(stored(notes.database)) == len(before) - 1
    assert f"Deleted “{title}”." in browser.driver.find_element(By.CSS_SELECTOR, "main .notice").text
    assert not browser.driver.find_elements(By.CSS_SELECTOR, f'main a.row[data-note="{note_id}"]')


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_back_after_saving_does_not_post_again(notes, pool, js):
    browser = pool.open("desktop", js=js)
    title = f"Call mum ({'js' if js else 'nojs'})"
    add_note(browser, title)
    after_saving = stored(notes.database)
    browser.run("history.back();")
    browser.wait_at("/tabs/notes/new", tab="notes", h1="New note")
    time.sleep(0.5)  # room for a post that should not come
    assert stored(notes.database) == after_saving
    assert [t for _, t in stored(notes.database)].count(title) == 1
    # Back lands on the form page (a GET; the browser may refill what was typed), and a
    # reload there posts nothing either.
    browser.driver.refresh()
    browser.wait_at("/tabs/notes/new", tab="notes", h1="New note")
    assert stored(notes.database) == after_saving


def test_a_note_survives_a_restart(notes, pool):
    browser = pool.open("desktop", js=False)
    title = "Kept across restarts"
    note_id = add_note(browser, title, "still here")
    old_pid = notes.process.pid
    notes.stop()
    notes.start()
    assert notes.process.pid != old_pid, "a new server process"
    browser = pool.open("desktop", js=False)  # a new visitor: the sessions were in memory
    browser.get(f"/tabs/notes/{note_id}")
    assert browser.snapshot()["h1"] == title
    assert response_status(browser) == 200
    assert browser.driver.find_element(By.CSS_SELECTOR, "main .blurb p").text == "still here"
