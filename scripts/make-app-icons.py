#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws the app's PNG icons (home screen, maskable, apple-touch) with the standard
library only, so they can be regenerated without an image editor:
    python3 scripts/make-app-icons.py Public/icons
"""
import math
import os
import struct
import sys
import zlib


def png(width, height, pixel):
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")


def icon(size, maskable):
    # Maskable icons keep their artwork inside the central 80% safe zone and fill the
    # whole square; plain icons are a rounded square.
    radius = 0 if maskable else size * 0.22
    scale = 0.8 if maskable else 1.0
    def pixel(x, y):
        cx, cy = x + 0.5, y + 0.5
        if radius:
            dx = max(radius - cx, 0, cx - (size - radius))
            dy = max(radius - cy, 0, cy - (size - radius))
            if dx * dx + dy * dy > radius * radius:
                return (0, 0, 0, 0)
        t = (cx + cy) / (2 * size)
        r, g, b = int(10 + 40 * t), int(132 - 60 * t), int(255 - 40 * t)
        # Artwork: a tab bar (bottom strip with three dots) and a play triangle above.
        u = (cx - size / 2) / (size * scale) + 0.5
        v = (cy - size / 2) / (size * scale) + 0.5
        white = (255, 255, 255, 255)
        if 0.16 <= u <= 0.84 and 0.66 <= v <= 0.78:
            return white
        for dot in (0.3, 0.5, 0.7):
            if (u - dot) ** 2 + (v - 0.58) ** 2 < 0.035 ** 2:
                return white
        if 0.22 <= v <= 0.48 and abs(u - 0.5) <= (v - 0.22) * 0.62:
            return white
        return (r, g, b, 255)
    return png(size, size, pixel)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "Public/icons"
    os.makedirs(out, exist_ok=True)
    for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True), ("apple-touch-icon.png", 180, True)]:
        with open(os.path.join(out, name), "wb") as f:
            f.write(icon(size, maskable))


if __name__ == "__main__":
    main()
