"""A big board, and the GIL released while it is solved."""

import threading
import time

import modsolve

BIG = "Puzzle(graph: Grid(rows: 1000, cols: 1000), modulus: 2, target: All(1))"


def test_a_million_cell_lights_out():
    report = modsolve.solve(BIG)
    assert report["solvable"] is True
    assert report["count"] == "1" and report["quiet_patterns"] == "0"
    assert report["cells"] == report["buttons"] == 1_000_000
    assert len(report["presses"]) == 1_000_000 and set(report["presses"]) <= {0, 1}
    assert sum(report["presses"]) == report["total_presses"]
    assert report["fewest"]["presses"] == report["presses"]
    assert report["verified"] is True and report["elimination"] == "light-chasing"


def test_another_thread_runs_while_a_puzzle_is_solved():
    # A search the time budget stops after a second: a long solve with a short answer (the big
    # board's solve is quick; turning its million presses into Python objects is most of it).
    hard = "Puzzle(graph: Grid(rows: 12, cols: 12), modulus: 3, target: All(1))"
    window = {}

    def solve():
        window["start"] = time.perf_counter()
        window["report"] = modsolve.solve(hard, method="search", budget=1.0, nodes=10**15)
        window["end"] = time.perf_counter()

    ticks = []
    worker = threading.Thread(target=solve)
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    assert window["report"]["fewest"]["proof"] == "budget-ran-out"
    length = window["end"] - window["start"]
    assert length > 0.9
    inside = [t for t in ticks if window["start"] <= t <= window["end"]]
    # The window's ends count as ticks: a GIL held through the solve leaves this thread only
    # the moments after the call returns, one gap from the start as long as the window.
    edges = [window["start"], *inside, window["end"]]
    gaps = [b - a for a, b in zip(edges, edges[1:])]
    assert len(inside) > 1000, (len(inside), length)
    assert max(gaps) < length / 4, (max(gaps), length)
