"""`modsolve.check` and `modsolve.generate`."""

import time

import pytest

import modsolve
from conftest import puzzle_text


def test_check_of_an_unsolvable_puzzle():
    report = modsolve.check(puzzle_text("lightsout-4x4-unsolvable"))
    assert report["version"] == 1 and report["file"] == "<string>"
    assert report["passed"] is False and report["solvable"] is False
    assert report["count"] == "0" and report["par"] is None
    assert report["solvable_starts"] == "1/16" and report["quiet_patterns"] == "15"
    assert "unsolvable" in [w["code"] for w in report["warnings"]]


def test_check_of_the_octopus(octopus):
    report = modsolve.check(octopus, file="octopus.ron")
    assert report["file"] == "octopus.ron"
    assert report["passed"] is True and report["par"] == 18 and report["par_proven"] is True
    assert [(w["code"], w["severity"]) for w in report["warnings"]] == [("no-simple-strategy", "note")]
    # A note never fails the check, even when warnings are denied.
    assert modsolve.check(octopus, deny_warnings=True)["passed"] is True


def test_generate_with_a_seed_is_repeatable():
    template = puzzle_text("lightsout-5x5")
    first = modsolve.generate(template, count=4, seed=11, par=(5, 9))
    assert first == modsolve.generate(template, count=4, seed=11, par=(5, 9))
    assert first["version"] == 1 and first["found"] == 4 and first["tried"] >= 4
    assert len(first["levels"]) == 4
    starts = [tuple(level["start"]) for level in first["levels"]]
    assert len(set(starts)) == 4
    other = modsolve.generate(template, count=4, seed=12, par=(5, 9))
    assert [tuple(level["start"]) for level in other["levels"]] != starts


def test_a_generated_level_solves_with_its_par():
    batch = modsolve.generate(puzzle_text("octopus"), count=3, seed=3, unique=False)
    for level in batch["levels"]:
        assert set(level) == {"file", "par", "count", "start", "intended", "source"}
        report = modsolve.solve(level["source"])
        assert report["fewest"]["total_presses"] == level["par"]
        assert report["fewest"]["proven"] is True
        assert report["count"] == level["count"]
        assert sum(level["intended"]) == level["par"]
        check = modsolve.check(level["source"])
        assert check["par"] == level["par"]
        assert check["intended"] == {"solves": True, "fewest": True, "unique": level["count"] == "1"}


def test_a_rare_spec_finds_fewer():
    batch = modsolve.generate(puzzle_text("lightsout-3x3"), count=5, seed=1, attempts=3)
    assert batch["tried"] == 3 and batch["found"] < 5


# A timeout of 0 s still lets the work run 0.17 s (the bound adds 0.2 s for what cannot be
# interrupted): the board must take well over that. 300 x 300 took 0.16 s on an idle machine;
# 600 x 600 takes about 1.1 s.
BIG_MOD_3 = "Puzzle(graph: Grid(rows: 600, cols: 600), modulus: 3, target: All(1))"


def test_a_check_the_timeout_stops_is_undecided():
    report = modsolve.check(BIG_MOD_3, timeout=0.0)
    assert report == {
        "version": 1,
        "file": "<string>",
        "error": "the timeout came before the check finished",
        "undecided": True,
    }


def test_a_solve_the_timeout_stops_is_undecided():
    report = modsolve.solve(BIG_MOD_3, timeout=0.0)
    assert report["solvable"] is None
    assert report["undecided"] == "the timeout came before the analysis finished"


def test_a_budget_never_leaves_a_solve_undecided():
    # The budget bounds only the search for a better plan: the algebra's answer stands.
    report = modsolve.solve(BIG_MOD_3, budget=0.0)
    assert report["solvable"] is True and report["undecided"] is None
    assert report["fewest"]["total_presses"] > 0


def test_par_distribution_keeps_its_budget():
    # The sampling ends at the budget's time, its running samples abandoned. The Python
    # package's one wall-clock smoke test: a coarse bound, the set-up (one elimination) twice and
    # 10 s, far below the 1000 samples' minutes of work.
    king = "Puzzle(graph: Grid(rows: 200, cols: 200, neighborhood: King), modulus: 3, target: All(1))"
    started = time.monotonic()
    modsolve.solve(king, nodes=0)
    plain = time.monotonic() - started
    started = time.monotonic()
    report = modsolve.par_distribution(king, budget=0.5)
    took = time.monotonic() - started
    assert took < 2 * plain + 10.0, (took, plain)
    assert report["method"] == "sampled" and report["complete"] is False
    with pytest.raises(TimeoutError):
        modsolve.par_distribution(king, timeout=0.05)
