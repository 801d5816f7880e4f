# SPDX-License-Identifier: Apache-2.0
"""What the floating bar's tests measure ("barStyle": "floating"): the capsule (drawn by
the item list's ::before), the search circle, the lens, and the contrast of what the bar
shows over what is behind it, from the pixels drawn."""

from __future__ import annotations

# The capsule, the search circle and the lens as drawn: boxes in viewport pixels, radii,
# fills and filters (computed styles of the pseudo-elements that draw them).
GEOMETRY = r"""
const nav = document.querySelector("nav.tab-bar");
const list = nav.querySelector(".tab-items");
const shown = (e) => !!e && e.getBoundingClientRect().width > 0;
const l = list.getBoundingClientRect();
const before = getComputedStyle(list, "::before");
const px = (v) => parseFloat(v) || 0;
const capsule = {left: l.left + px(before.left), right: l.right - px(before.right), top: l.top + px(before.top),
                 bottom: l.bottom - px(before.bottom)};
capsule.width = capsule.right - capsule.left;
capsule.height = capsule.bottom - capsule.top;
const search = nav.querySelector(".tab-item.is-search > .tab");
const circle = shown(search) ? search.getBoundingClientRect().toJSON() : null;
const circleStyle = search ? getComputedStyle(search) : null;
const filter = (s) => s ? (s.backdropFilter && s.backdropFilter !== "none" ? s.backdropFilter : s.webkitBackdropFilter) || "none" : null;
const selected = [...nav.querySelectorAll(".tab-item > .tab")].filter((t) =>
  shown(t) && parseFloat(getComputedStyle(t, "::before").opacity) === 1 && getComputedStyle(t, "::before").content !== "none");
const lens = selected.length ? getComputedStyle(selected[0], "::before") : null;
const lensBox = selected.length ? (() => {
  const b = selected[0].getBoundingClientRect();
  return {left: b.left + px(lens.left), right: b.right - px(lens.right), top: b.top + px(lens.top), bottom: b.bottom - px(lens.bottom)};
})() : null;
return {
  innerWidth, innerHeight, dir: document.documentElement.dir, floating: document.body.classList.contains("bar-floating"),
  capsule, radius: px(before.borderTopLeftRadius), content: before.content,
  fill: before.backgroundColor, filter: filter(before), border: px(before.borderTopWidth),
  borderColor: before.borderTopColor,
  circle, circleRadius: circleStyle ? px(circleStyle.borderTopLeftRadius) : null,
  circleFill: circleStyle ? circleStyle.backgroundColor : null, circleFilter: filter(circleStyle),
  circleBorder: circleStyle ? px(circleStyle.borderTopWidth) : null,
  lensed: selected.map((t) => t.value || t.name), lens: lensBox,
  items: [...nav.querySelectorAll(".tab-item:not(.is-search) > .tab")].filter(shown).map((t) => ({
    id: t.value || t.name, rect: t.getBoundingClientRect().toJSON()})),
};
"""

# A canvas resolves any CSS colour (color-mix, system colours) to sRGB.
RGBA = r"""
const canvas = document.createElement("canvas");
canvas.width = canvas.height = 1;
const ctx = canvas.getContext("2d", {willReadFrequently: true});
return arguments[0].map((css) => {
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = "#000"; ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  ctx.clearRect(0, 0, 1, 1);
  ctx.globalAlpha = 1;
  return [d[0], d[1], d[2], d[3] / 255];
});
"""

# Puts a backdrop under the bar (above the page): white, black, or the page's most
# colourful artwork (the tile whose first colour has the most chroma), stretched.
BACKDROP = r"""
document.getElementById("test-backdrop")?.remove();
const kind = arguments[0];
const layer = document.createElement("div");
layer.id = "test-backdrop";
layer.setAttribute("aria-hidden", "true");
layer.style.cssText = "position:fixed;inset:0;z-index:9;pointer-events:none";
if (kind === "artwork") {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 8;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  let best = null, bestChroma = -1;
  for (const tile of document.querySelectorAll(".artwork")) {
    const r = tile.getBoundingClientRect();
    if (r.width === 0) continue;
    // The tile's colours: its gradient drawn small, the chroma of its most colourful pixel.
    const hue = getComputedStyle(tile).getPropertyValue("--hue");
    const gradient = ctx.createLinearGradient(0, 0, 8, 8);
    const probe = document.createElement("div");
    probe.style.cssText = `color:hsl(${hue} 70% 55%)`;
    document.body.append(probe);
    const first = getComputedStyle(probe).color;
    probe.style.color = `hsl(calc(${hue} + 40) 65% 35%)`;
    const last = getComputedStyle(probe).color;
    probe.remove();
    gradient.addColorStop(0, first); gradient.addColorStop(1, last);
    ctx.fillStyle = gradient; ctx.fillRect(0, 0, 8, 8);
    const d = ctx.getImageData(0, 0, 8, 8).data;
    for (let i = 0; i < d.length; i += 4) {
      const chroma = Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]);
      if (chroma > bestChroma) { bestChroma = chroma; best = tile; }
    }
  }
  layer.style.backgroundImage = getComputedStyle(best).backgroundImage;
  layer.dataset.hue = getComputedStyle(best).getPropertyValue("--hue");
} else {
  layer.style.background = kind;
}
document.body.append(layer);
return layer.dataset.hue || kind;
"""

# What the bar draws as text and icons: each visible item's title and icon boxes and
# their colour (with the item's opacity); then `HIDE` hides them (their boxes keep their
# place, the glass and the lens stay) so the pixels behind them can be read.
MARKS = r"""
const nav = document.querySelector("nav.tab-bar");
const marks = [];
for (const tab of nav.querySelectorAll(".tab-item > .tab")) {
  if (tab.getBoundingClientRect().width === 0 || tab.disabled) continue;
  for (const part of tab.querySelectorAll(".tab-title, .tab-icon")) {
    const r = part.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || getComputedStyle(part).display === "none") continue;
    const style = getComputedStyle(part);
    const colour = part.classList.contains("tab-icon") ? style.backgroundColor : style.color;
    marks.push({tab: tab.value || tab.name, part: part.className, colour,
                opacity: parseFloat(getComputedStyle(tab).opacity), rect: r.toJSON()});
  }
}
return marks;
"""
HIDE = r"""
let style = document.getElementById("test-hide-marks");
if (!style) {
  style = document.createElement("style");
  style.id = "test-hide-marks";
  style.textContent = "nav.tab-bar .tab-title, nav.tab-bar .tab-icon, nav.tab-bar .tab-badge { visibility: hidden !important; }";
  document.head.append(style);
}
"""
SHOW = 'document.getElementById("test-hide-marks")?.remove();'


def luminance(rgb) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    x, y = sorted((luminance(a), luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


def over(top, bottom):
    alpha = top[3]
    return [top[i] * alpha + bottom[i] * (1 - alpha) for i in range(3)]


# Whether every finite animation and transition of the page has ended: an item's colour
# or opacity read halfway through its fade is not the colour it rests at.
STILL = r"""
return document.getAnimations().every((a) => a.playState !== "running"
  || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
"""


def worst_contrasts(browser, kind: str) -> list[dict]:
    """For each title and icon of the bar, the lowest contrast of its colour against the
    pixels drawn behind it, with `kind` ("white", "black", "artwork") under the bar, once
    the bar has come to rest."""
    browser.run(BACKDROP, kind)
    browser.wait(lambda: browser.run(STILL), "the bar's transitions did not end")
    marks = browser.run(MARKS)
    colours = browser.run(RGBA, [mark["colour"] for mark in marks])
    browser.run(HIDE)
    after_two_frames(browser)
    try:
        regions = browser.region_pixels([mark["rect"] for mark in marks])
    finally:
        browser.run(SHOW)
        browser.run('document.getElementById("test-backdrop")?.remove();')
    results = []
    for mark, colour, pixels in zip(marks, colours, regions):
        lowest = None
        for pixel in pixels:
            ground = pixel[:3]
            seen = over([*colour[:3], colour[3] * mark["opacity"]], ground)
            ratio = contrast(seen, ground)
            lowest = ratio if lowest is None else min(lowest, ratio)
        results.append({"tab": mark["tab"], "part": mark["part"], "ratio": round(lowest or 0, 2), "kind": kind})
    return results


def after_two_frames(browser) -> None:
    browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(done));")


def rgba(browser, css: str) -> list[float]:
    return browser.run(RGBA, [css])[0]
