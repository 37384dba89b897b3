#!/usr/bin/env python3
"""`qicc batch --slurm` against a local `qicc batch` of the same tasks: every verdict equal, the
merged report equal apart from times, and the wall times of both (the overhead per task that
Slurm adds). Needs a running Slurm (CI: scripts/slurm-localhost.sh start).

    python3 bench/slurm_check.py --qicc target/release/qicc --list bench/slurm-sample.set \\
        --timeout 30 --jobs 2 [--out DIR]

Exit code 1 on any difference, 2 when a batch itself failed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def batch(qicc, out, args, extra):
    """Runs `qicc batch` into `out`; its wall time in seconds."""
    cmd = [qicc, "batch", "--progress", "plain", "-o", out] + extra + args
    start = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    sys.stderr.write(r.stderr)
    if r.returncode not in (0, 1):
        print(f"slurm_check: {' '.join(cmd)} exited with {r.returncode}", file=sys.stderr)
        sys.exit(2)
    return wall


def results(out):
    with open(os.path.join(out, "results.jsonl")) as f:
        return {r["id"]: r for r in map(json.loads, f)}


def without_times(report):
    """The merged report with the fields that are times or memory removed."""
    def strip(d):
        return {k: v for k, v in d.items() if k not in ("wall_ms", "peak_rss_kib")}
    return {
        "total": strip(report["total"]),
        "families": {f: strip(c) for f, c in report["families"].items()},
        "tasks": [strip(t) for t in report["tasks"]],
    }


# Runs to any time limit (the solver is asked to factor 2^61 - 1): the program of the
# regression case memory_limit_unknown.
SLOW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "regression",
                    "memory_limit_unknown", "main.c")


def failure_check(qicc, root):
    """An element Slurm cancels: its tasks get an error naming Slurm's reason, and the next
    submission runs exactly those tasks. Returns the problems found."""
    tasks = os.path.join(root, "slow")
    os.makedirs(tasks, exist_ok=True)
    with open(SLOW) as f:
        slow = f.read()
    for i in range(4):
        with open(os.path.join(tasks, f"s{i}.c"), "w") as f:
            f.write(slow)
    out = os.path.join(root, "cancelled")
    cmd = [qicc, "batch", "--slurm", "--shard-size", "2", "--jobs", "2", "--task-jobs", "1",
           "--timeout", "8", "--progress", "plain", "-o", out, tasks]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    job = None
    for line in p.stderr:
        sys.stderr.write(line)
        if "submitted job" in line:
            job = line.split("submitted job")[1].strip()
            # Cancel element 0 once it runs; element 1 finishes its tasks.
            for _ in range(300):
                q = subprocess.run(["squeue", "-h", "-j", f"{job}_0", "-o", "%T"],
                                   stdout=subprocess.PIPE, text=True).stdout
                if "RUNNING" in q:
                    break
                time.sleep(0.1)
            subprocess.run(["scancel", f"{job}_0"])
    p.wait()
    bad = []
    if job is None:
        return ["the cancelled batch printed no job id"]
    rs = results(out)
    for i in (0, 1):
        r = rs.get(f"slow/s{i}.c", {})
        if r.get("verdict") != "ERROR" or "CANCELLED" not in (r.get("reason") or ""):
            bad.append(f"cancelled element: slow/s{i}.c is {r.get('verdict')} ({r.get('reason')})")
    for i in (2, 3):
        r = rs.get(f"slow/s{i}.c", {})
        if r.get("verdict") != "UNKNOWN":
            bad.append(f"the element that ran: slow/s{i}.c is {r.get('verdict')} ({r.get('reason')})")
    again = subprocess.run(cmd[:1] + ["batch", "--slurm", "--slurm-script-only", "-o", out, tasks],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if "4 tasks, 2 with a result already: 2 to Slurm" not in again.stderr:
        bad.append(f"resubmission: {again.stderr.strip()}")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qicc", required=True)
    ap.add_argument("--list", required=True, help="the tasks (a list file, as qicc batch --list)")
    ap.add_argument("--timeout", default="30")
    ap.add_argument("--jobs", default="2", help="tasks at a time, locally and on Slurm")
    ap.add_argument("--out", help="where both output directories go (default: a temporary one)")
    a = ap.parse_args()
    root = a.out or tempfile.mkdtemp(prefix="qicc-slurm-check-")
    local, slurm = os.path.join(root, "local"), os.path.join(root, "slurm")
    common = ["--list", a.list, "--timeout", a.timeout, "--jobs", a.jobs, "--task-jobs", "1", "--rerun"]
    t_local = batch(a.qicc, local, [], common)
    t_slurm = batch(a.qicc, slurm, ["--slurm"], common)
    lr, sr = results(local), results(slurm)
    bad = []
    if set(lr) != set(sr):
        bad.append(f"tasks differ: only local {sorted(set(lr) - set(sr))}, only Slurm {sorted(set(sr) - set(lr))}")
    for tid in sorted(set(lr) & set(sr)):
        for k in ("verdict", "violated_property", "expected_verdict", "status"):
            if lr[tid].get(k) != sr[tid].get(k):
                bad.append(f"{tid}: {k} local {lr[tid].get(k)!r}, Slurm {sr[tid].get(k)!r}")
        if not sr[tid].get("host", "").startswith("slurm:"):
            bad.append(f"{tid}: not run by Slurm (host {sr[tid].get('host')!r})")
    with open(os.path.join(local, "report.json")) as f:
        rl = without_times(json.load(f))
    with open(os.path.join(slurm, "report.json")) as f:
        rs = without_times(json.load(f))
    if not bad and rl != rs:
        bad.append("the merged reports differ apart from times")
    bad += failure_check(a.qicc, root)
    n = len(lr)
    print(f"slurm_check: {n} tasks, --jobs {a.jobs}, --timeout {a.timeout}: local batch {t_local:.1f} s, "
          f"Slurm batch {t_slurm:.1f} s (submission to merged report), "
          f"overhead {(t_slurm - t_local) / max(n, 1):.2f} s per task")
    for b in bad:
        print(f"slurm_check: DIFFERENT: {b}", file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"slurm_check: every verdict and the merged report agree ({root})")


if __name__ == "__main__":
    main()
