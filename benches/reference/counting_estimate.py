#!/usr/bin/env python3
"""The counting estimate of a mixed-moduli puzzle's fewest presses (a heuristic, not a bound).

    python3 benches/reference/counting_estimate.py [--modsolve PATH] FILE...

For each file, modsolve FILE --json --budget 0 gives the buttons' periods and the number of
plans; the states a plan can reach are (product of the periods) / (plans). A start's fewest
presses is typically near the least S for which the plans of at most S presses in all,
C(S + n, n) for n buttons, are as many as those states: fewer plans could not reach them all.
On the 5x5 and 6x6 benchmark grids, where modsolve proves the optimum, the estimate is within
8 % of it (60 against 62, 66 against 71); it says how far past 8x8 a plan is likely to be from
the optimum, which the lower bounds cannot.
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.set_int_max_str_digits(0)

HERE = os.path.dirname(os.path.abspath(__file__))


def estimate(modsolve, path):
    out = subprocess.run([modsolve, path, "--json", "--budget", "0"], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    periods = [int(p) for p in doc["periods"]]
    n = len(periods)
    states = sum(math.log(p) for p in periods) - math.log(int(doc["count"]))
    log_c = lambda a, b: math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)
    lo, hi = 0, 1
    while log_c(hi + n, n) < states:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if log_c(mid + n, n) < states:
            lo = mid + 1
        else:
            hi = mid
    return lo


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--modsolve", default=os.path.join(HERE, "..", "..", "target", "release", "modsolve"))
    args = parser.parse_args()
    for path in args.files:
        print(f"{path}\t{estimate(args.modsolve, path)}")


if __name__ == "__main__":
    main()
