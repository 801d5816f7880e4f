# SPDX-License-Identifier: Apache-2.0
"""Arabic: Accept-Language negotiation picks Arabic, the page is right-to-left and the
bar is mirrored (its first tab at the right edge)."""

from __future__ import annotations

import pytest

from support import ALL_VIEWPORTS, visible_ids


@ALL_VIEWPORTS
@pytest.mark.webkit
def test_arabic_is_right_to_left_with_the_bar_mirrored(browsers, viewport):
    browser = browsers.open(viewport, lang="ar")
    assert browser.run("return navigator.language;") == "ar"
    snapshot = browser.get("/tabs/featured")
    assert (snapshot["lang"], snapshot["dir"]) == ("ar", "rtl")
    shown = [item for item in snapshot["items"] if item["visible"]]
    first, rest = shown[0], shown[1:]
    assert first["id"] == "featured" and visible_ids(snapshot)[0] == "featured"
    # Mirrored: each item sits left of the one before it, the first is rightmost.
    for before, after in zip(shown, rest):
        assert after["rect"]["right"] <= before["rect"]["left"] + 0.5, (before["id"], after["id"])
    if snapshot["more"]["visible"]:
        assert snapshot["more"]["rect"]["right"] <= shown[-1]["rect"]["left"] + 0.5
    if viewport == "phone":
        # Items fill the phone's bar: the first one touches the right edge.
        assert abs(first["rect"]["right"] - snapshot["clientWidth"]) <= 1, first["rect"]
    else:
        # Centred items on wide screens: the first is the one nearest the right edge.
        assert first["rect"]["right"] == max(item["rect"]["right"] for item in shown)
    # The bar's labels are the Arabic ones (not the English defaults).
    assert snapshot["more"] is not None
    assert browser.run('return document.querySelector("nav.tab-bar").getAttribute("aria-label");') != "Tab bar"
