"""Shared fixtures of the playground's browser tests: a scratch copy of puzzles/ (plus a broken
file, a misspelt one and one with moduli past 2^53) served by `modsolve serve`, one headless
Chromium, a fresh page per test, and helpers to take screenshots, open levels and click cells.
"""

import os
import shutil
import statistics
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("MODSOLVE_BIN", str(ROOT / "target" / "release" / "modsolve"))
CHROMIUM = os.environ.get("MODSOLVE_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(os.environ.get("MODSOLVE_SCREENSHOTS", str(ROOT / "docs" / "screenshots")))

BROKEN = """// A level with a mistake: cell 1 counts modulo 2, so 2 is not a value it can hold.
Puzzle(
    graph: Path(3),
    modulus: 2,
    start: [1, 2, 0],
)
"""

# A misspelt field: the error's advice ("did you mean") is at the end of a long line.
TYPO = """// British spelling of a field name.
Puzzle(
    graph: Grid(rows: 3, cols: 3, neighbourhood: King),
    modulus: 2,
)
"""

# Moduli and values past 2^53, which JavaScript's numbers round.
BIG = """// Moduli past 2^53.
Puzzle(
    graph: Path(3),
    modulus: [9007199254740997, 9007199254740881, 4611686018427387847],
    start: [9007199254740995, 3, 4611686018427387845],
)
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("levels")
    for path in (ROOT / "puzzles").glob("*.ron"):
        shutil.copy(path, folder / path.name)
    (folder / "broken.ron").write_text(BROKEN)
    (folder / "typo.ron").write_text(TYPO)
    (folder / "big-moduli.ron").write_text(BIG)
    return folder


@pytest.fixture(scope="module")
def server(folder):
    process = subprocess.Popen(
        [BIN, "serve", str(folder), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Replacing a text with unsaved edits asks first (test_studio.py tests the question); the
    # other tests answer yes.
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    page.close()
    assert not errors, errors


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_level(page, name):
    before = page.evaluate("window.playground.seq")
    page.click(f"#files li[data-file='{name}']")
    page.wait_for_function(f"document.body.dataset.analysed > {before}")


def click_cell(page, cell):
    point = page.evaluate(f"window.playground.cellCentre({cell})")
    page.mouse.click(point["x"], point["y"])


@pytest.fixture(scope="module")
def crowded_folder(tmp_path_factory):
    """A folder of 200 levels (copies of the shipped puzzles), for the layout with a long list."""
    folder = tmp_path_factory.mktemp("crowded")
    sources = sorted((ROOT / "puzzles").glob("*.ron"))
    for k in range(200):
        shutil.copy(sources[k % len(sources)], folder / f"level-{k + 1:04}.ron")
    return folder


def serve(folder, *extra):
    """`modsolve serve` on `folder`: the process and its start-up URL (with the token)."""
    process = subprocess.Popen(
        [BIN, "serve", str(folder), "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return process, url


@pytest.fixture(scope="module")
def crowded_server(crowded_folder):
    process, url = serve(crowded_folder)
    yield url
    process.terminate()
    process.wait(timeout=10)
