#!/usr/bin/env bash
# The default budget by shape: every command with no budget flag, its wall time, exit code, plan
# and printed lower bound (BENCHMARKS.md, "The default budget by shape"). Run from the
# repository's root after `cargo build --release`; give BUSY=1 to keep the other core busy.
set -uo pipefail
bin=${MODSOLVE:-target/release/modsolve}
dir=$(mktemp -d)
trap 'rm -rf "$dir"; [ -n "${spin:-}" ] && kill "$spin" 2>/dev/null' EXIT
if [ "${BUSY:-0}" = 1 ]; then (while :; do :; done) & spin=$!; fi
mixed=benches/reference/mixed.py
for n in 10 14 20 30 100 300; do python3 $mixed grid $n 1 1 "$dir/grid$n.ron"; done
for n in 5 6 7 8; do python3 $mixed grid $n 2 1 "$dir/g${n}s2.ron"; done
python3 $mixed rect 20 100 1 2 "$dir/rect20x100.ron"
python3 $mixed dense 100 1 "$dir/dense100.ron"
python3 $mixed dense 200 1 "$dir/dense200.ron"
echo 'Puzzle(graph: Grid(rows: 40, cols: 40, wrap: true), modulus: 6, target: All(1))' > "$dir/torus40.ron"
echo 'Puzzle(graph: Grid(rows: 4679, cols: 41), modulus: 2, target: All(1))' > "$dir/tall.ron"
echo 'Puzzle(graph: Grid(rows: 200, cols: 200, neighborhood: King), modulus: 3, target: All(1))' > "$dir/king200.ron"
echo 'Puzzle(graph: Grid(rows: 4679, cols: 41), modulus: 2)' > "$dir/tall-quiet.ron"
row() {
  local name=$1; shift
  local s e rc
  s=$(date +%s.%N); "$@" > "$dir/out.json" 2>/dev/null; rc=$?; e=$(date +%s.%N)
  local pb
  pb=$(python3 -c "
import json, sys
try:
    d = json.load(open(sys.argv[1])); f = d.get('fewest') or {}
    print(f.get('total_presses'), f.get('lower_bound'))
except Exception:
    print('- -')" "$dir/out.json")
  printf "%-26s %7.2f s  exit %s  plan/bound %s\n" "$name" "$(echo "$e - $s" | bc)" "$rc" "$pb"
}
lscpu | grep 'Model name'
uptime
for f in grid10 grid14 grid20 grid30 grid100 grid300 rect20x100 king200 g5s2 g6s2 g7s2 g8s2 dense100 dense200 torus40 tall tall-quiet; do
  row "$f" "$bin" "$dir/$f.ron" --json
done
for f in dense200 grid100 grid300; do row "$f --budget 0" "$bin" "$dir/$f.ron" --json --budget 0; done
row "par-histogram 3x3 2^64-1" "$bin" check puzzles/lightsout-3x3.ron --par-histogram --samples 18446744073709551615 --json
python3 - "$dir/mod23.ron" <<'PY'
import sys
m = [2 + (i + i // 6) % 2 for i in range(36)]
open(sys.argv[1], "w").write(f"Puzzle(graph: Grid(rows: 6, cols: 6), modulus: {m})\n")
PY
row "generate 6x6 mod 2,3 par 6..10" "$bin" generate "$dir/mod23.ron" --count 5 --par 6..10 --out "$dir/levels"
for p in puzzles/*.ron; do row "$(basename "$p" .ron)" "$bin" "$p" --json; done
