"""`modsolve.new`: the library's new puzzles (as `modsolve new` writes them), every form read
back, lists of moduli, and refusals; dicts are written as RON by the library too."""

import os
import subprocess

import modsolve
import pytest


def test_new_hex_and_cube_read_back_with_their_cells():
    hex_text = modsolve.new("hex")
    assert "graph: Hex(rows: 5, cols: 5)," in hex_text
    assert modsolve.solve(hex_text)["cells"] == 25
    cube = modsolve.new("cube", size=2)
    assert "graph: Cube(2)," in cube
    assert modsolve.solve(cube)["cells"] == 24
    # Solvable and one press from solved: the fewest plan is one press.
    assert modsolve.solve(cube)["fewest"]["total_presses"] == 1


@pytest.mark.parametrize("modulus", ["7,8,7,6", [7, 8, 7, 6]])
def test_new_takes_a_list_of_moduli(modulus):
    text = modsolve.new("path", cells=4, modulus=modulus, press=(2, 1), start=1)
    assert "    modulus: [7, 8, 7, 6],\n" in text
    assert "    press: (self: 2, neighbors: 1),\n" in text
    assert "    start: All(1),\n" in text


def test_new_refuses_what_it_cannot_make():
    with pytest.raises(ValueError, match="the list of moduli has 3 values, but the puzzle has 4 cells"):
        modsolve.new("path", cells=4, modulus="7,8,7")
    with pytest.raises(ValueError, match='form is "torus"'):
        modsolve.new("torus")
    with pytest.raises(ValueError, match="value 2 of the list"):
        modsolve.new("grid", modulus="7,x")


@pytest.mark.skipif("MODSOLVE_BIN" not in os.environ, reason="the command line is not built")
def test_new_is_the_command_lines_text():
    for args in (["hex"], ["cube"], ["path", "--cells", "4", "--modulus", "7,8,7,6"]):
        out = subprocess.run([os.environ["MODSOLVE_BIN"], "new", *args], capture_output=True, text=True, check=True)
        kwargs = {"cells": 4, "modulus": "7,8,7,6"} if args[0] == "path" else {}
        assert modsolve.new(args[0], **kwargs) == out.stdout


def test_a_dict_is_written_by_the_library():
    puzzle = {"graph": {"Path": 4}, "modulus": [7, 8, 7, 6], "press": {"self": 2, "neighbors": 1}, "start": [2, 4, 5, 3]}
    assert modsolve.to_ron(puzzle) == modsolve.to_ron(modsolve.to_ron(puzzle))
    assert "modulus: [7, 8, 7, 6]," in modsolve.to_ron(puzzle)
