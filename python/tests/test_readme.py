"""The guide's Python session (docs/src/python.md), run as a doctest so that it cannot rot."""

import doctest
import re

from conftest import ROOT


def readme_session() -> str:
    chapter = (ROOT / "docs" / "src" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", chapter, flags=re.S)
    assert blocks, "the guide's Python chapter has a python block"
    return "\n".join(blocks)


def test_the_readme_session_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # it opens puzzles/octopus.ron
    parser = doctest.DocTestParser()
    test = parser.get_doctest(readme_session(), {}, "python.md", str(ROOT / "docs" / "src" / "python.md"), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)
