"""The exported player (`modsolve export FILE --html`) in real headless Chromium, opened from a
file:// URL with every other request blocked and recorded: levels are played to a win using
hints only, undo and reset are checked against the simulation, a pack keeps its progress across
a reload, and the playground's Export button downloads a page that plays.
"""

import json
import re
import subprocess
import time

import pytest
from conftest import BIN, ROOT, shot
from playwright.sync_api import expect


def wait_for(page, expression, timeout=15.0):
    """Waits until `expression` is truthy in the page. (Playwright's wait_for_function evaluates
    its predicate with eval, which the exported page's Content-Security-Policy forbids.)"""
    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < end, f"timed out waiting for {expression}"
        time.sleep(0.02)

def export(tmp_path, source, name):
    target = tmp_path / f"{name}.html"
    run = subprocess.run([BIN, "export", str(source), "--html", "-o", str(target)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return target


class Offline:
    """A page whose context lets file: URLs through and aborts (and records) anything else."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1100, "height": 760})
        self.blocked = []
        self.errors = []

        def route(r):
            if r.request.url.startswith("file:"):
                r.continue_()
            else:
                self.blocked.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))

    def open(self, path):
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("body[data-ready='1']")
        return self.page

    def close(self):
        self.context.close()
        assert not self.blocked, f"requests left the file: {self.blocked}"
        assert not self.errors, self.errors


@pytest.fixture
def offline(browser):
    session = Offline(browser)
    yield session
    session.close()


def press(page, button):
    before = int(page.get_attribute("body", "data-moves"))
    if page.evaluate("window.player.game.p.board.buttons_are_cells"):
        point = page.evaluate(f"window.player.cellCentre({button})")
        page.mouse.click(point["x"], point["y"])
    else:
        # A button the board draws is clicked there; one listed under the board, as a button.
        point = page.evaluate(f"window.player.buttonCentre({button})")
        if point is None:
            page.click(f"#buttons button[data-button='{button}']")
        else:
            page.mouse.click(point["x"], point["y"])
    wait_for(page, f"Number(document.body.dataset.moves) === {before + 1}")


def play_by_hints(page, limit=200):
    """Presses only what the Hint button says until the level is won; the kinds of hint seen."""
    kinds = []
    for _ in range(limit):
        if page.get_attribute("body", "data-solved") == "true":
            return kinds
        page.click("#hint")
        hinted = page.get_attribute("body", "data-hint")
        assert hinted != "", page.inner_text("#hint-text")
        kinds.append(page.get_attribute("body", "data-hint-kind"))
        press(page, int(hinted))
    raise AssertionError("no win within the limit")


def state(page):
    return page.evaluate("window.player.game.state.map(String)")


def test_octopus_by_best_moves(tmp_path, offline):
    page = offline.open(export(tmp_path, ROOT / "puzzles" / "octopus.ron", "octopus"))
    expect(page.locator("#par")).to_have_text("par 18")
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("best move: press tentacle")
    expect(page.locator("#hint-text")).to_contain_text("(18 to go)")
    shot(page, "export-hint")
    kinds = play_by_hints(page)
    assert kinds == ["best"] * 18, kinds
    expect(page.locator("#win")).to_be_visible()
    expect(page.locator("#win-text")).to_have_text("solved in 18 (par 18)")
    assert state(page) == ["0", "0", "0", "0"]
    shot(page, "export-octopus")


def test_undo_and_reset_replay_the_presses(tmp_path, offline):
    page = offline.open(export(tmp_path, ROOT / "puzzles" / "octopus.ron", "octopus"))
    assert state(page) == ["2", "4", "5", "3"]
    press(page, 0)  # +2 on tentacle 1, +1 on tentacle 2
    assert state(page) == ["4", "5", "5", "3"]
    press(page, 1)  # +1, +2, +1 on tentacles 1-3
    assert state(page) == ["5", "7", "6", "3"]
    page.click("#undo")
    expect(page.locator("#moves")).to_have_text("moves 1")
    assert state(page) == ["4", "5", "5", "3"]
    page.click("#reset")
    expect(page.locator("#moves")).to_have_text("moves 0")
    assert state(page) == ["2", "4", "5", "3"]
    # A detour, then hints: they still lead to the target (best moves: the walk is complete).
    for button in (3, 3, 2):
        press(page, button)
    kinds = play_by_hints(page)
    assert set(kinds) == {"best"}, kinds
    expect(page.locator("#win-text")).to_contain_text(f"solved in {3 + len(kinds)} (par 18)")


@pytest.mark.parametrize(
    "name, par",
    [("sunflowers", 3), ("two-levers", None), ("octopus-game", None), ("three-state-4x4", None)],
)
def test_hints_win_other_levels(tmp_path, offline, name, par):
    source = ROOT / "puzzles" / f"{name}.ron"
    document = json.loads(subprocess.run([BIN, "export", str(source), "--json"], capture_output=True, text=True, check=True).stdout)
    expected = document["levels"][0]["par"]
    if par is not None:
        assert expected == str(par)
    page = offline.open(export(tmp_path, source, name))
    kinds = play_by_hints(page)
    expect(page.locator("#win-text")).to_have_text(f"solved in {len(kinds)} (par {expected})")
    assert len(kinds) == int(expected), kinds
    if name == "two-levers":
        shot(page, "export-two-levers")


def test_a_pack_orders_by_par_and_keeps_progress(tmp_path, offline):
    run = subprocess.run([BIN, "export", str(ROOT / "puzzles"), "--html", "-o", str(tmp_path / "pack.html")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "lightsout-4x4-unsolvable.ron" in run.stderr and "left out" in run.stderr
    page = offline.open(tmp_path / "pack.html")
    items = page.locator("#level-list li")
    expect(items).to_have_count(12)
    pars = [int(re.search(r"par (\d+)", t).group(1)) for t in items.all_inner_texts()]
    assert pars == sorted(pars), pars
    expect(page.locator("#progress")).to_have_text("solved 0 of 12")
    first = play_by_hints(page)
    expect(page.locator("#progress")).to_have_text("solved 1 of 12")
    expect(items.nth(0)).to_contain_text(f"✓ {len(first)} / par {pars[0]}")
    page.click("#next-level")
    expect(page.locator("body")).to_have_attribute("data-level", "1")
    press(page, 0)
    shot(page, "export-pack")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    # Progress and the level being played survive the reload.
    expect(page.locator("#progress")).to_have_text("solved 1 of 12")
    expect(page.locator("body")).to_have_attribute("data-level", "1")
    expect(items.nth(0)).to_have_class(re.compile("solved"))
    page.click("#prev")
    expect(page.locator("body")).to_have_attribute("data-level", "0")


def test_the_playground_exports_the_open_level(page, tmp_path, browser):
    page.click("#files li[data-file='sunflowers.ron']")
    wait_for(page, "window.playground.file === 'sunflowers.ron' && window.playground.board !== null")
    with page.expect_download() as download:
        page.click("#export")
    assert download.value.suggested_filename == "sunflowers.html"
    target = tmp_path / "sunflowers.html"
    download.value.save_as(target)
    session = Offline(browser)
    try:
        played = session.open(target)
        expect(played.locator("#title")).to_have_text("Sunflowers")
        kinds = play_by_hints(played)
        expect(played.locator("#win-text")).to_have_text(f"solved in {len(kinds)} (par 3)")
    finally:
        session.close()


# Moduli past 2^53 (as in conftest's big-moduli level): periods of fifty digits, a par no one
# plays, a basis too large to walk.
BIG = """Puzzle(
    graph: Path(3),
    modulus: [9007199254740997, 9007199254740881, 4611686018427387847],
    start: [9007199254740995, 3, 4611686018427387845],
)
"""

# Twenty buttons doing the same thing and one more: 2^19 quiet patterns, more than the page walks.
TWINS = "Puzzle(graph: Cells(2), modulus: 2, buttons: [%s, [(1, 1)]], target: [1, 1])" % ", ".join(["[(0, 1)]"] * 20)


def test_values_past_2_53_stay_exact(tmp_path, offline):
    source = tmp_path / "big.ron"
    source.write_text(BIG)
    document = json.loads(subprocess.run([BIN, "export", str(source), "--json"], capture_output=True, text=True, check=True).stdout)
    level = document["levels"][0]
    page = offline.open(export(tmp_path, source, "big"))
    assert state(page) == ["9007199254740995", "3", "4611686018427387845"]
    page.click("#hint")
    text = page.inner_text("#hint-text")
    assert text.startswith("a move that leads to a solution: press cell"), text
    assert page.get_attribute("body", "data-hint-kind") == "solution"
    togo = int(re.search(r"\((\d+) to go\)", text).group(1))
    assert 0 < togo <= int(level["par"])
    button = int(page.get_attribute("body", "data-hint"))
    press(page, button)
    cells = level["board"]["cells"]
    moduli, start = level["board"]["moduli"], level["board"]["start"]
    # One number stands for every cell's value (schema/analyse.schema.json).
    moduli = moduli if isinstance(moduli, list) else [moduli] * cells
    expected = list(start) if isinstance(start, list) else [start] * cells
    for cell, amount in level["effects"][button][0]:
        expected[cell] = (expected[cell] + amount) % moduli[cell]
    assert state(page) == [str(v) for v in expected]
    # The plan from here is at least one press shorter.
    page.click("#hint")
    after = int(re.search(r"\((\d+) to go\)", page.inner_text("#hint-text")).group(1))
    assert after <= togo - 1, (togo, after)
    shot(page, "export-big-moduli")


def test_too_many_quiet_patterns_to_walk_still_lead_to_the_target(tmp_path, offline):
    source = tmp_path / "twins.ron"
    source.write_text(TWINS)
    page = offline.open(export(tmp_path, source, "twins"))
    page.click("#hint")
    # From the start the fewest plan's rest is a fewest plan (the par is proven).
    assert page.get_attribute("body", "data-hint-kind") == "best"
    # A detour: two twins cancel out; the rest of the fewest plan no longer fits what was pressed.
    press(page, 3)
    press(page, 4)
    kinds = play_by_hints(page)
    assert kinds == ["solution", "solution"], kinds
    expect(page.locator("#win-text")).to_have_text("solved in 4 (par 2)")


def test_press_limits_hold_and_hints_keep_within_them(tmp_path, offline):
    source = tmp_path / "limited.ron"
    source.write_text("Puzzle(graph: Path(3), modulus: 2, target: All(1), max_presses: All(1))")
    page = offline.open(export(tmp_path, source, "limited"))
    press(page, 0)
    point = page.evaluate("window.player.cellCentre(0)")
    page.mouse.click(point["x"], point["y"])  # a second press of a one-shot switch is refused
    expect(page.locator("#hint-text")).to_have_text("cell 0 may be pressed at most 1 time")
    expect(page.locator("#moves")).to_have_text("moves 1")
    # From here only a second press of cell 0 would solve it.
    page.click("#hint")
    expect(page.locator("#hint-text")).to_have_text("no plan within the press limits from here: undo or reset")
    page.click("#undo")
    kinds = play_by_hints(page)
    assert kinds == ["best"]
    expect(page.locator("#win-text")).to_have_text("solved in 1 (par 1)")
