"""`modsolve.hint` and `modsolve.par_distribution`."""

import math

import modsolve
import pytest
from conftest import puzzle_text


def test_hints_followed_solve_the_octopus_in_par(octopus):
    first = modsolve.hint(octopus)
    assert first["version"] == 1 and first["solved"] is False and first["solvable"] is True
    assert first["next"]["name"] == "tentacle 1" and first["par"] == 18 and first["par_proven"] is True
    pressed = []
    while True:
        hint = modsolve.hint(octopus, pressed=pressed)
        if hint["solved"]:
            break
        assert hint["par"] == 18 - len(pressed) and hint["verified"] is True
        pressed.append(hint["next"]["button"])
    assert len(pressed) == 18
    assert modsolve.solve(octopus)["fewest"]["total_presses"] == 18


def test_presses_are_numbers_or_labels_and_steps_list_the_plan(octopus):
    by_label = modsolve.hint(octopus, pressed=["tentacle 1", 0])
    assert by_label == modsolve.hint(octopus, pressed=[0, 0])
    assert by_label["pressed"] == [0, 0] and by_label["par"] == 22
    steps = modsolve.hint(octopus, steps=True)["steps"]
    assert len(steps) == 18 and steps[0]["state"] == [4, 5, 5, 3]
    assert steps[-1]["state"] == [0, 0, 0, 0]


def test_a_press_that_names_no_button_is_a_value_error(octopus):
    with pytest.raises(ValueError, match="names no button"):
        modsolve.hint(octopus, pressed=["tentacle 9"])
    with pytest.raises(ValueError, match="buttons are 0 to 3"):
        modsolve.hint(octopus, pressed=[4])


def test_the_exact_par_distribution_of_3x3_lights_out():
    # An invertible board: every start has one plan, so the starts of par k are the C(9, k)
    # sets of k buttons.
    report = modsolve.par_distribution(puzzle_text("lightsout-3x3"), file="3x3.ron")
    assert report["file"] == "3x3.ron" and report["method"] == "exact" and report["complete"] is True
    assert report["solvable_starts"] == "512" and report["gods_number"] == 9
    assert report["par"] == {str(k): math.comb(9, k) for k in range(10)}


def test_a_sampled_distribution_is_repeatable_and_adds_up():
    template = puzzle_text("lightsout-5x5")
    report = modsolve.par_distribution(template, exact_limit=0, samples=200, seed=3)
    assert report["method"] == "sampled" and report["taken"] == 200 and report["confidence"] == 0.95
    assert report["solvable_starts"] == "8388608"
    assert sum(share["samples"] for share in report["par"].values()) == 200
    for share in report["par"].values():
        assert share["low"] <= share["share"] <= share["high"]
    assert report == modsolve.par_distribution(template, exact_limit=0, samples=200, seed=3)
    with pytest.raises(ValueError, match="confidence"):
        modsolve.par_distribution(template, confidence=1.5)
