#!/usr/bin/env python3
"""How long the browsable report takes to open: qicc verify --html on programs whose
counterexample has about N steps (a loop that runs N/3 times before the assertion fails), then
headless Chromium opens each page R times; per page its size, qicc's time, and the browser's
time from the navigation to the first task after the load event (the page's own script writes
it into body[data-loaded-ms]; the DOM is dumped after it), and the whole browser process's wall
time (its start-up, about 2 s here, included).
Issue 34 asks that the page of a 10,000-step trace open in under 2 s.

usage: bench/html_open.py [--qicc target/release/qicc] [--steps 1000,10000,40000] [--repeat 3]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

PROGRAM = """extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) {{
  int x = 0;
  for (int i = 0; i < {iterations}; i++) {{
    x = x + 2;
  }}
  if (x == 2 * {iterations} && __VERIFIER_nondet_int() == 7) reach_error();
  return 0;
}}
"""


def chromium(*args, timeout=120):
    """Runs headless Chromium (CHROMIUM, default `chromium`) with `args`, in its own process
    group, killed with it past `timeout`; its stdout (the tests/browser checks use it too)."""
    cmd = [os.environ.get("CHROMIUM", "chromium"), "--headless", "--no-sandbox",
           "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run",
           "--disable-extensions",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--host-resolver-rules=MAP * ~NOTFOUND", *args]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        raise
    return out.decode("utf-8", "replace")


def chromium_dom(page):
    """The page's load time (its script's `data-loaded-ms`) and the browser's wall time."""
    start = time.monotonic()
    out = chromium("--virtual-time-budget=1000", "--dump-dom", page.as_uri())
    wall = time.monotonic() - start
    m = re.search(r'data-loaded-ms="(\d+)"', out)
    return (int(m.group(1)) if m else None), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qicc", default="target/release/qicc")
    ap.add_argument("--steps", default="1000,10000,40000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="qicc-html-open-"))
    print("| steps in the trace | page size | qicc verify --html | navigation to after load | browser process |")
    print("|---:|---:|---:|---:|---:|")
    for target in [int(s) for s in args.steps.split(",")]:
        # Per iteration: assume i < n, assign x, assign i.
        iterations = max(1, target // 3)
        src = tmp / f"trace_{target}.c"
        src.write_text(PROGRAM.format(iterations=iterations))
        site = tmp / f"site_{target}"
        start = time.monotonic()
        run = subprocess.run([args.qicc, "verify", "--timeout", "300",
                              "--format", "json", "--html", str(site), str(src)],
                             capture_output=True, timeout=400)
        qicc_s = time.monotonic() - start
        report = json.loads(run.stdout)
        steps = len(report["violation"]["trace"]["steps"]) if report.get("violation") else 0
        page = site / "index.html"
        loads, walls = [], []
        for _ in range(args.repeat):
            load, wall = chromium_dom(page)
            loads.append(load or 0)
            walls.append(wall)
        print(f"| {steps} | {page.stat().st_size / 1e6:.1f} MB | {qicc_s:.1f} s | "
              f"{statistics.median(loads) / 1000:.2f} s | {statistics.median(walls):.2f} s |")


if __name__ == "__main__":
    main()
