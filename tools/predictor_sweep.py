#!/usr/bin/env python3
"""Sweeps the TTU's ray-intersection predictor (docs/predictor.md) over the
settings of the MICRO 2021 paper's figures -- table entries, Go Up Level,
hash, warp repacking -- on the AO sample (rq_ambient_occlusion, through the
Khronos loader on this build's driver) in timing mode, per scene, against
the predictor off. Writes one CSV row per scene and setting (plus GMEAN
rows) and, per swept parameter and metric, a grouped bar chart in the style
of the paper's figures (a group per scene and GMEAN, a bar per value of the
parameter, the others at the paper's defaults).

    tools/predictor_sweep.py --build build-pred [--config mobile] [--width 128]
        [--height 128] [--spp 4] [--ao-fraction 0.3] [--entries 256,1024,4096] [--go-up-level 0,1,2,3,5]
        [--hash grid_spherical,two_point] [--repacking on,off] [--out DIR] [scene ...]

Only the standard library: the PNGs are written with zlib, the text with a
built-in 3x5 font.
"""
import argparse
import csv
import math
import os
import struct
import time
import zlib

from ao_sample import run_ao

SCENES = ["cornell_tiny", "teapot", "bunny", "dabrovic_sponza", "sibenik", "conference",
          "lost_empire", "dragon", "kitchen"]
# The paper's best table (section 6): where a chart does not sweep a
# parameter, it sits here.
PAPER = {"entries": 1024, "go_up_level": 3, "hash": "grid_spherical", "repacking": "on"}
PARAMS = ["entries", "go_up_level", "hash", "repacking"]


def run_sample(args, scene, overrides, work):
    """Runs the AO sample once; returns its counters (name -> int)."""
    conf = ",".join([args.config, "gpu.mode=timing", "gpu.timing_progress=false"] + overrides)
    values, _ = run_ao(args.build, conf, scene, args.width, args.height, work,
                       ["--spp", str(args.spp), "--ao-fraction", str(args.ao_fraction)],
                       "predictor_sweep")
    with open(os.path.join(work, "ao.png"), "rb") as f:
        values["_image"] = f.read()
    return values


def settings_of(args):
    """The predictor-off baseline, the paper's default, then each
    parameter's other values with the rest at the default."""
    out = [("off", None)]
    seen = set()
    for param in ["default"] + PARAMS:
        values = [None] if param == "default" else getattr(args, param)
        for v in values:
            s = dict(PAPER)
            if v is not None:
                s[param] = v
            key = tuple(s[p] for p in PARAMS)
            if key in seen:
                continue
            seen.add(key)
            out.append(("e%s_k%s_%s_%s" % key, s))
    return out


def overrides_of(s):
    return ["ttu.predictor.enabled=true", "ttu.predictor.entries=%d" % s["entries"],
            "ttu.predictor.go_up_level=%d" % s["go_up_level"], "ttu.predictor.hash=" + s["hash"],
            "ttu.predictor.repacking=" + s["repacking"]]


def figures(on, off):
    """The note's figures of one predictor-on run against its scene's off run."""
    rays = max(on["ttu.predictor_lookups"], 1)
    return {
        "ao_rays": on["ttu.predictor_lookups"],
        "predicted_pct": 100.0 * on["ttu.predictor_predicted"] / rays,
        "verified_pct": 100.0 * on["ttu.predictor_verified"] / rays,
        "mispredicted_pct": 100.0 * on["ttu.predictor_mispredicted"] / rays,
        "cycles_off": off["timing.chip_cycles"], "cycles_on": on["timing.chip_cycles"],
        "speedup": off["timing.chip_cycles"] / max(on["timing.chip_cycles"], 1),
        "fetches_off": off["ttu.node_fetches"], "fetches_on": on["ttu.node_fetches"],
        "fetches_saved_pct": 100.0 * (1 - on["ttu.node_fetches"] / max(off["ttu.node_fetches"], 1)),
        "eq1_pct": 100.0 * (on["ttu.predictor_nodes_skipped"] -
                            on["ttu.predictor_extra_node_fetches"]) / max(off["ttu.node_fetches"], 1),
        "l1_reads_off": off["l1.ttu_reads"], "l1_reads_on": on["l1.ttu_reads"],
        "l1_reads_saved_pct": 100.0 * (1 - on["l1.ttu_reads"] / max(off["l1.ttu_reads"], 1)),
        "repacked_warps": on["ttu.predictor_repacked_warps"],
        "collector_timeouts": on["ttu.predictor_collector_timeouts"],
        "image_identical": int(on["_image"] == off["_image"]),
    }


COLUMNS = ["ao_rays", "predicted_pct", "verified_pct", "mispredicted_pct", "cycles_off",
           "cycles_on", "speedup", "fetches_off", "fetches_on", "fetches_saved_pct", "eq1_pct",
           "l1_reads_off", "l1_reads_on", "l1_reads_saved_pct", "repacked_warps",
           "collector_timeouts", "image_identical"]


def gmean(values, shift):
    """Geometric mean of (shift + v) minus shift: shift 100 for percentages
    that can be negative (the paper's GMEAN of savings), 0 for ratios."""
    vals = [shift + v for v in values]
    if not vals or min(vals) <= 0:
        return float("nan")
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) - shift


# ---- PNG charts -----------------------------------------------------------

FONT = {  # 3x5 glyphs, rows top to bottom, 3 bits each
    "A": "010101111101101", "B": "110101110101110", "C": "011100100100011",
    "D": "110101101101110", "E": "111100110100111", "F": "111100110100100",
    "G": "011100101101011", "H": "101101111101101", "I": "111010010010111",
    "J": "001001001101010", "K": "101101110101101", "L": "100100100100111",
    "M": "101111111101101", "N": "110101101101101", "O": "010101101101010",
    "P": "110101110100100", "Q": "010101101110011", "R": "110101110101101",
    "S": "011100010001110", "T": "111010010010010", "U": "101101101101111",
    "V": "101101101101010", "W": "101101111111101", "X": "101101010101101",
    "Y": "101101010010010", "Z": "111001010100111", "0": "111101101101111",
    "1": "010110010010111", "2": "110001010100111", "3": "110001010001110",
    "4": "101101111001001", "5": "111100110001110", "6": "011100111101111",
    "7": "111001010010010", "8": "111101111101111", "9": "111101111001110",
    " ": "000000000000000", ".": "000000000000010", "-": "000000111000000",
    "_": "000000000000111", "%": "101001010100101", "=": "000111000111000",
    ",": "000000000010100", "(": "010100100100010", ")": "010001001001010",
    "/": "001001010100100", ":": "000010000010000", "+": "000010111010000",
}


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray([255]) * (w * h)

    def rect(self, x0, y0, x1, y1, gray):
        x0, x1 = max(0, min(x0, x1)), min(self.w, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h, max(y0, y1))
        for y in range(y0, y1):
            self.px[y * self.w + x0:y * self.w + x1] = bytes([gray]) * (x1 - x0)

    def text(self, x, y, s, scale=2, vertical=False):
        for i, ch in enumerate(s.upper()):
            g = FONT.get(ch, FONT[" "])
            for r in range(5):
                for c in range(3):
                    if g[r * 3 + c] == "1":
                        if vertical:  # reads bottom to top
                            px, py = x + r * scale, y - (i * 4 + c) * scale
                        else:
                            px, py = x + (i * 4 + c) * scale, y + r * scale
                        self.rect(px, py, px + scale, py + scale, 0)

    def png(self, path):
        raw = b"".join(b"\0" + bytes(self.px[y * self.w:(y + 1) * self.w]) for y in range(self.h))

        def chunk(kind, data):
            c = struct.pack(">I", len(data)) + kind + data
            return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h,
                                                                       8, 0, 0, 0, 0)) +
                    chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def bar_gray(i, n):
    return 40 + (180 * i) // max(n - 1, 1)


def chart(path, title, groups, bar_names, values, baseline):
    """Grouped bars: values[g][b]; baseline is where bars start (0, or 1
    for speedups)."""
    nb, ng = len(bar_names), len(groups)
    bw, gap = 10, 14
    gw = nb * bw + gap
    left, top = 70, 40
    labels_h = 8 * max(len(g) for g in groups) + 16  # group names, written upwards
    w = max(left + ng * gw + 20, 20 + 8 * len(title))
    h = top + 300 + labels_h + 14 * nb + 8
    flat = [v for row in values for v in row if not math.isnan(v)] + [baseline]
    lo, hi = min(flat), max(flat)
    if hi - lo < 1e-9:
        hi = lo + 1
    pad = (hi - lo) * 0.08
    lo, hi = lo - (pad if lo < baseline else 0), hi + pad
    c = Canvas(w, h)
    c.text(10, 10, title)

    def y_of(v):
        return top + int(300 * (hi - v) / (hi - lo))

    # Axis, gridlines with labels, baseline.
    step = 10 ** math.floor(math.log10((hi - lo) / 4))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= 6:
            step *= m
            break
    t = math.ceil(lo / step) * step
    while t <= hi:
        y = y_of(t)
        c.rect(left - 4, y, w - 10, y + 1, 215)
        label = ("%.2f" % t) if step < 0.1 else ("%.1f" % t) if step < 1 else "%d" % round(t)
        c.text(left - 8 - len(label) * 8, y - 4, label)
        t += step
    c.rect(left - 1, top, left, top + 300, 0)
    c.rect(left, y_of(baseline), w - 10, y_of(baseline) + 1, 0)
    for g, name in enumerate(groups):
        x = left + 8 + g * gw
        for b in range(nb):
            v = values[g][b]
            if math.isnan(v):
                continue
            c.rect(x + b * bw, y_of(max(v, baseline)), x + (b + 1) * bw - 1,
                   y_of(min(v, baseline)) + 1, bar_gray(b, nb))
        c.text(x + nb * bw // 2 - 5, top + 300 + 8 + len(name) * 8, name, vertical=True)
    # Legend: bars dark to light.
    for b, name in enumerate(bar_names):
        y = top + 300 + labels_h + b * 14
        c.rect(left, y, left + 20, y + 10, bar_gray(b, nb))
        c.text(left + 28, y, name)
    c.png(path)


METRICS = [("speedup", "SPEEDUP (CYCLES OFF / ON)", 1.0, 0),
           ("verified_pct", "% OF AO RAYS VERIFIED", 0.0, 100),
           ("fetches_saved_pct", "% NODE FETCHES SAVED", 0.0, 100),
           ("l1_reads_saved_pct", "% TTU L1 REQUESTS SAVED", 0.0, 100)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", default="mobile", help="preset or file under the settings")
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--height", type=int, default=128)
    ap.add_argument("--spp", type=int, default=4)
    ap.add_argument("--ao-fraction", dest="ao_fraction", type=float, default=0.3,
                    help="AO ray length as a fraction of the scene diagonal (paper: 0.25-0.4)")
    ap.add_argument("--entries", default="256,1024,4096")
    ap.add_argument("--go-up-level", dest="go_up_level", default="0,1,2,3,5")
    ap.add_argument("--hash", default="grid_spherical,two_point")
    ap.add_argument("--repacking", default="on,off")
    ap.add_argument("--out", default="predictor_sweep")
    ap.add_argument("--from-csv", dest="from_csv",
                    help="draw the charts from an earlier run's CSV instead of running (the "
                         "same --entries ... lists and scenes)")
    ap.add_argument("scenes", nargs="*")
    args = ap.parse_args()
    args.entries = [int(v) for v in args.entries.split(",")]
    args.go_up_level = [int(v) for v in args.go_up_level.split(",")]
    args.hash = args.hash.split(",")
    args.repacking = args.repacking.split(",")
    scenes = args.scenes or SCENES
    os.makedirs(args.out, exist_ok=True)
    settings = settings_of(args)
    results = {}  # (scene, setting name) -> figures
    if args.from_csv:
        with open(args.from_csv) as f:
            for row in csv.DictReader(f):
                if row["scene"] != "GMEAN":
                    results[(row["scene"], row["setting"])] = {k: float(row[k]) for k in COLUMNS}
    else:
        run_all(args, scenes, settings, results)
    draw_all(args, scenes, settings, results)


def run_all(args, scenes, settings, results):
    """Runs every setting on every scene into results and the CSV."""
    with open(os.path.join(args.out, "predictor_sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["scene", "setting"] + PARAMS + COLUMNS)
        for scene in scenes:
            t0 = time.time()
            off = run_sample(args, scene, [], os.path.join(args.out, "runs", scene, "off"))
            for name, s in settings[1:]:
                on = run_sample(args, scene, overrides_of(s),
                                os.path.join(args.out, "runs", scene, name))
                fig = figures(on, off)
                results[(scene, name)] = fig
                w.writerow([scene, name] + [s[p] for p in PARAMS] +
                           [round(fig[k], 4) if isinstance(fig[k], float) else fig[k]
                            for k in COLUMNS])
                f.flush()
            d = results[(scene, settings[1][0])]
            print("%-16s %5.1f s  default: predicted %5.1f%% verified %5.1f%% fetches saved "
                  "%6.2f%% speedup %.3f image %s" % (scene, time.time() - t0, d["predicted_pct"],
                                                      d["verified_pct"], d["fetches_saved_pct"],
                                                      d["speedup"],
                                                      "identical" if d["image_identical"] else
                                                      "DIFFERS"), flush=True)
        for name, s in settings[1:]:
            row = ["GMEAN", name] + [s[p] for p in PARAMS]
            for k in COLUMNS:
                vals = [results[(sc, name)][k] for sc in scenes]
                if k == "speedup":
                    row.append(round(gmean(vals, 0), 4))
                elif k.endswith("_pct"):
                    row.append(round(gmean(vals, 100), 4))
                else:
                    row.append("")
            w.writerow(row)


def draw_all(args, scenes, settings, results):
    """Charts: one per swept parameter and metric."""
    by_key = {tuple(s[p] for p in PARAMS): name for name, s in settings[1:]}
    for param in PARAMS:
        values_of_param = getattr(args, param)
        names = []
        for v in values_of_param:
            s = dict(PAPER)
            s[param] = v
            names.append(by_key[tuple(s[p] for p in PARAMS)])
        labels = [("%s=%s" % (param.replace("go_up_level", "K").replace("_", " "), v)).upper()
                  for v in values_of_param]
        for key, what, baseline, shift in METRICS:
            rows = [[results[(sc, n)][key] for n in names] for sc in scenes]
            rows.append([gmean([results[(sc, n)][key] for sc in scenes], shift) for n in names])
            title = "%s BY %s (%s %dX%d)" % (what, param.replace("_", " ").upper(),
                                            args.config.upper(), args.width, args.height)
            chart(os.path.join(args.out, "%s_%s.png" % (param, key.replace("_pct", ""))), title,
                  scenes + ["GMEAN"], labels, rows, baseline)
    print("wrote %d charts to %s" % (len(PARAMS) * len(METRICS), args.out))


if __name__ == "__main__":
    main()
