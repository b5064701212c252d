#!/usr/bin/env python3
"""Runs groups of the Khronos conformance suite (deqp-vk) on vkppu and on
lavapipe with the crash-tolerant chunked runner of ../shared/conformance/,
and writes one table of the two side by side (docs/conformance.md).

deqp-vk is built outside this repository (../shared/conformance/README.md);
nothing of it enters the repository, so CI does not run this.

usage: tools/cts.py --deqp-dir DIR GROUP... [--sample N] [--seed K]
                    [--out DIR] [--drivers vkppu,lavapipe] [--case-timeout S]
                    [--group-cap S] [--expected FILE] [--vkppu-icd JSON]

GROUP is a case-name prefix below dEQP-VK (api.info, compute.pipeline.basic,
ray_query); a group with more than --sample cases runs a fixed-seed sample of
that many. For every group and driver the runner's results.csv lands in
OUT/<driver>/<group>/. Prints a Markdown table (pass / fail / not supported
/ crash / timeout / other, and the wall time, per driver), then every vkppu
Fail, Crash or Timeout not matched by the expected-failures list (lines
"case-glob | reason | issue"; # starts a comment). Exit 1 when there is such
an unexpected result, else 0."""
import argparse
import csv
import fnmatch
import os
import random
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(REPO, "..", "shared", "conformance", "run_cts.py")
ICDS = {
    "vkppu": os.path.join(REPO, "build", "vkppu_icd_build.json"),
    "lavapipe": "/usr/share/vulkan/icd.d/lvp_icd.json",
}
COLUMNS = ["Pass", "Fail", "NotSupported", "Crash", "Timeout"]


def case_list(deqp_dir):
    """Every case name deqp-vk has (written once by its txt-caselist mode)."""
    path = os.path.join(deqp_dir, "dEQP-VK-cases.txt")
    if not os.path.exists(path):
        subprocess.run(["./deqp-vk", "--deqp-runmode=txt-caselist"], cwd=deqp_dir, check=True,
                       stdout=subprocess.DEVNULL)
    with open(path) as f:
        return [line[6:].strip() for line in f if line.startswith("TEST: ")]


def group_cases(all_cases, group, sample, seed):
    prefix = "dEQP-VK." + group
    cases = [c for c in all_cases if c == prefix or c.startswith(prefix + ".")]
    if sample and len(cases) > sample:
        picked = sorted(random.Random(seed).sample(range(len(cases)), sample))
        return [cases[i] for i in picked], len(cases)
    return cases, len(cases)


def run_group(args, driver, group, cases):
    out = os.path.join(args.out, driver, group)
    os.makedirs(out, exist_ok=True)
    listing = os.path.join(out, "cases.txt")
    with open(listing, "w") as f:
        f.write("\n".join(cases) + "\n")
    start = time.time()
    subprocess.run([sys.executable, args.runner, "--deqp-dir", args.deqp_dir, "--cases", listing,
                    "--icd", ICDS[driver], "--out", out, "--case-timeout", str(args.case_timeout),
                    "--group-cap", str(args.group_cap)], check=True, stdout=subprocess.DEVNULL)
    seconds = time.time() - start
    with open(os.path.join(out, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    return rows, seconds


def read_expected(path):
    expected = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    expected.append([p.strip() for p in line.split("|")])
    return expected


def counts(rows):
    c = {k: 0 for k in COLUMNS}
    other = 0
    for r in rows:
        if r["status"] in c:
            c[r["status"]] += 1
        else:
            other += 1
    return c, other


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("groups", nargs="+")
    ap.add_argument("--deqp-dir", required=True)
    ap.add_argument("--runner", default=RUNNER)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/vkppu-cts")
    ap.add_argument("--drivers", default="vkppu,lavapipe")
    ap.add_argument("--case-timeout", type=float, default=120)
    ap.add_argument("--group-cap", type=float, default=3600)
    ap.add_argument("--expected", default=os.path.join(REPO, "docs", "conformance-expected.txt"))
    ap.add_argument("--vkppu-icd", default=ICDS["vkppu"],
                    help="the vkppu manifest (a copy lets the build tree change during a run)")
    args = ap.parse_args()
    ICDS["vkppu"] = os.path.abspath(args.vkppu_icd)
    args.deqp_dir = os.path.abspath(args.deqp_dir)
    drivers = args.drivers.split(",")
    for d in drivers:
        if d not in ICDS or not os.path.exists(ICDS[d]):
            sys.exit(f"cts.py: no manifest for driver {d!r} ({ICDS.get(d)}); build vkppu first")
    all_cases = case_list(args.deqp_dir)
    expected = read_expected(args.expected)

    head = "| group (cases run of all) |" + "".join(
        f" {d} pass / fail / not supp. / crash / timeout / other | {d} s |" for d in drivers)
    print(head)
    print("|" + " --- |" * (1 + 2 * len(drivers)))
    unexpected = []
    for group in args.groups:
        cases, total = group_cases(all_cases, group, args.sample, args.seed)
        if not cases:
            print(f"| {group} | no such cases |")
            continue
        line = f"| {group} ({len(cases)} of {total}) |"
        for d in drivers:
            rows, seconds = run_group(args, d, group, cases)
            c, other = counts(rows)
            line += " " + " / ".join(str(c[k]) for k in COLUMNS) + f" / {other} | {seconds:.0f} |"
            if d != "vkppu":
                continue
            for r in rows:
                if r["status"] not in ("Fail", "Crash", "Timeout", "InternalError"):
                    continue
                if not any(fnmatch.fnmatchcase(r["case"], e[0]) for e in expected):
                    unexpected.append((r["case"], r["status"], r["detail"][:200]))
        print(line, flush=True)
    if unexpected:
        print(f"\n{len(unexpected)} unexpected vkppu results:")
        for case, status, detail in unexpected:
            print(f"  {status}: {case}: {detail}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
