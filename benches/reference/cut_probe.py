#!/usr/bin/env python3
"""How far cutting planes raise the linear programme's bound on a puzzle (BENCHMARKS.md, "The par
past 8x8, seed 2, on AMD EPYC; what the bounds lack"), with HiGHS as the programme's solver.

    python3 benches/reference/cut_probe.py FILE.ron [--rounds 30] [--per-round 200]

FILE is a grid or explicit-button puzzle of mixed.py (the target all 0). Prints:

- the programme of every cell's rows `sum_j (c*a_ij mod m_i) x_j >= c*d_i mod m_i` (c = 1..m_i-1)
  over 0 <= x_j < period_j, then with rounds of mod-p combinations added: for each prime p, the
  equations mod p of the cells p divides, combined by an elimination over the buttons of largest
  value in the optimum; every combination violated by the optimum is a row like a cell's;
- the programme of the integer programme `sum_j a_ij x_j - m_i k_i = d_i` (k_i >= 0), then with
  rounds of Gomory mixed-integer cuts read from its optimal tableau (at most --per-round a round);
- HiGHS's bound after its root node (cuts, no branching).

Requires `pip install highspy`.
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from par_compare import period, read_system, rows_of  # noqa: E402


def new_highs():
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


def add_row(h, coeffs, lower, upper):
    h.addRow(float(lower), upper, len(coeffs), list(coeffs), [float(a) for a in coeffs.values()])


def mod_p_rounds(mods, demands, columns, rounds):
    import highspy

    n, cells = len(columns), len(mods)
    by_cell = [{j: col[i] for j, col in enumerate(columns) if i in col} for i in range(cells)]
    h = new_highs()
    for col in columns:
        h.addVar(0, period(col, mods) - 1)
    h.changeColsCost(n, list(range(n)), [1.0] * n)
    for i, m in enumerate(mods):
        for c in range(1, m):
            if c * demands[i] % m:
                add_row(h, {j: c * a % m for j, a in by_cell[i].items() if c * a % m}, c * demands[i] % m, highspy.kHighsInf)
    h.run()
    print(f"cells' rows: {h.getInfo().objective_function_value:.2f}", flush=True)
    seen = set()
    for r in range(rounds):
        x = list(h.getSolution().col_value)
        added = 0
        for p in (2, 3, 5, 7, 11):
            rows = [[{j: a % p for j, a in by_cell[i].items() if a % p}, demands[i] % p] for i in range(cells) if mods[i] % p == 0]
            used = [False] * len(rows)
            found = {}

            def collect():
                for co, rhs in rows:
                    for c in range(1, p):
                        right = c * rhs % p
                        left = sum((c * a % p) * x[j] for j, a in co.items())
                        key = (tuple(sorted((j, c * a % p) for j, a in co.items())), right)
                        if right and (right - left) / right > 1e-3 and key not in seen:
                            found[key] = True

            for step, j in enumerate(sorted((j for j in range(n) if x[j] > 1e-6), key=lambda j: -x[j])):
                pivots = [k for k, (co, _) in enumerate(rows) if not used[k] and co.get(j)]
                if not pivots:
                    continue
                k0 = min(pivots, key=lambda k: len(rows[k][0]))
                used[k0] = True
                pco, prhs = rows[k0]
                inverse = pow(pco[j], p - 2, p)
                for k in pivots:
                    if k == k0:
                        continue
                    co, rhs = rows[k]
                    f = co[j] * inverse % p
                    for jj, a in pco.items():
                        v = (co.get(jj, 0) - f * a) % p
                        if v:
                            co[jj] = v
                        else:
                            co.pop(jj, None)
                    rows[k][1] = (rhs - f * prhs) % p
                if step % 10 == 9:
                    collect()
            collect()
            for co, right in found:
                seen.add((co, right))
                add_row(h, dict(co), right, highspy.kHighsInf)
                added += 1
        if not added:
            break
        h.run()
        print(f"  mod-p round {r + 1}: {added} rows, {h.getInfo().objective_function_value:.2f}", flush=True)


def gomory_rounds(mods, demands, columns, rounds, per_round):
    import highspy

    n = len(columns)
    h = new_highs()
    low, high = [], []
    for col in columns:
        h.addVar(0, period(col, mods) - 1)
        low.append(0)
        high.append(period(col, mods) - 1)
    cells = rows_of(mods, demands, columns)
    for _, most in cells:
        h.addVar(0, most)
        low.append(0)
        high.append(most)
    integer = [True] * len(low)
    h.changeColsCost(n, list(range(n)), [1.0] * n)
    for i, (terms, _) in enumerate(cells):
        coeffs = {j: float(a) for j, a in terms}
        coeffs[n + i] = -float(mods[i])
        add_row(h, coeffs, demands[i], demands[i])
    slack = {}  # a cut's slack column: s = coeffs . x - rhs
    h.run()
    print(f"integer programme's relaxation: {h.getInfo().objective_function_value:.2f}", flush=True)
    for r in range(rounds):
        x = list(h.getSolution().col_value)
        status = h.getBasis().col_status
        basic = list(h.getBasicVariables()[1])
        candidates = sorted(
            (abs(0.5 - (x[v] - math.floor(x[v]))), row, v) for row, v in enumerate(basic) if v >= 0 and integer[v]
            and 0.01 < x[v] - math.floor(x[v]) < 0.99
        )
        cuts = []
        for _, row, v in candidates[:per_round]:
            f0 = x[v] - math.floor(x[v])
            tableau = h.getReducedRow(row)[1]
            cut, rhs = {}, 1.0
            for j, a in enumerate(tableau):
                if j == v or abs(a) < 1e-9 or status[j] == highspy.HighsBasisStatus.kBasic:
                    continue
                at_upper = status[j] == highspy.HighsBasisStatus.kUpper
                alpha, sign, bound = (-a, -1, high[j]) if at_upper else (a, 1, low[j])
                if integer[j]:
                    fj = alpha - math.floor(alpha)
                    g = fj / f0 if fj <= f0 else (1 - fj) / (1 - f0)
                else:
                    g = alpha / f0 if alpha >= 0 else -alpha / (1 - f0)
                if g < 1e-12:
                    continue
                if j in slack:
                    coeffs, right = slack[j]
                    for jj, c in coeffs.items():
                        cut[jj] = cut.get(jj, 0.0) + g * c
                    rhs += g * right
                else:
                    cut[j] = cut.get(j, 0.0) + g * sign
                    rhs += g * sign * bound
            cut = {j: c for j, c in cut.items() if abs(c) > 1e-9}
            if rhs - sum(c * x[j] for j, c in cut.items()) > 1e-4:
                cuts.append((cut, rhs - 1e-6 * abs(rhs)))
        if not cuts:
            break
        # Added after the round: adding a row changes the tableau the next cut is read from.
        for cut, rhs in cuts:
            column = h.getNumCol()
            h.addVar(0, highspy.kHighsInf)
            low.append(0)
            high.append(math.inf)
            integer.append(False)
            slack[column] = (cut, rhs)
            add_row(h, {**cut, column: -1.0}, rhs, rhs)
        h.run()
        print(f"  Gomory round {r + 1}: {len(cuts)} cuts, {h.getInfo().objective_function_value:.2f}", flush=True)


def highs_root(path):
    import highspy

    import par_compare

    original = highspy.Highs.run

    def root_only(self):
        self.setOptionValue("mip_max_nodes", 1)
        return original(self)

    highspy.Highs.run = root_only
    try:
        _, bound, _ = par_compare.run_highs(read_system(path), 600)
    finally:
        highspy.Highs.run = original
    print(f"HiGHS's root: >= {bound}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--per-round", type=int, default=200)
    args = parser.parse_args()
    system = read_system(args.path)
    mod_p_rounds(*system, args.rounds)
    gomory_rounds(*system, args.rounds, args.per_round)
    highs_root(args.path)


if __name__ == "__main__":
    main()
