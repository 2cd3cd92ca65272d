"""Errors: `PuzzleError` with line and column for text, the field for dicts; `ValueError` for
bad options."""

import pytest

import modsolve


def test_puzzle_error_is_a_value_error():
    assert issubclass(modsolve.PuzzleError, ValueError)
    raised_by_python = modsolve.PuzzleError("made by hand")
    assert (raised_by_python.line, raised_by_python.column, raised_by_python.field) == (None, None, None)


def test_a_typo_gives_the_line_and_column():
    # From tests/it/bad_input.rs: the key's place, with a suggestion.
    source = "Puzzle(\n    graph: Path(3),\n    modulus: 2,\n    strat: [1, 0, 1],\n)"
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.solve(source)
    e = caught.value
    assert (e.kind, e.line, e.column) == ("syntax", 4, 5)
    assert e.message == "unknown field `strat` in Puzzle; did you mean `start`?"
    assert str(e) == e.message + " (line 4, column 5)"
    assert e.rendered.splitlines()[:2] == [f"error: {e.message}", " --> <string>:4:5"]


def test_a_typo_inside_a_grid():
    source = "Puzzle(\n    graph: Grid(rows: 3, cols: 3, neighbourhood: King),\n    modulus: 2,\n)"
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.check(source)
    e = caught.value
    assert (e.line, e.column) == (2, 35)
    assert e.message == "unknown field `neighbourhood` in Grid; did you mean `neighborhood`?"


def test_an_invalid_value_names_its_field_and_place():
    source = "Puzzle(graph: Path(4), modulus: 2,\n  start: [0, 1, 0, 5])"
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.solve(source)
    e = caught.value
    assert e.kind == "invalid" and e.field == "start[3]"
    assert (e.line, e.column) == (2, 20)


def test_a_syntax_error_mid_line():
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.generate("Puzzle(graph: Path(3), modulus: 2,, start: All(0))")
    assert (caught.value.line, caught.value.column) == (1, 35)
    assert caught.value.message == "expected a field's name here (is there a `,` too many?)"


def test_dict_errors_name_the_field_without_a_position():
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.solve({"graph": {"Path": 4}, "modulus": 2, "start": [0, 1, 0, 5]})
    e = caught.value
    assert (e.kind, e.field, e.line, e.column) == ("invalid", "start[3]", None, None)
    assert str(e) == "`start[3]`: value 5 of cell 3 is not below its modulus 2"
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.solve({"graph": {"Grd": {"rows": 2, "cols": 2}}, "modulus": 2})
    assert caught.value.field == "graph" and "did you mean `Grid`" in caught.value.message
    with pytest.raises(modsolve.PuzzleError) as caught:
        modsolve.solve({"graph": {"Path": 2}, "modulus": 2, "bad key": 1})
    assert caught.value.field == "bad key"
    with pytest.raises(modsolve.PuzzleError, match="missing field `modulus`"):
        modsolve.solve({"graph": {"Path": 2}})


@pytest.mark.parametrize(
    "options",
    [
        {"minimize": "fastest"},
        {"method": "magic"},
        {"budget": -1.0},
        {"budget": float("nan")},
        {"timeout": -1.0},
        {"max_memory": "lots"},
    ],
)
def test_bad_options_are_value_errors(octopus, options):
    with pytest.raises(ValueError) as caught:
        modsolve.solve(octopus, **options)
    assert not isinstance(caught.value, modsolve.PuzzleError)


def test_bad_generate_options(octopus):
    with pytest.raises(ValueError, match="not a strategy"):
        modsolve.generate(octopus, strategy="lucky")
    with pytest.raises(ValueError, match="empty"):
        modsolve.generate(octopus, par=(5, 3))


def test_a_puzzle_is_text_or_a_dict():
    with pytest.raises(TypeError):
        modsolve.solve(42)
    with pytest.raises(TypeError):
        modsolve.solve({"graph": {"Path": 2}, "modulus": object()})
