"""Runs the AO sample (rq_ambient_occlusion) once through the Khronos loader
on a build's driver with a hardware configuration, for the sweep tools
(predictor_sweep.py, timing_scaling.py)."""
import csv
import os
import subprocess
import sys


def run_ao(build, conf, scene, width, height, work, extra=(), tag="ao_sample"):
    """Runs the sample with VKPPU_HW_CONFIG=conf, its image in work/ao.png;
    returns (counters: name -> int, the program's output). Exits on failure."""
    os.makedirs(work, exist_ok=True)
    counters = os.path.join(work, "counters.csv")
    icd = os.path.join(build, "vkppu_icd_build.json")
    env = dict(os.environ, VK_ICD_FILENAMES=icd, VK_DRIVER_FILES=icd, VKPPU_HW_CONFIG=conf,
               VKPPU_COUNTERS_FILE=counters)
    cmd = [os.path.join(build, "samples/rq_ambient_occlusion/rq_ambient_occlusion"),
           "--scene", scene, "--width", str(width), "--height", str(height),
           "--output", os.path.join(work, "ao.png")] + list(extra)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("%s: %s failed (%s):\n%s" % (tag, " ".join(cmd), conf, p.stdout))
    values = {}
    with open(counters) as f:
        for row in csv.DictReader(f):
            values[row["counter"]] = int(row["value"])
    return values, p.stdout
