#!/usr/bin/env python3
"""Runs the unmodified vkcube (vulkan-tools) on the ICD that VK_ICD_FILENAMES
names, under Xvfb (xvfb-run), and checks a presented frame.

usage: check_vkcube.py <vkcube> <frames>

The driver dumps every presented frame of the window swapchain as a PNG
(VKPPU_PRESENT_PNG, docs/wsi.md). The last frame must show the cube: the
corner keeps vkcube's clear colour (0.2, 0.2, 0.2), the centre is mostly
other pixels, among them the grey of the cube's texture and the teal of its
LunarG logo. Prints the frames per second of the whole run (wall time,
start-up included). Exits 77 (SKIP) when vkcube or xvfb-run is missing.
Python standard library only: the PNG is decoded here (8-bit RGBA,
non-interlaced, as the driver's writer makes them).
"""

import glob
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

SKIP = 77


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color != 6 or interlace:
                raise ValueError("expected 8-bit RGBA, not interlaced")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b = prev[x]
            c = prev[x - 4] if x >= 4 else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 0xFF
            elif ftype == 2:
                line[x] = (line[x] + b) & 0xFF
            elif ftype == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append(line)
        prev = line
    return width, height, rows


def main():
    vkcube, frames = sys.argv[1], int(sys.argv[2])
    xvfb_run = shutil.which("xvfb-run")
    if not os.path.exists(vkcube) or not xvfb_run:
        print("SKIP: vkcube or xvfb-run is not installed")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["VKPPU_PRESENT_PNG"] = tmp
        env["VKPPU_PRESENT_PNG_EVERY"] = str(max(1, frames - 1))
        start = time.monotonic()
        run = subprocess.run([xvfb_run, "-a", vkcube, "--c", str(frames)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        seconds = time.monotonic() - start
        out = run.stdout.decode(errors="replace")
        print(out.strip())
        if run.returncode != 0:
            print("FAIL: vkcube exited with status %d" % run.returncode)
            return 1
        if "Validation Error" in out or "VUID" in out:
            print("FAIL: validation messages in vkcube's output")
            return 1
        pngs = sorted(glob.glob(os.path.join(tmp, "*.png")))
        if not pngs:
            print("FAIL: no frame was dumped (is the driver vkppu?)")
            return 1
        width, height, rows = read_png(pngs[-1])
        print("%d frames in %.2f s: %.1f frames/s; checked %s (%dx%d)" %
              (frames, seconds, frames / seconds, os.path.basename(pngs[-1]), width, height))

    def px(x, y):
        r = rows[y]
        return r[4 * x], r[4 * x + 1], r[4 * x + 2]

    background = (51, 51, 51)  # vkcube clears to 0.2
    corner = px(2, 2)
    if any(abs(c - b) > 2 for c, b in zip(corner, background)):
        print("FAIL: corner pixel %s is not vkcube's clear colour" % (corner,))
        return 1
    cx, cy, half = width // 2, height // 2, min(width, height) // 6
    total = other = teal = grey = 0
    for y in range(cy - half, cy + half):
        for x in range(cx - half, cx + half):
            r, g, b = px(x, y)
            total += 1
            if any(abs(c - k) > 3 for c, k in zip((r, g, b), background)):
                other += 1
            if b > r + 30 and g > r + 20:
                teal += 1
            if abs(r - g) < 12 and abs(g - b) < 12 and r > 70:
                grey += 1
    print("centre: %d of %d pixels not background, %d teal, %d grey" % (other, total, teal, grey))
    if other < total * 0.9 or teal < total * 0.02 or grey < total * 0.05:
        print("FAIL: the cube is not in the centre of the frame")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
