# SPDX-License-Identifier: Apache-2.0
"""The Python peer of bench/bench.py: Starlette + Jinja2 (autoescaping on) on uvicorn,
serving what TabServer serves for the tab page of a visitor with a session and for the
select post. Sessions are server-side: the cookie holds a random id; the selected tab and
the CSRF token live in a SQLite file in WAL mode that every uvicorn worker opens (one
connection per worker, the same durability as TabServer's SQLite store: synchronous =
NORMAL).

  GET  /tabs/<tab>   the page (template generated from TabServer's own page by
                     make_template.py); a visitor without a session gets one
  POST /select       form fields tab, csrf, return: the posted token must be the
                     session's; the session's selected tab changes; 303 to /tabs/<tab>

Configuration by environment: PEER_TEMPLATES (the folder of page.html and tabs.json),
PEER_DB (the SQLite file). Run: uvicorn app:app --workers 2 (bench/bench.py does)."""
import json
import os
import secrets
import sqlite3

import jinja2
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

TEMPLATES = os.environ.get("PEER_TEMPLATES", os.path.join(os.path.dirname(__file__), "templates"))
DB_PATH = os.environ.get("PEER_DB", os.path.join(os.path.dirname(__file__), "sessions.sqlite"))
COOKIE = "tabserver_session"
MAX_AGE = 15552000
# The headers TabServer sends with a page and a redirect.
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}

with open(os.path.join(TEMPLATES, "tabs.json")) as f:
    TITLES = {tab["id"]: tab["title"] for tab in json.load(f)}
environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                 keep_trailing_newline=True)
templates = Jinja2Templates(env=environment)


class SessionStore:
    """Sessions in a SQLite file shared by the workers (each opens its own connection)."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout = 5000")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, selected TEXT NOT NULL, "
                        "csrf TEXT NOT NULL) WITHOUT ROWID")

    def get(self, session_id):
        return self.db.execute("SELECT selected, csrf FROM sessions WHERE id = ?", (session_id,)).fetchone()

    def create(self, selected):
        session_id, csrf = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        self.db.execute("INSERT INTO sessions (id, selected, csrf) VALUES (?, ?, ?)", (session_id, selected, csrf))
        return session_id, csrf

    def select(self, session_id, tab):
        self.db.execute("UPDATE sessions SET selected = ? WHERE id = ?", (tab, session_id))


_store = None


def store():
    global _store
    if _store is None:  # opened in the worker, not before it forks
        _store = SessionStore(DB_PATH)
    return _store


async def tab_page(request):
    tab = request.path_params["tab"]
    if tab not in TITLES:
        return PlainTextResponse("Not Found", status_code=404)
    session_id = request.cookies.get(COOKIE)
    row = store().get(session_id) if session_id else None
    new_session = row is None
    if new_session:
        session_id, csrf = store().create(tab)
    else:
        selected, csrf = row
        if selected != tab:  # opening a tab's page selects it, as in TabServer
            store().select(session_id, tab)
    response = templates.TemplateResponse(request, "page.html", {"heading": TITLES[tab], "selected": tab, "csrf": csrf},
                                          headers=SECURITY_HEADERS)
    if new_session:
        response.set_cookie(COOKIE, session_id, max_age=MAX_AGE, path="/", httponly=True, samesite="lax")
    return response


async def select(request):
    form = await request.form()
    session_id = request.cookies.get(COOKIE)
    row = store().get(session_id) if session_id else None
    if row is None or not secrets.compare_digest(str(form.get("csrf", "")), row[1]):
        return PlainTextResponse("Forbidden: the form is stale; reload the page", status_code=403)
    tab = form.get("tab")
    if tab not in TITLES:
        return PlainTextResponse("Bad Request: no such tab", status_code=400)
    store().select(session_id, tab)
    return RedirectResponse(f"/tabs/{tab}", status_code=303, headers=SECURITY_HEADERS)


async def healthz(request):
    return PlainTextResponse("ok")


app = Starlette(routes=[
    Route("/tabs/{tab}", tab_page),
    Route("/select", select, methods=["POST"]),
    Route("/healthz", healthz),
])
