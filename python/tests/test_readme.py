"""The README's Python session, run as a doctest so that it cannot rot."""

import doctest
import re

from conftest import ROOT


def readme_session() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Using modsolve from Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the README's Python section has a python block"
    return "\n".join(blocks)


def test_the_readme_session_runs(monkeypatch):
    monkeypatch.chdir(ROOT)  # it opens puzzles/octopus.ron
    parser = doctest.DocTestParser()
    test = parser.get_doctest(readme_session(), {}, "README.md", str(ROOT / "README.md"), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)
