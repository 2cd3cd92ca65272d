"""`modsolve.solve`: the octopus, the command line's documents, the dict form."""

import json

import pytest

import modsolve
from conftest import PUZZLES, SNAPSHOTS, puzzle_text


def simulate_octopus(presses):
    """The octopus by hand: press j adds 2 to tentacle j and 1 to each neighbour."""
    moduli = [7, 8, 7, 6]
    state = [2, 4, 5, 3]
    for j, times in enumerate(presses):
        for cell, weight in ((j - 1, 1), (j, 2), (j + 1, 1)):
            if 0 <= cell < 4:
                state[cell] = (state[cell] + weight * times) % moduli[cell]
    return state


def test_the_octopus_takes_18_presses_proven(octopus):
    report = modsolve.solve(octopus)
    assert report["version"] == modsolve.SCHEMA_VERSION == 1
    assert report["name"] == "Octopus"
    assert report["solvable"] is True
    assert report["count"] == "2352" and report["count_exact"] is True
    fewest = report["fewest"]
    assert fewest["total_presses"] == 18 and sum(fewest["presses"]) == 18
    assert fewest["proven"] is True and fewest["proof"] == "proven"
    assert simulate_octopus(fewest["presses"]) == [0, 0, 0, 0]
    # The shown plan (fewest total by default) is a plan too.
    assert simulate_octopus(report["presses"]) == [0, 0, 0, 0]


def test_other_objectives_give_plans_that_solve(octopus):
    for minimize in ("max", "buttons"):
        report = modsolve.solve(octopus, minimize=minimize)
        assert report["optimal"]["objective"] == minimize
        assert simulate_octopus(report["optimal"]["presses"]) == [0, 0, 0, 0]
        assert simulate_octopus(report["presses"]) == [0, 0, 0, 0]
    assert modsolve.solve(octopus, method="search")["method"] == "search"


def test_listing_plans_up_to_the_limit(octopus):
    report = modsolve.solve(octopus, all=True, limit=5)
    assert report["count"] == "2352"
    assert len(report["all"]) == 5 and len({tuple(plan) for plan in report["all"]}) == 5
    assert report["all_cut"] == "limit" and report["all_more"] == "2347"
    for plan in report["all"]:
        assert simulate_octopus(plan) == [0, 0, 0, 0]
    assert "all" not in modsolve.solve(octopus)


def snapshot_json(name):
    """The `modsolve puzzles/NAME.ron --json` output that the CLI's snapshot holds."""
    text = (SNAPSHOTS / f"it__snapshots__solve-json-{name}.snap").read_text()
    _, _, body = text.partition("\n--- stdout\n")
    stdout, _, _ = body.partition("\n--- stderr")
    return json.loads(stdout)


SHIPPED = sorted(path.stem for path in PUZZLES.glob("*.ron"))


def test_every_shipped_puzzle_has_a_snapshot():
    assert len(SHIPPED) >= 12
    for name in SHIPPED:
        assert (SNAPSHOTS / f"it__snapshots__solve-json-{name}.snap").exists(), name


@pytest.mark.parametrize("name", SHIPPED)
def test_the_document_is_the_command_lines(name):
    assert modsolve.solve(puzzle_text(name)) == snapshot_json(name)


DICTS = {
    "octopus": {
        "name": "Octopus",
        "graph": {"Path": 4},
        "modulus": [7, 8, 7, 6],
        "press": {"self": 2, "neighbors": 1},
        "start": [2, 4, 5, 3],
        "target": {"All": 0},
        "labels": ["tentacle 1", "tentacle 2", "tentacle 3", "tentacle 4"],
    },
    "king-4x4": {
        "name": "King 4x4",
        "graph": {"Grid": {"rows": 4, "cols": 4, "neighborhood": "King"}},
        "modulus": 2,
        "start": {"Rows": ["#..#", ".##.", ".##.", "#..#"]},
        "target": {"All": 0},
    },
    "torus-5x5": {
        "name": "Torus 5x5",
        "graph": {"Grid": {"rows": 5, "cols": 5, "wrap": True}},
        "modulus": 2,
        "start": {"All": 0},
        "target": {"All": 1},
    },
    "two-levers": {
        "name": "Two levers, three lamps",
        "graph": {"Cells": 3},
        "modulus": 3,
        "buttons": [[(0, 1), (1, 1)], [[1, 2], [2, 1]]],  # tuples or lists alike
        "target": [1, 2, 2],
        "button_labels": ["left lever", "right lever"],
    },
    "sunflowers": {
        "name": "Sunflowers",
        "graph": {"Edges": {"cells": 7, "edges": [[0, 1], [0, 2], [1, 3], [2, 4], [3, 4], [3, 5], [5, 6]]}},
        "modulus": 2,
        "labels": list("abcdefg"),
        "target": {"All": 1},
        "intended": None,  # a None field is left out
    },
    "octopus-game": {
        "name": "Octopus (game rule)",
        "graph": {"Path": 4},
        "modulus": [7, 8, 7, 6],
        "phases": [{"self": 1, "neighbors": 1}, {"self": 1, "neighbors": 0}],
        "start": [2, 4, 5, 3],
        "target": {"All": 0},
        "labels": ["tentacle 1", "tentacle 2", "tentacle 3", "tentacle 4"],
    },
}


@pytest.mark.parametrize("name", sorted(DICTS))
def test_the_dict_form_gives_the_texts_document(name):
    from_dict = modsolve.solve(DICTS[name])
    assert from_dict == modsolve.solve(puzzle_text(name))
    assert from_dict == snapshot_json(name)
    # Written back, the dict is the file's puzzle: the same text as the file's.
    assert modsolve.to_ron(DICTS[name]) == modsolve.to_ron(puzzle_text(name))


def test_to_ron_text_round_trips(octopus):
    text = modsolve.to_ron(octopus, comment="the octopus")
    assert text.startswith("// the octopus\nPuzzle(\n")
    assert modsolve.solve(text) == modsolve.solve(octopus)


def test_budgets_and_memory_limits_are_accepted(octopus):
    assert modsolve.solve(octopus, budget=None, nodes=10_000_000)["fewest"]["total_presses"] == 18
    assert modsolve.solve(octopus, max_memory="1GiB")["solvable"] is True
    assert modsolve.solve(octopus, max_memory=1 << 30)["solvable"] is True
    with pytest.raises(MemoryError, match="max_memory"):
        modsolve.solve(octopus, max_memory=1)


# The 6x6 mixed-moduli grid of seed 2 of the benchmark against HiGHS and CP-SAT
# (benches/reference/mixed.py grid 6 2 1): 66 presses at fewest.
MIXED_6X6 = (
    "Puzzle(graph: Grid(rows: 6, cols: 6), modulus: [2, 3, 3, 7, 4, 12, 6, 6, 11, 5, 11, 2, 11, 12, 4, 8, "
    "12, 8, 10, 7, 10, 9, 10, 6, 2, 2, 7, 9, 7, 8, 8, 10, 4, 10, 4, 5], press: (self: 1, neighbors: 1), "
    "start: [0, 0, 0, 2, 1, 2, 4, 4, 5, 4, 10, 0, 7, 6, 2, 5, 5, 7, 2, 6, 6, 7, 8, 1, 1, 1, 3, 8, 4, 5, 7, "
    "7, 2, 9, 3, 3])"
)


def test_a_plan_not_proven_comes_with_its_lower_bound():
    report = modsolve.solve(MIXED_6X6, nodes=2_000_000)
    fewest = report["fewest"]
    assert fewest["proven"] is False and fewest["proof"] == "budget-ran-out"
    assert 0 < fewest["lower_bound"] <= 66 <= fewest["total_presses"]
    # The same nodes give the same plan and bound.
    again = modsolve.solve(MIXED_6X6, nodes=2_000_000)["fewest"]
    assert again == fewest


def test_the_default_budget_proves_the_mixed_6x6_grid():
    fewest = modsolve.solve(MIXED_6X6)["fewest"]
    assert fewest["proven"] is True
    assert fewest["total_presses"] == fewest["lower_bound"] == 66
