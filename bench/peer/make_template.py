#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns the page TabServer renders for /tabs/music (a visitor with a session) into the
Python peer's Jinja2 template: the same bytes, with the session-dependent parts as
variables -- the heading (in the title, the header and the h1), the CSRF token of every
form, the form's return path, and which bar item is selected (its class and
aria-current). Usage: make_template.py PAGE.html TEMPLATE.html [TABS.json]
TABS.json gets the tab ids and titles the bar shows, for the peer's routes.
`make(page, "go")` gives the Go peer's html/template instead (bench/peer-go)."""
import json
import re
import sys


# The placeholders of each template language: Jinja2 (the Python peer) and Go's
# html/template (the Go peer; it will not let an {{if}} end in another attribute than it
# began in, so aria-current gets a condition of its own). Both give the same bytes.
FLAVOURS = {
    "jinja": {
        "heading": "{{ heading }}", "selected": "{{ selected }}", "csrf": "{{ csrf }}",
        "when_selected": lambda tab: f'{{% if selected == "{tab}" %}} is-selected" aria-current="page{{% endif %}}"',
    },
    "go": {
        "heading": "{{.Heading}}", "selected": "{{.Selected}}", "csrf": "{{.CSRF}}",
        "when_selected": lambda tab: (f'{{{{if eq .Selected "{tab}"}}}} is-selected{{{{end}}}}"'
                                      f'{{{{if eq .Selected "{tab}"}}}} aria-current="page"{{{{end}}}}'),
    },
}


def make(page: str, flavour: str = "jinja"):
    names = FLAVOURS[flavour]
    selected = re.findall(r'name="tab" value="([^"]+)" class="tab is-selected" aria-current="page"', page)
    assert selected == ["music"], f"expected music selected, found {selected}"
    csrf = re.findall(r'name="csrf" value="([^"]+)"', page)
    assert csrf and len(set(csrf)) == 1, "no CSRF token, or several"
    tabs = re.findall(r'name="tab" value="([^"]+)" class="tab[^"]*"(?: aria-current="page")?>\n'
                      r'<span class="tab-icon"[^\n]*\n[^\n]*\n<span class="tab-title" aria-hidden="true">([^<]+)</span>', page)
    assert len(tabs) >= 5, f"found only {len(tabs)} bar items"
    # Either language's delimiters would be read as template syntax: the page has none
    # (nor an HTML comment, which Go's html/template drops).
    assert "{{" not in page and "{%" not in page and "{#" not in page and "<!--" not in page
    out = page
    replacements = [
        ("<title>Music · ", f"<title>{names['heading']} · "),
        ('<p class="inline-title" aria-hidden="true">Music</p>',
         f'<p class="inline-title" aria-hidden="true">{names["heading"]}</p>'),
        ('<h1 class="app-title" tabindex="-1">Music</h1>', f'<h1 class="app-title" tabindex="-1">{names["heading"]}</h1>'),
        ('name="return" value="/tabs/music"', f'name="return" value="/tabs/{names["selected"]}"'),
    ]
    for old, new in replacements:
        assert out.count(old) == 1, f"{old!r} appears {out.count(old)} times"
        out = out.replace(old, new)
    out = out.replace(f'name="csrf" value="{csrf[0]}"', f'name="csrf" value="{names["csrf"]}"')
    out = out.replace(' class="tab is-selected" aria-current="page"', ' class="tab"')
    for tab_id, _ in tabs:
        old = f'name="tab" value="{tab_id}" class="tab"'
        assert out.count(old) == 1, old
        out = out.replace(old, f'name="tab" value="{tab_id}" class="tab' + names["when_selected"](tab_id))
    return out, [{"id": i, "title": t} for i, t in tabs]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        page = f.read()
    template, tabs = make(page)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(template)
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            json.dump(tabs, f)


if __name__ == "__main__":
    main()
