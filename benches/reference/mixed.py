#!/usr/bin/env python3
"""Writes the mixed-moduli benchmark puzzles of BENCHMARKS.md (moduli drawn from 2..=12).

    python3 benches/reference/mixed.py dense N SEED OUT.ron [OUT.gp]
        N cells x N explicit buttons, every entry random below its cell's modulus, a random
        start; OUT.gp (optional) is the same system for PARI/GP, timing `matsolvemod` alone:
        `gp -q -s 4G OUT.gp`.
    python3 benches/reference/mixed.py grid N SEED SELF OUT.ron
        an N x N grid with a random modulus per cell and a random start; SELF is the weight a
        press adds to its own cell (1: the plain rule, 2: the octopus's rule), 1 to neighbours.
    python3 benches/reference/mixed.py rect ROWS COLS SEED SELF OUT.ron
        the same for a grid of ROWS x COLS (a wide or tall board).
    python3 benches/reference/mixed.py king N SEED SELF OUT.ron
        the same grid (same moduli and start) with King presses: the eight neighbours too.
    python3 benches/reference/mixed.py mostly N SEED SELF M PERCENT OUT.ron
        the same grid with every cell mod M but PERCENT % of them (random 2..=12).
"""
import random
import sys


def dense(n, seed, ron_path, gp_path=None):
    r = random.Random(seed)
    mods = [r.randint(2, 12) for _ in range(n)]
    columns = [[r.randrange(mods[i]) for i in range(n)] for _ in range(n)]
    start = [r.randrange(m) for m in mods]
    buttons = ",".join("[" + ",".join(f"({i},{a})" for i, a in enumerate(col)) + "]" for col in columns)
    with open(ron_path, "w") as f:
        f.write(f"Puzzle(graph: Cells({n}), modulus: {mods}, buttons: [{buttons}], start: {start})\n")
    if gp_path:
        rows = ";".join(",".join(str(columns[j][i]) for j in range(n)) for i in range(n))
        with open(gp_path, "w") as f:
            f.write(f"M=[{rows}];\nD={mods}~;\nB={[(-s) % m for s, m in zip(start, mods)]}~;\n")
            f.write("t0=getabstime(); s=matsolvemod(M,D,B); t1=getabstime(); k=matsolvemod(M,D,B,1); t2=getabstime();\n")
            f.write('print("one solution ", (t1-t0)/1000.0, " s; with the kernel ", (t2-t1)/1000.0, " s");\nquit\n')


def grid(n, seed, self_weight, ron_path, main=None, percent=100.0, king=False, cols=None):
    r = random.Random(seed)
    cols = n if cols is None else cols
    mods = [r.randint(2, 12) if main is None or r.random() * 100 < percent else main for _ in range(n * cols)]
    start = [r.randrange(m) for m in mods]
    with open(ron_path, "w") as f:
        f.write(
            f"Puzzle(graph: Grid(rows: {n}, cols: {cols}{', neighborhood: King' if king else ''}), modulus: {mods}, "
            f"press: (self: {self_weight}, neighbors: 1), start: {start})\n"
        )


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "dense":
        dense(int(args[0]), int(args[1]), args[2], args[3] if len(args) > 3 else None)
    elif kind == "grid":
        grid(int(args[0]), int(args[1]), int(args[2]), args[3])
    elif kind == "rect":
        grid(int(args[0]), int(args[2]), int(args[3]), args[4], cols=int(args[1]))
    elif kind == "king":
        grid(int(args[0]), int(args[1]), int(args[2]), args[3], king=True)
    elif kind == "mostly":
        grid(int(args[0]), int(args[1]), int(args[2]), args[5], int(args[3]), float(args[4]))
    else:
        sys.exit(__doc__)
