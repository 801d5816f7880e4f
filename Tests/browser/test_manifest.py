# SPDX-License-Identifier: Apache-2.0
"""The web app manifest: Chromium considers the app installable, and the manifest keeps
its URLs relative so the app works under a base path behind a proxy."""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urljoin, urlparse

import pytest


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_chromium_reports_the_app_installable(server, browsers, viewport):
    browser = browsers.open(viewport)
    browser.get("/tabs/featured")
    href = browser.run('return document.querySelector("link[rel=manifest]").href;')
    manifest = browser.driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest.get("errors") == [], manifest.get("errors")
    assert urlparse(manifest["url"]).path == urlparse(href).path
    # Chromium fetches and checks the manifest and its icons: wait for its verdict.
    errors = browser.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors["installabilityErrors"] == [], errors

    # The relative scope resolves against the manifest's URL: the whole app.
    parsed = manifest.get("parsed") or {}
    assert parsed.get("scope") == server.url("/"), parsed


def test_manifest_urls_are_relative(server):
    page = urllib.request.urlopen(server.url("/tabs/featured"), timeout=5).read().decode()
    start = page.index('rel="manifest"')
    href = page[page.index('href="', start) + 6:].split('"', 1)[0]
    manifest_url = urljoin(server.url("/"), href.replace("&amp;", "&"))
    with urllib.request.urlopen(manifest_url, timeout=5) as response:
        assert response.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.load(response)
    for key in ("start_url", "scope", "id"):
        value = manifest[key]
        assert not value.startswith(("/", "http:", "https:")), f"{key} {value!r} is not relative"
    # Relative to the manifest's own URL, so /app/manifest.webmanifest gives /app/.
    assert urljoin("http://h/app/manifest.webmanifest", manifest["start_url"]) == "http://h/app/"
    assert manifest["display"] == "standalone" and manifest["name"] and manifest["short_name"]
    sizes = {icon["sizes"] for icon in manifest["icons"] if "any" in icon.get("purpose", "any")}
    assert {"192x192", "512x512"} <= sizes
    assert any("maskable" in icon.get("purpose", "") for icon in manifest["icons"])
    for icon in manifest["icons"]:
        with urllib.request.urlopen(urljoin(manifest_url, icon["src"]), timeout=5) as response:
            assert response.status == 200 and response.headers["Content-Type"] == icon["type"]
