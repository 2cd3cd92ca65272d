"""The type stubs (modsolve.pyi, shipped as modsolve/__init__.pyi) match the module."""

import ast
import inspect
from pathlib import Path

import modsolve
from conftest import ROOT


def stub_functions():
    tree = ast.parse((ROOT / "modsolve.pyi").read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_function_has_its_stub_with_the_same_parameters():
    stubs = stub_functions()
    functions = {
        name
        for name, value in vars(modsolve).items()
        if callable(value) and not name.startswith("_") and not isinstance(value, type)
    }
    assert functions == set(stubs) == {
        "solve", "check", "generate", "hint", "par_distribution", "to_ron", "new", "shard", "combine"
    }
    for name, stub in stubs.items():
        signature = inspect.signature(getattr(modsolve, name))
        positional = [a.arg for a in stub.args.args]
        keywords = [a.arg for a in stub.args.kwonlyargs]
        assert list(signature.parameters) == positional + keywords, name
        defaults = [ast.literal_eval(d) for d in stub.args.kw_defaults]
        for keyword, default in zip(keywords, defaults):
            actual = signature.parameters[keyword].default
            # pyo3 shows `...` for a default it cannot write (`Some(10.0)`).
            assert actual in (default, ...), (name, keyword, actual, default)


def test_the_stub_is_installed_with_py_typed():
    package = Path(modsolve.__file__).parent
    assert (package / "__init__.pyi").read_text() == (ROOT / "modsolve.pyi").read_text()
    assert (package / "py.typed").exists()
