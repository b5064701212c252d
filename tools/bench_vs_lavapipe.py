#!/usr/bin/env python3
"""The workloads of issue 20 on vkppu and on lavapipe, one after the other in
one run on this machine, with the ratio of the two (the machine is shared
and noisy: absolute times are not comparable across runs, ratios from the
same run are). Not a test: it prints figures.

usage: tools/bench_vs_lavapipe.py [--build DIR] [--quick] [--only NAME,...]

Each workload is a sample that prints its own figure; higher is better for
rates, lower for times. --quick runs smaller sizes (a smoke run)."""
import argparse
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LVP = "/usr/share/vulkan/icd.d/lvp_icd.json"


def workloads(quick):
    n = 512 if quick else 2048
    w, h = (160, 120) if quick else (640, 360)
    return [
        ("mandelbrot", f"{n}x{n}, 256 iterations, dispatch s",
         ["compute_mandelbrot/compute_mandelbrot", "--width", str(n), "--height", str(n),
          "--iterations", "256", "--output", "/tmp/bench_mandelbrot.png"],
         r"dispatch ([0-9.]+) s", False),
        ("raster_fill_rate", "20000 8x8 triangles, M fragments/s",
         ["raster_fill_rate/raster_fill_rate", "--output", "/tmp/bench_fill.png"],
         r"([0-9.]+) M fragments/s", True),
        ("hybrid_shadows", f"dabrovic_sponza {w}x{h}, frames/s",
         ["hybrid_shadows/hybrid_shadows", "--scene", "dabrovic_sponza", "--width", str(w),
          "--height", str(h), "--frames", "3", "--benchmark", "--output",
          "/tmp/bench_hybrid.png"],
         r"([0-9.]+) frames/s", True),
        ("rq_ambient_occlusion", "sibenik 256x256, Mrays/s",
         ["rq_ambient_occlusion/rq_ambient_occlusion", "--scene", "sibenik", "--width", "256",
          "--height", "256", "--benchmark", "--output", "/tmp/bench_ao.png"],
         r"= ([0-9.]+) Mrays/s", True),
    ]


def run(build, icd, args, pattern):
    env = dict(os.environ, VK_ICD_FILENAMES=icd, VK_DRIVER_FILES=icd)
    p = subprocess.run([os.path.join(build, "samples", args[0])] + args[1:], env=env,
                       capture_output=True, text=True, timeout=3600)
    m = re.findall(pattern, p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
        return None
    return float(m[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    ppu = os.path.join(a.build, "vkppu_icd_build.json")
    only = set(a.only.split(",")) if a.only else None
    print("| workload | what | vkppu | lavapipe | vkppu / lavapipe (speed) |")
    print("| --- | --- | --- | --- | --- |")
    for name, what, args, pattern, higher_better in workloads(a.quick):
        if only and name not in only:
            continue
        v = run(a.build, ppu, args, pattern)
        l = run(a.build, LVP, args, pattern)
        if v is None or l is None:
            print(f"| {name} | {what} | {v} | {l} | failed |", flush=True)
            continue
        speed = v / l if higher_better else l / v
        print(f"| {name} | {what} | {v:g} | {l:g} | {speed:.3f} |", flush=True)


if __name__ == "__main__":
    main()
