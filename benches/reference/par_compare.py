#!/usr/bin/env python3
"""Fewest presses side by side: modsolve, HiGHS (highspy) and CP-SAT (ortools) on the same files.

    python3 benches/reference/par_compare.py [--time 10] [--repeat 3] [--modsolve PATH]
        [--budget B] [--out DIR] [CASE ...]

CASE is `grid:N:SEED` (mixed.py grid N SEED 1: an N x N grid, moduli 2..=12 per cell, the plain
rule), `octopus:N:SEED` (the same with the octopus's rule, self 2) or `dense:N:SEED` (mixed.py
dense); by default the eight grids 5x5..8x8, seeds 1 and 2. Each file is written into --out
(a temporary directory by default) by mixed.py, then:

- modsolve FILE --json (with --budget B when given; the default budget otherwise), wall time;
- HiGHS and CP-SAT on the plain integer programme: x_j in [0, L_j) for each button's period L_j,
  k_i >= 0, sum_j a_ij x_j - m_i k_i = (target_i - start_i) mod m_i for each cell, minimise
  sum_j x_j; each given --time seconds (CP-SAT with 2 workers, the machine's cores).

`--only modsolve` or `--only references` runs one side. Each is run --repeat times; the table gives the median wall time, and the plan and the bound of
the run with the median time. "≥" is the solver's proven lower bound. Requires
`pip install highspy ortools`.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mixed  # noqa: E402


def write_case(case, out):
    kind, n, seed = case.split(":")
    n, seed = int(n), int(seed)
    path = os.path.join(out, f"{kind}-{n}-{seed}.ron")
    if kind == "grid":
        mixed.grid(n, seed, 1, path)
    elif kind == "octopus":
        mixed.grid(n, seed, 2, path)
    elif kind == "dense":
        mixed.dense(n, seed, path)
    else:
        sys.exit(f"unknown case {case}")
    return path


def ints(text):
    return [int(v) for v in re.findall(r"-?\d+", text)]


def read_system(path):
    """Moduli, demands d_i = -start_i mod m_i (the target is all 0) and columns {cell: a_ij}."""
    text = open(path).read()
    mods = ints(re.search(r"modulus: \[([^\]]*)\]", text).group(1))
    start = ints(re.search(r"start: \[([^\]]*)\]", text).group(1))
    grid = re.search(r"Grid\(rows: (\d+), cols: (\d+)\)", text)
    columns = []
    if grid:
        rows, cols = int(grid.group(1)), int(grid.group(2))
        own = int(re.search(r"self: (\d+)", text).group(1))
        for r in range(rows):
            for c in range(cols):
                col = {r * cols + c: own}
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < rows and 0 <= cc < cols:
                        col[rr * cols + cc] = 1
                columns.append(col)
    else:
        body = re.search(r"buttons: \[(.*)\], start", text).group(1)
        for button in re.findall(r"\[([^\[\]]*)\]", body):
            pairs = ints(button)
            columns.append({pairs[k]: pairs[k + 1] for k in range(0, len(pairs), 2)})
    columns = [{i: a % mods[i] for i, a in col.items() if a % mods[i]} for col in columns]
    demands = [(-s) % m for s, m in zip(start, mods)]
    return mods, demands, columns


def period(col, mods):
    return math.lcm(1, *(mods[i] // math.gcd(a, mods[i]) for i, a in col.items()))


def rows_of(mods, demands, columns):
    """Per cell: its (button, weight) terms, the k_i upper bound."""
    cells = []
    for i, m in enumerate(mods):
        terms = [(j, col[i]) for j, col in enumerate(columns) if i in col]
        most = sum(a * (period(columns[j], mods) - 1) for j, a in terms)
        cells.append((terms, max(0, (most - demands[i]) // m)))
    return cells


def run_highs(system, limit):
    import highspy

    mods, demands, columns = system
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(limit))
    inf = highspy.kHighsInf
    n = len(columns)
    for col in columns:
        h.addVar(0, period(col, mods) - 1)
    cells = rows_of(mods, demands, columns)
    for terms, kmax in cells:
        h.addVar(0, kmax)
    h.changeColsIntegrality(n + len(cells), list(range(n + len(cells))),
                            [highspy.HighsVarType.kInteger] * (n + len(cells)))
    h.changeColsCost(n, list(range(n)), [1.0] * n)
    for i, (terms, _) in enumerate(cells):
        idx = [j for j, _ in terms] + [n + i]
        val = [float(a) for _, a in terms] + [-float(mods[i])]
        h.addRow(demands[i], demands[i], len(idx), idx, val)
    h.setOptionValue("objective_bound", inf)
    h.run()
    info = h.getInfo()
    status = h.getModelStatus()
    has = info.primal_solution_status == 2
    value = round(info.objective_function_value) if has else None
    bound = math.ceil(info.mip_dual_bound - 1e-6)
    return value, bound, status == highspy.HighsModelStatus.kOptimal


def run_cpsat(system, limit):
    from ortools.sat.python import cp_model

    mods, demands, columns = system
    model = cp_model.CpModel()
    x = [model.NewIntVar(0, period(col, mods) - 1, f"x{j}") for j, col in enumerate(columns)]
    for i, (terms, kmax) in enumerate(rows_of(mods, demands, columns)):
        k = model.NewIntVar(0, kmax, f"k{i}")
        model.Add(sum(a * x[j] for j, a in terms) - mods[i] * k == demands[i])
    model.Minimize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(limit)
    solver.parameters.num_workers = 2
    status = solver.Solve(model)
    has = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    value = round(solver.ObjectiveValue()) if has else None
    return value, math.ceil(solver.BestObjectiveBound() - 1e-6), status == cp_model.OPTIMAL


def run_modsolve(binary, path, budget):
    args = [binary, path, "--json"] + (["--budget", budget] if budget else [])
    out = subprocess.run(args, capture_output=True, text=True).stdout
    fewest = json.loads(out)["fewest"]
    if fewest is None:
        return None, None, False
    return int(fewest["total_presses"]), int(fewest["lower_bound"] or 0), fewest["proven"]


def timed(run, repeat):
    results = []
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        results.append((time.perf_counter() - started, value))
    results.sort(key=lambda r: r[0])
    seconds = statistics.median(r[0] for r in results)
    return seconds, results[len(results) // 2][1]


def cell(seconds, result):
    value, bound, proven = result
    if value is None:
        return f"none (≥ {bound}), {seconds:.1f} s"
    if proven:
        return f"**{value}**, proven in {seconds:.1f} s"
    return f"{value} (≥ {bound}), {seconds:.1f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", default=[f"grid:{n}:{s}" for n in (5, 6, 7, 8) for s in (1, 2)])
    parser.add_argument("--time", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--budget", default=None, help="modsolve's --budget (its default when not given)")
    parser.add_argument("--modsolve", default=os.path.join(HERE, "..", "..", "target", "release", "modsolve"))
    parser.add_argument("--out", default=None)
    parser.add_argument("--only", choices=["modsolve", "references"], default=None,
                        help="run only modsolve, or only HiGHS and CP-SAT (the others' columns read '-')")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="par-compare-")
    print(f"| case | modsolve ({args.budget or 'default budget'}) | HiGHS {args.time:g} s | CP-SAT {args.time:g} s |")
    print("|---|---|---|---|")
    for case in args.cases:
        path = write_case(case, out)
        system = read_system(path)
        mine, theirs = args.only != "references", args.only != "modsolve"
        ms = cell(*timed(lambda: run_modsolve(args.modsolve, path, args.budget), args.repeat)) if mine else "-"
        hi = cell(*timed(lambda: run_highs(system, args.time), args.repeat)) if theirs else "-"
        cp = cell(*timed(lambda: run_cpsat(system, args.time), args.repeat)) if theirs else "-"
        print(f"| {case} | {ms} | {hi} | {cp} |", flush=True)


if __name__ == "__main__":
    main()
