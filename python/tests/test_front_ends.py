"""The Python package and the command line give the same documents.

For every shipped puzzle, `solve`, `check` and `hint` (with the steps), the par distribution
where it is exact, and `generate` with a fixed seed are asked of both; each pair is compared
after both are read by Python's `json` and written compactly (keys in their order), and each
document is validated against its schema in `schema/`. What differs by rule is handled visibly:
a generated level's `file` is the path the command wrote (`levels/level-0001.ron`) and, from
Python, the name it would be written under, whose `source` must be the file the command wrote.

The command is `MODSOLVE_BIN`, else `target/debug/modsolve` (`.ci/python` builds it).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

import modsolve
from conftest import PUZZLES, ROOT

BIN = os.environ.get("MODSOLVE_BIN", str(ROOT / "target" / "debug" / "modsolve"))
SHIPPED = sorted(PUZZLES.glob("*.ron"))
# Sampled within a time budget: machine-dependent shares (the Rust front-end test leaves them
# out for the same reason).
SAMPLED = {"lightsout-5x5.ron", "octopus-game.ron", "three-state-4x4.ron"}


def schema(name):
    return json.loads((ROOT / "schema" / f"{name}.schema.json").read_text())


VALIDATORS = {
    name: jsonschema.Draft202012Validator(schema(name)) for name in ("solve", "check", "hint", "generate")
}


def validate(name, document):
    errors = sorted(VALIDATORS[name].iter_errors(document), key=str)
    assert not errors, f"{name}: {errors[0]}"


def compact(document):
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def cli(folder, *args):
    """The command's JSON document (any exit code: a failed check is a document too)."""
    done = subprocess.run([BIN, *args], cwd=folder, capture_output=True, text=True, timeout=300)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(f"modsolve {args}: not JSON ({e}): {done.stdout}\n{done.stderr}") from e


def same(what, from_cli, from_python):
    assert compact(from_cli) == compact(from_python), f"{what}: the command and Python differ"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    if not Path(BIN).is_file():
        pytest.fail(f"no modsolve binary at {BIN}: build it (`cargo build --locked`) or set MODSOLVE_BIN")
    folder = tmp_path_factory.mktemp("puzzles")
    for path in SHIPPED:
        shutil.copy(path, folder / path.name)
    return folder


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_solve_check_and_hint_are_the_same_from_the_command_and_python(folder, path):
    name, source = path.name, path.read_text()

    solved = cli(folder, name, "--json")
    validate("solve", solved)
    same(f"solve {name}", solved, modsolve.solve(source))

    checked = cli(folder, "check", name, "--json")
    validate("check", checked)
    same(f"check {name}", checked, modsolve.check(source, file=name))

    hinted = cli(folder, "hint", name, "--steps", "--json")
    validate("hint", hinted)
    same(f"hint {name}", hinted, modsolve.hint(source, steps=True))


@pytest.mark.parametrize("path", [p for p in SHIPPED if p.name not in SAMPLED], ids=lambda p: p.name)
def test_the_par_distribution_is_the_same_from_the_command_and_python(folder, path):
    name = path.name
    counted = cli(folder, "check", "--par-distribution", name, "--json")
    validate("check", counted)
    assert counted["method"] == "exact"
    same(f"par distribution {name}", counted, modsolve.par_distribution(path.read_text(), file=name))


@pytest.mark.parametrize(
    "name, count, seed, extra",
    [
        ("octopus.ron", 3, 7, {}),
        ("lightsout-3x3.ron", 2, 3, {"strategy": "sweep"}),
        ("lightsout-5x5.ron", 2, 11, {"scramble": 4}),
        ("merlin.ron", 2, 5, {"strategy": "any"}),
    ],
)
def test_generated_levels_are_the_same_from_the_command_and_python(tmp_path, name, count, seed, extra):
    shutil.copy(PUZZLES / name, tmp_path / name)
    args = ["generate", name, "--out", "levels", "--count", str(count), "--seed", str(seed), "--json"]
    for key, value in extra.items():
        args += [f"--{key}", str(value)]
    made = cli(tmp_path, *args)
    validate("generate", made)
    from_python = modsolve.generate((PUZZLES / name).read_text(), count=count, seed=seed, file=name, **extra)
    validate("generate", from_python)
    assert made["found"] == count
    assert len(made["levels"]) == len(from_python["levels"]) == count
    for level, ours in zip(made["levels"], from_python["levels"]):
        assert level["file"] == f"levels/{ours['file']}"
        assert ours["source"] == (tmp_path / level["file"]).read_text()
        level["file"] = ours["file"]
        del ours["source"]
    same(f"generate {name}", made, from_python)
