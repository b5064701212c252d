#!/usr/bin/env python3
"""VK_LAYER_VKPPU_profiler in programs linked with libvulkan.so.1 directly
(not through volk), the way third-party programs are: each run must finish
(a layer whose symbols bind to the loader's deadlocks in vkCreateInstance)
and what the layer wrote must parse and agree with what the program did.

usage:
  check_profiler_linked.py linked PROGRAM LAYER_DIR OUT INSTANCES DEVICES LAYER...
      test_profiler_linked_loader with LAYER... enabled in that order; every
      device's folder has one submit row per submission the program made.
  check_profiler_linked.py vulkaninfo VULKANINFO LAYER_DIR OUT
      vulkaninfo (full and --summary) with the layer on, validation below it.
  check_profiler_linked.py vkcube CHECK_VKCUBE LAYER_DIR OUT FRAMES
      vkcube under Xvfb (tests/api/check_vkcube.py) with the layer on: a
      present row per frame, the frames in the JSON, the trace and the plots;
      prints vkcube's frames/s with the layer off and on.
Exit 0 pass, 1 fail, 77 skipped (a program is missing)."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 240
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)


def finish():
    print("FAILED" if failures else "PASSED", len(failures), "failures")
    sys.exit(1 if failures else 0)


def layer_env(layer_dir, profile, layers="VK_LAYER_VKPPU_profiler"):
    # VK_ADD_LAYER_PATH keeps the system's layers (validation) findable.
    return dict(os.environ, VK_ADD_LAYER_PATH=layer_dir, VK_INSTANCE_LAYERS=layers,
                VKPPU_PROFILER_DIR=profile)


def run(args, env, what):
    try:
        p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        check(False, f"{what} finished within {TIMEOUT} s (a hang: the layer deadlocked?)")
        finish()
    sys.stdout.write(p.stdout[-4000:])
    sys.stderr.write(p.stderr[-4000:])
    check(p.returncode == 0, f"{what} exited 0 (got {p.returncode})")
    return p


def read_outputs(folder):
    """The layer's CSV, JSON and trace of one device, parsed."""
    for name in ["counters.csv", "counters.json", "trace.json"]:
        check(os.path.exists(os.path.join(folder, name)), f"{folder}/{name} written")
    with open(os.path.join(folder, "counters.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(folder, "counters.json")) as f:
        js = json.load(f)
    with open(os.path.join(folder, "trace.json")) as f:
        trace = json.load(f)
    check(len(rows) == len(js["rows"]), f"{folder}: CSV and JSON have the same rows ({len(rows)})")
    names = [c["name"] for c in js["counters"]]
    check(len(names) > 0 and (not rows or all(n in rows[0] for n in names)),
          f"{folder}: every counter of the JSON is a CSV column")
    return rows, js, trace


def linked(program, layer_dir, out, instances, devices, layers):
    shutil.rmtree(out, ignore_errors=True)
    profile = os.path.join(out, "profile")
    env = layer_env(layer_dir, profile, "")
    del env["VK_INSTANCE_LAYERS"]  # the program names its layers itself
    p = run([program, str(instances), str(devices)] + layers, env,
            f"test_profiler_linked_loader {instances} instance(s) x {devices} device(s), "
            f"layers {' > '.join(layers)}")
    m = re.search(r"devices (\d+) submits (\d+)", p.stdout)
    check(m is not None, "the program reported what it did")
    if not m:
        finish()
    made, submits = int(m.group(1)), int(m.group(2))
    per_device = submits // made
    folders = [profile] + [os.path.join(profile, f"device{i}") for i in range(1, made)]
    for folder in folders:
        rows, js, trace = read_outputs(folder)
        check(len(rows) == per_device and all(r["kind"] == "submit" for r in rows),
              f"{folder}: {per_device} submit rows (got {len(rows)})")
        # Each fill is 4 KiB of copy-engine work; a row that saw none would
        # mean the counters were read around the wrong call.
        check(len(rows) > 0 and all(int(r["copy.bytes_filled"]) >= 4096 for r in rows),
              f"{folder}: every row counted its 4 KiB fill (copy.bytes_filled)")
        submit_events = [e for e in trace["traceEvents"] if e["ph"] == "X" and
                         e.get("cat") == "submit"]
        check(len(submit_events) == per_device, f"{folder}: a trace event per submit")
    check(not os.path.exists(os.path.join(profile, f"device{made}")),
          "no folder for a device that was not made")
    check(len(re.findall(r"submits, \d+ frames? written to", p.stderr)) == made,
          "the layer reported once per device")
    finish()


def vulkaninfo(program, layer_dir, out):
    shutil.rmtree(out, ignore_errors=True)
    for args in [[], ["--summary"]]:
        env = layer_env(layer_dir, os.path.join(out, "profile"),
                        "VK_LAYER_VKPPU_profiler:VK_LAYER_KHRONOS_validation")
        p = run([program] + args, env, f"vulkaninfo {' '.join(args)} with the layer on")
        text = p.stdout + p.stderr
        check("VK_LAYER_VKPPU_profiler" in text, "vulkaninfo lists the layer")
        check("vkppu" in text.lower(), "vulkaninfo names the vkppu device")
        check(not re.search(r"VUID|Validation Error", text), "no validation message")
    finish()


def fps(text):
    m = re.search(r"([0-9.]+) frames/s", text)
    return float(m.group(1)) if m else None


def vkcube(check_vkcube, layer_dir, out, frames):
    if not shutil.which("xvfb-run") or not os.path.exists("/usr/bin/vkcube"):
        print("SKIP: vkcube or xvfb-run missing")
        sys.exit(77)
    shutil.rmtree(out, ignore_errors=True)
    profile = os.path.join(out, "profile")
    base = [sys.executable, check_vkcube, "/usr/bin/vkcube", str(frames)]
    off = run(base, dict(os.environ), "vkcube with the layer off")
    on = run(base, layer_env(layer_dir, profile), "vkcube with the layer on")
    rows, js, trace = read_outputs(profile)
    presents = [r for r in rows if r["kind"] == "present"]
    check(len(presents) >= frames, f"a present row per frame ({len(presents)} >= {frames})")
    check(len(js["frames"]) >= frames, f"{len(js['frames'])} frames in counters.json")
    draws = sum(int(r["gfx.draws"]) for r in rows)
    check(draws >= frames, f"the rows counted every frame's draw (gfx.draws {draws})")
    pngs = [f for f in os.listdir(profile) if f.startswith("plot_") and f.endswith(".png")]
    check(len(pngs) > 0, f"bar charts written ({', '.join(sorted(pngs))})")
    for png in pngs:
        with open(os.path.join(profile, png), "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{png} is a PNG")
    a, b = fps(off.stdout + off.stderr), fps(on.stdout + on.stderr)
    if a and b:
        print(f"vkcube frames/s: layer off {a:.2f}, on {b:.2f} (on/off {b / a:.2f})")
    finish()


mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode == "linked" and len(sys.argv) >= 7:
    linked(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7:])
elif mode == "vulkaninfo" and len(sys.argv) == 5:
    vulkaninfo(*sys.argv[2:5])
elif mode == "vkcube" and len(sys.argv) == 6:
    vkcube(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
else:
    sys.stderr.write(__doc__)
    sys.exit(2)
