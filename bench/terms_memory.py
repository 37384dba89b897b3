#!/usr/bin/env python3
"""What a term of the BMC's unwinding costs in memory: the figure behind the term limit
(`BYTES_PER_TERM` in crates/qicc-symex/src/symex.rs, which stops an unwinding at half of
`--memory-limit`).

usage: terms_memory.py [--qicc PATH] [--unwind K,K,...] [--timeout SECS]

Runs `qicc verify --engine bmc --unwind K` on one array-heavy nested loop (written to a
temporary file) for each K, and prints the terms built, the peak resident memory (the
report's `peak_rss_kib`) and their ratio. A run that stops at the term limit shows how far
the limit is from the memory it stands for; runs that reach the solver show what the
solver's copy and work add.
"""

import argparse, json, os, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_tasks  # noqa: E402

PROGRAM = r"""
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[256];
int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int k = __VERIFIER_nondet_int();
      if (k >= 0 && k < 256) a[k] = a[(k * 7 + j) & 255] + i * j;
    }
  __VERIFIER_assert(a[3] != 123456789);
  return 0;
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--qicc', default=os.path.join(os.path.dirname(HERE), 'target', 'release', 'qicc'))
    ap.add_argument('--unwind', default='4,8,16,40')
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--memory-limit', type=int, default=None, help='MiB, passed to qicc')
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'terms.c')
        with open(src, 'w') as f:
            f.write(PROGRAM)
        print('| unwind | terms | peak RSS MiB | bytes/term | time s | reason |')
        print('|---|---|---|---|---|---|')
        for k in a.unwind.split(','):
            cmd = [a.qicc, 'verify', '--engine', 'bmc', '--unwind', k, '--timeout', '%g' % a.timeout,
                   '--format', 'json', '--quiet']
            if a.memory_limit is not None:
                cmd += ['--memory-limit', str(a.memory_limit)]
            r = run_tasks.run_child(cmd + [src], a.timeout + 15)
            try:
                rep = json.loads(r['stdout'])
            except ValueError:
                print('| %s | - | - | - | %.1f | no report (exit %s) |' % (k, r['wall'], r['exit_code']))
                continue
            s = rep['stats']
            terms, rss = s.get('terms'), s.get('peak_rss_kib')
            ratio = '%.0f' % (rss * 1024 / terms) if terms and rss else '-'
            print('| %s | %s | %s | %s | %.1f | %s |' % (
                k, terms if terms is not None else '-', rss // 1024 if rss else '-', ratio,
                r['wall'], (rep.get('reason') or '')[:90]))


if __name__ == '__main__':
    main()
