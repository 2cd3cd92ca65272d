"""modsolve.shard and modsolve.combine, and the Ray driver modsolve.distributed on a local
Ray cluster of 2 CPUs: the parts combined give the single run's proven fewest presses, and a
worker killed in the middle of a part is retried with the same result. The Ray tests are
skipped only outside CI when Ray is not installed (.ci/python installs it)."""

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

import modsolve


def lights_out(n, modulus=2):
    return f"Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: {modulus}, start: All(1))"


def test_parts_combined_give_the_single_run():
    puzzle = lights_out(16)
    single = modsolve.solve(puzzle)["fewest"]
    reports = [modsolve.shard(puzzle, k, 8, threads=1) for k in range(8)]
    assert all(r["finished"] and r["parts"] == 8 for r in reports)
    combined = modsolve.combine(puzzle, reports)
    assert combined["proven"] is True
    assert combined["score"] == int(single["total_presses"])
    # Missing parts: the best so far, not proven, which parts to run.
    partial = modsolve.combine(puzzle, reports[:3] + reports[5:])
    assert partial["proven"] is False and partial["missing"] == [[3, 4]]
    with pytest.raises(ValueError, match="given twice"):
        modsolve.combine(puzzle, reports + reports[:1])
    with pytest.raises(ValueError, match="another puzzle"):
        modsolve.combine(lights_out(16, 3), reports)
    with pytest.raises(ValueError, match="K is 8"):
        modsolve.shard(puzzle, 8, 8)


def test_a_prover_walks_parts_with_the_best_so_far_as_cutoff():
    puzzle = lights_out(19)
    prover = modsolve.Prover(puzzle, threads=1)
    assert prover.takes_cutoff is True
    assert prover.puzzle_hash == modsolve.shard(puzzle, 0, 1, nodes=1)["puzzle"]
    reports, best = [], None
    for k in range(16):
        below = None if best is None else best + 1
        report = prover.walk(k, 16, below=below)
        assert report["finished"] and report.get("below") == below
        best = report["score"] if best is None else min(best, report["score"])
        reports.append(report)
    assert any("below" in r for r in reports)
    combined = modsolve.combine(puzzle, reports)
    assert combined["proven"] is True and combined["score"] == 141 == best
    # The plan is the one of the parts walked without cutoffs (ties are kept).
    plain = modsolve.combine(puzzle, [prover.walk(k, 16) for k in range(16)])
    assert plain["presses"] == combined["presses"] and plain["from_part"] == combined["from_part"]
    # A cutoff under every plan's score proves nothing about the plans above it: refused.
    forged = reports[:5] + [prover.walk(5, 16, below=best - 1)] + reports[6:]
    with pytest.raises(ValueError, match="was walked for plans below 140 only"):
        modsolve.combine(puzzle, forged)
    # Mod 3: walked whole, no cutoff in the report.
    other = modsolve.Prover(lights_out(5, 3))
    assert other.takes_cutoff is False and "below" not in other.walk(0, 2, below=1)
    with pytest.raises(ValueError, match="K is 2"):
        prover.walk(2, 2)


def hidden(report, start_report):
    """`report` with its plan replaced by the starting plan of `start_report` (a part whose
    plan is the starting plan) and sealed again, as a worker that did not walk would write it."""
    import hashlib

    forged = dict(report)
    for field in ("presses", "score", "total", "at"):
        forged[field] = start_report[field]
    forged["seal"] = ""
    text = json.dumps(forged, separators=(",", ":"), ensure_ascii=False)
    forged["seal"] = "sha256:" + hashlib.sha256(("modsolve part report seal\n" + text).encode()).hexdigest()
    return forged


def test_tampered_reports_are_refused_and_the_audit_walks_parts_again():
    puzzle = lights_out(19)
    prover = modsolve.Prover(puzzle, threads=1)
    reports = [prover.walk(k, 16) for k in range(16)]
    combined = modsolve.combine(puzzle, reports, audit=3, seed=5)
    assert combined["proven"] is True and combined["score"] == 141
    assert combined["seed"] == 5 and len(combined["audited"]) == 3
    assert modsolve.combine(puzzle, reports)["audited"] == []
    best = combined["from_part"]
    # The starting plan every part shares: what a part with nothing below its cutoff reports.
    start = prover.walk(0, 16, below=1)
    assert start["at"] is None and start["score"] == start["start"] > 141
    # Edited and left as it is: the seal. An unknown field: refused as the schema says.
    edited = list(reports)
    edited[best] = dict(reports[best], presses=start["presses"], score=start["score"], total=start["total"], at=None)
    with pytest.raises(ValueError, match="does not match its seal"):
        modsolve.combine(puzzle, edited)
    with pytest.raises(ValueError, match="unknown field `extra`"):
        modsolve.combine(puzzle, [dict(reports[0], extra=1)])
    with pytest.raises(ValueError, match="version 2 of the part report is from an earlier modsolve"):
        modsolve.combine(puzzle, [dict(reports[0], version=2)])
    # Sealed again: only a walk sees it. Prover.audit walks the part again; combine's audit of
    # every part refuses it.
    forged = reports[:best] + [hidden(reports[best], start)] + reports[best + 1 :]
    # What no check without a walk sees (here another part ties the best, so the value stands).
    assert modsolve.combine(puzzle, forged)["proven"] is True
    audit = prover.audit(forged[best])
    assert audit["agrees"] is False and audit["report"]["score"] == 141
    assert prover.audit(reports[best])["agrees"] is True
    with pytest.raises(ValueError, match=f"part {best}/16 disagrees with its audit"):
        modsolve.combine(puzzle, forged, audit=16)


try:
    import ray  # noqa: F401

    HAVE_RAY = True
except ImportError:
    HAVE_RAY = False

needs_ray = pytest.mark.skipif(not HAVE_RAY and not os.environ.get("CI"), reason="Ray is not installed")


@pytest.fixture(scope="module")
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


# Proven fewest presses of n×n Lights Out, all on to all off (OEIS A075464), for the boards of
# n <= 54 with at least 2^16 plans: 19 (2^16 plans), 30 (2^20), 39 (2^32), 47 (2^30).
A075464 = {16: 104, 19: 141, 30: 376, 39: 561, 47: 971}


@needs_ray
def test_ray_driver_agrees_with_the_single_run(local_ray):
    from modsolve.distributed import fewest

    seen = []
    for n in (19, 30, 39, 47):
        puzzle = lights_out(n)
        combined = fewest(puzzle, shards=64, progress=seen.append)
        assert combined["proven"] is True, combined
        assert combined["given"] == 64
        assert combined["score"] == A075464[n]
        assert combined["score"] == int(modsolve.solve(puzzle)["fewest"]["total_presses"])
    assert seen and seen[-1]["done"] == 64 and seen[-1]["best"] == A075464[47]
    # Each state has the proven floor of the analysis with no search, at most the best so far.
    assert all(s["bound"] is not None and s["bound"] <= s["best"] for s in seen if s["best"] is not None)
    assert seen[-1]["bound"] > 0, seen[-1]
    # Progress hands over the reports (JSON lines): resuming from some of them runs the rest.
    lines = []
    first = fewest(lights_out(30), shards=64, progress=lambda state: lines.extend(state["reports"]))
    assert len(lines) == 64 and len({json.loads(line)["part"] for line in lines}) == 64
    assert any("below" in json.loads(line) for line in lines)
    resumed = fewest(lights_out(30), shards=64, progress=False, done=lines[:40])
    assert resumed["proven"] is True and resumed["given"] == 64
    assert resumed["score"] == first["score"] == A075464[30]
    assert resumed["presses"] == first["presses"]
    # A forged report among the earlier ones (its part's best hidden behind the starting plan):
    # the audit of every part walks it again and the part is walked once more.
    reports = [json.loads(line) for line in lines]
    best = first["from_part"]
    mine = next(r for r in reports if r["part"] == best)
    start = modsolve.Prover(lights_out(30), threads=1).walk(0, 64, below=1)
    assert start["at"] is None and mine["score"] < start["score"]
    forged = [hidden(r, start) if r["part"] == best else r for r in reports]
    states = []
    audited = fewest(lights_out(30), shards=64, progress=states.append, done=forged, audit=64, seed=3)
    assert audited["proven"] is True and audited["score"] == A075464[30]
    assert audited["audited"] == list(range(64)) and audited["seed"] == 3
    assert states[-1]["rerun"] == [best], states[-1]


def walk_part_pids():
    """Processes of Ray workers running a part (their title names the task)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.startswith(b"ray::") and b"_walk_part" in cmdline:
                pids.append(int(entry.name))
    return pids


@needs_ray
def test_a_killed_worker_is_retried_with_the_same_result(local_ray):
    from modsolve.distributed import fewest

    # 39×39 to a random reachable board (2^32 plans, no symmetry to use) in 4 parts of a few
    # seconds each: long enough to be caught running.
    import random

    n = 39
    rng = random.Random(34)
    presses = [[rng.randrange(2) for _ in range(n)] for _ in range(n)]
    start = []
    for r in range(n):
        for c in range(n):
            near = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            start.append(sum(presses[a][b] for a, b in near if 0 <= a < n and 0 <= b < n) % 2)
    puzzle = f"Puzzle(graph: Grid(rows: {n}, cols: {n}), modulus: 2, start: {start})"
    expected = fewest(puzzle, shards=4, progress=False)
    assert expected["proven"] is True
    result = {}
    runner = threading.Thread(target=lambda: result.update(fewest(puzzle, shards=4, progress=False)))
    runner.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and runner.is_alive():
        pids = walk_part_pids()
        if pids:
            time.sleep(0.2)
            try:
                os.kill(pids[0], signal.SIGKILL)
                killed = pids[0]
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    runner.join(timeout=240)
    assert killed is not None, "no worker was caught running a part"
    assert result["proven"] is True and result["given"] == 4
    assert result["score"] == expected["score"] and result["presses"] == expected["presses"]
