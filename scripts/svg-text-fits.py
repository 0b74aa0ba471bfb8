#!/usr/bin/env python3
"""Every line of text of the docs' hand-drawn figures fits inside its picture,
and no two lines of text cover each other (a label drawn over another).

Widths are DejaVu Sans's (the sans-serif of most Linux desktops, wider than
Arial or Helvetica): read from the font file's own metrics (cmap and hmtx),
so a line that fits here fits in a browser. Exit 0 when every line fits, 1
with each line that sticks out or covers another, 77 without the font (the reason appended to
$HPCLAB_SKIP_LOG, for ctest's summary).

  scripts/svg-text-fits.py docs/figures/*.svg
"""
import html
import os
import re
import struct
import sys

FONTS = {False: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
         True: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"}


def tables(data):
    count = struct.unpack(">H", data[4:6])[0]
    out = {}
    for i in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        out[tag.decode()] = offset
    return out


def char_to_glyph(data, cmap):
    """The (3, x) format-4 subtable: the Basic Multilingual Plane."""
    for i in range(struct.unpack(">H", data[cmap + 2:cmap + 4])[0]):
        platform, _, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        sub = cmap + offset
        if platform != 3 or struct.unpack(">H", data[sub:sub + 2])[0] != 4:
            continue
        seg2 = struct.unpack(">H", data[sub + 6:sub + 8])[0]
        n = seg2 // 2
        ends = struct.unpack(">%dH" % n, data[sub + 14:sub + 14 + seg2])
        starts_at = sub + 16 + seg2
        starts = struct.unpack(">%dH" % n, data[starts_at:starts_at + seg2])
        deltas = struct.unpack(">%dh" % n, data[starts_at + seg2:starts_at + 2 * seg2])
        ranges_at = starts_at + 2 * seg2
        ranges = struct.unpack(">%dH" % n, data[ranges_at:ranges_at + seg2])
        glyphs = {}
        for s in range(n):
            for c in range(starts[s], min(ends[s], 0xFFFE) + 1):
                if ranges[s] == 0:
                    glyphs[c] = (c + deltas[s]) & 0xFFFF
                else:
                    at = ranges_at + 2 * s + ranges[s] + 2 * (c - starts[s])
                    g = struct.unpack(">H", data[at:at + 2])[0]
                    glyphs[c] = (g + deltas[s]) & 0xFFFF if g else 0
        return glyphs
    raise ValueError("no Unicode cmap")


def load(path):
    data = open(path, "rb").read()
    t = tables(data)
    units = struct.unpack(">H", data[t["head"] + 18:t["head"] + 20])[0]
    metrics = struct.unpack(">H", data[t["hhea"] + 34:t["hhea"] + 36])[0]
    advances = [struct.unpack(">H", data[t["hmtx"] + 4 * i:t["hmtx"] + 4 * i + 2])[0] for i in range(metrics)]
    return units, advances, char_to_glyph(data, t["cmap"])


def width(font, text, size):
    units, advances, glyphs = font
    return sum(advances[min(glyphs.get(ord(c), 0), len(advances) - 1)] for c in text) * size / units


def attribute(attrs, name, default=None):
    m = re.search(r'\b%s="([^"]*)"' % name, attrs)
    return m.group(1) if m else default


def text_boxes(svg, fonts):
    """Each line of text with an x and a y: (text, left, right, top, bottom), from the font's widths;
    a line's ink from 0.8 of its size above the baseline to 0.2 below it."""
    base = float(attribute(re.search(r"<svg[^>]*>", svg).group(0), "font-size", "12"))
    for m in re.finditer(r"<text([^>]*)>(.*?)</text>", svg, re.S):
        attrs, text = m.group(1), html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
        if attribute(attrs, "x") is None or attribute(attrs, "y") is None:
            continue
        x, y = float(attribute(attrs, "x")), float(attribute(attrs, "y"))
        size = float(attribute(attrs, "font-size", base))
        w = width(fonts["bold" in attrs], text, size)
        anchor = attribute(attrs, "text-anchor", "start")
        left = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
        yield text, left, left + w, y - 0.8 * size, y + 0.2 * size


def stray_lines(path, fonts):
    svg = open(path, encoding="utf-8").read()
    picture = float(attribute(re.search(r"<svg[^>]*>", svg).group(0), "width"))
    boxes = list(text_boxes(svg, fonts))
    for text, left, right, _, _ in boxes:
        if left < 0 or right > picture:
            yield "%s: '%s' spans %.0f to %.0f of %.0f" % (path, text, left, right, picture)
    for i, (a, l1, r1, t1, b1) in enumerate(boxes):
        for b, l2, r2, t2, b2 in boxes[i + 1:]:
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                yield "%s: '%s' and '%s' are drawn over each other" % (path, a, b)


def main(paths):
    if not all(os.path.exists(f) for f in FONTS.values()):
        why = "svg-text-fits: no DejaVu Sans here (Debian's fonts-dejavu-core): the figures' text is not measured"
        print(why)
        if os.environ.get("HPCLAB_SKIP_LOG"):
            with open(os.environ["HPCLAB_SKIP_LOG"], "a") as log:
                log.write(why + "\n")
        return 77
    fonts = {bold: load(f) for bold, f in FONTS.items()}
    strays = [line for p in paths for line in stray_lines(p, fonts)]
    print("\n".join(strays) if strays else "%d figures: every line of text fits" % len(paths))
    return 1 if strays else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
