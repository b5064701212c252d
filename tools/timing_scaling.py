#!/usr/bin/env python3
"""The timing mode's SM scaling study (docs/timing.md, issue 31): runs the
AO sample (rq_ambient_occlusion, through the Khronos loader on this build's
driver) in timing mode on a preset with the SM count changed through
gpu.gpcs / gpu.tpcs_per_gpc / gpu.sms_per_tpc, and prints per scene a
Markdown table: chip cycles, rays per chip cycle (ttu.rays), speed-up and
efficiency against the smallest SM count, and what the counters say limits
the chip at that point.

    tools/timing_scaling.py [--build build] [--config desktop] [--width 256]
        [--height 256] [--sms 1,2,4,8,16,72] [--out DIR] [scene ...]

The limit named: the TTU's intersection datapath when it is busy most of
the cycles its SM is busy (ttu.datapath_busy_cycles / sm.cycles), DRAM
when its traffic uses most of the preset's dram.bytes_per_cycle, idle
schedulers when they mostly have no resident warp, else the largest stall
reason; and the grid's tail when the SMs are busy (sm.cycles, counted while
an SM holds work) for less than 90% of SMs x chip cycles: the last
workgroups run on a few SMs while the others have nothing left. Also prints the simulation
speed (SM cycles per host second of the grid, from the progress line).
"""
import argparse
import os
import re
import subprocess
import sys

from ao_sample import run_ao

# SM count -> (gpu.gpcs, gpu.tpcs_per_gpc, gpu.sms_per_tpc), TU102-like
# shapes (2 SMs per TPC) as far as they go.
SHAPES = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2), 16: (2, 4, 2),
          32: (4, 4, 2), 36: (3, 6, 2), 72: (6, 6, 2)}
STALLS = ["dependency", "memory", "pipe_busy", "barrier", "fetch", "no_warp"]


def preset_value(args, key):
    """A key's number from `ppu-config PRESET` (e.g. dram.bytes_per_cycle)."""
    tool = os.path.join(args.build, "tools/ppu_config/ppu-config")
    out = subprocess.run([tool, args.config], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    m = re.search(r"^%s = ([0-9.]+)" % re.escape(key), out, re.M)
    if not m:
        sys.exit("timing_scaling: %s names no %s" % (args.config, key))
    return float(m.group(1))


def run(args, scene, sms, work):
    """One timed run; returns (counters, seconds of the grids)."""
    conf = "%s,gpu.mode=timing,gpu.gpcs=%d,gpu.tpcs_per_gpc=%d,gpu.sms_per_tpc=%d" % (
        (args.config,) + SHAPES[sms])
    values, out = run_ao(args.build, conf, scene, args.width, args.height, work,
                         tag="timing_scaling")
    # "vkppu timing: grid N: done, C cycles in S s" (grids over a second).
    seconds = sum(float(x) for x in re.findall(r"done, \d+ cycles in ([0-9.]+) s", out))
    return values, seconds


def limit(c, sms, schedulers, dram_bpc):
    """What bounds the chip at this point, from the counters."""
    sm_cycles = max(c["sm.cycles"], 1)
    datapath = c["ttu.datapath_busy_cycles"] / sm_cycles
    dram = (c["dram.bytes_read"] + c["dram.bytes_written"]) / (
        max(c["timing.chip_cycles"], 1) * dram_bpc)
    slots = sm_cycles * schedulers
    stalls = {k: c["sm.stall_" + k] / slots for k in STALLS}
    busy = sm_cycles / (sms * max(c["timing.chip_cycles"], 1))
    tail = "; tail: SMs busy %.0f%% of the time" % (100 * busy) if busy < 0.9 else ""
    if datapath >= 0.6:
        return "TTU datapath %.0f%% busy%s" % (100 * datapath, tail)
    if dram >= 0.6:
        return "DRAM %.0f%% of bandwidth%s" % (100 * dram, tail)
    if stalls["no_warp"] >= 0.3:
        return "no resident warp %.0f%% of issue slots%s" % (100 * stalls["no_warp"], tail)
    top = max(STALLS[:-1], key=lambda k: stalls[k])
    what = {"memory": "waiting for TTU/memory results", "pipe_busy": "TTU slots or pipes full",
            "dependency": "ALU dependencies", "barrier": "barriers", "fetch": "instruction fetch"}
    return "%s (stall_%s %.0f%%)%s" % (what[top], top, 100 * stalls[top], tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", default="desktop")
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--height", type=int, default=256)
    ap.add_argument("--sms", default="1,2,4,8,16,72")
    ap.add_argument("--out", default="timing-scaling")
    ap.add_argument("scenes", nargs="*", default=["sibenik", "conference", "teapot"])
    args = ap.parse_args()
    sm_counts = [int(x) for x in args.sms.split(",")]
    for n in sm_counts:
        if n not in SHAPES:
            sys.exit("timing_scaling: no shape for %d SMs (have %s)" % (n, sorted(SHAPES)))
    dram_bpc = preset_value(args, "dram.bytes_per_cycle")
    schedulers = int(preset_value(args, "sm.schedulers"))
    for scene in args.scenes:
        print("\n%s, %dx%d, %s preset:\n" % (scene, args.width, args.height, args.config))
        print("| SMs | chip cycles | rays/cycle | speed-up | efficiency | L2 hit | DRAM B/cycle "
              "| limit | M SM-cycles/s |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
        base = None
        image = None
        for n in sm_counts:
            c, seconds = run(args, scene, n, os.path.join(args.out, scene, str(n)))
            with open(os.path.join(args.out, scene, str(n), "ao.png"), "rb") as f:
                png = f.read()
            if image is not None and png != image:
                sys.exit("timing_scaling: %s's image at %d SMs differs" % (scene, n))
            image = png
            cycles = c["timing.chip_cycles"]
            rays = c["ttu.rays"] / cycles
            if base is None:
                base = (n, rays)
            speedup = rays / base[1]
            l2 = c["l2.hits"] / max(c["l2.hits"] + c["l2.misses"], 1)
            dram = (c["dram.bytes_read"] + c["dram.bytes_written"]) / cycles
            speed = "%.2f" % (c["sm.cycles"] / seconds / 1e6) if seconds else "-"
            print("| %d | %d | %.3f | %.2f | %.0f%% | %.0f%% | %.1f | %s | %s |" % (
                n, cycles, rays, speedup, 100 * speedup * base[0] / n, 100 * l2, dram,
                limit(c, n, schedulers, dram_bpc), speed), flush=True)


if __name__ == "__main__":
    main()
