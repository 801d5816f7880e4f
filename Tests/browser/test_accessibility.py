# SPDX-License-Identifier: Apache-2.0
"""axe-core finds no violations on every kind of page, in light and dark mode, and a
screenshot of each is kept in screenshots/ for people to look at."""

from __future__ import annotations

import pytest
from axe_selenium_python import Axe

from support import ALL_VIEWPORTS

PAGES = {
    "tab": ("/tabs/music", 200),
    "drilldown": ("/tabs/music/albums/1", 200),
    "more": ("/more", 200),
    "customize": ("/more/edit", 200),
    "notfound": ("/tabs/nope", 404),
}

# Colours of the text the bar shows, composited over what is behind it, with their
# contrast ratio. A canvas resolves any CSS colour syntax (color-mix, color()) to sRGB.
_BAR_CONTRAST = r"""
const canvas = document.createElement("canvas");
canvas.width = canvas.height = 1;
const ctx = canvas.getContext("2d", {willReadFrequently: true});
const rgba = (css) => {
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = "#000"; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
};
const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const page = over(rgba(getComputedStyle(document.body).backgroundColor), [255, 255, 255, 1]);
const nav = document.querySelector("nav.tab-bar");
const barBackground = over(rgba(getComputedStyle(nav).backgroundColor), page);
// Disabled items are exempt from the contrast rule (WCAG 1.4.3).
return [...nav.querySelectorAll(".tab-title")].filter((t) => t.getBoundingClientRect().width > 0 &&
    !t.closest(".tab").disabled).map((t) => {
  const fg = over(rgba(getComputedStyle(t).color), barBackground);
  const opacity = parseFloat(getComputedStyle(t.closest(".tab")).opacity);
  const seen = over(fg.slice(0, 3).concat([opacity]), barBackground);
  return {title: t.textContent.trim(), ratio: ratio(seen, barBackground)};
});
"""


def _report(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:6]:
            messages = [check["message"] for kind in ("any", "all", "none") for check in node[kind]]
            lines.append(f"    {' '.join(node['target'])}: {'; '.join(messages)[:300]}")
    return "\n".join(lines)


@ALL_VIEWPORTS
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violations(browsers, screenshots, viewport, scheme):
    browser = browsers.open(viewport)
    browser.color_scheme(scheme)
    failures = []
    for name, (path, status) in PAGES.items():
        browser.get(path)
        assert browser.run("return matchMedia(arguments[0]).matches;", f"(prefers-color-scheme: {scheme})")
        status_seen = browser.run(
            "return performance.getEntriesByType('navigation')[0].responseStatus;")
        assert status_seen == status, f"{path} answered {status_seen}"
        assert browser.snapshot()["bar"] is not None, f"{path} has no tab bar"
        browser.screenshot(screenshots, f"{scheme}-{name}")
        axe = Axe(browser.driver)
        axe.inject()
        results = axe.run()
        if results["violations"]:
            failures.append(f"--- {path} ({scheme}, {viewport})\n{_report(results['violations'])}")
        # axe cannot see through the bar's translucent colour-mix background: check the
        # labels' contrast (WCAG AA for small text) directly.
        for label in browser.run(_BAR_CONTRAST):
            if label["ratio"] < 4.5:
                failures.append(f"--- {path} ({scheme}, {viewport}): bar label {label['title']!r} "
                                f"has contrast {label['ratio']:.2f}:1, below 4.5:1")
    assert not failures, "\n".join(failures)
