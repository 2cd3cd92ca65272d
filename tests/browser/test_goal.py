"""What a player sees (issue 43): every cell's target (and its modulus where it tells something)
and the par from the start, in the playground's Play view and in exported pages, a notice on a
level no plan solves, a par kept for the win by `hide_par: true`, buttons by their names and on
their cells (Merlin's squares), lines from every apart button to its cells, and the drawing
flaws fixed: labels inside the picture and off the edges, a torus's wrap marks, the cube's face
names, cell text at least 11 px. Screenshots of every shipped puzzle in Play and in export."""

import json
import subprocess

from conftest import BIN, ROOT, click_cell, open_level, shot
from playwright.sync_api import expect
from test_drawing import board, drawn, play, set_source
from test_export import export, offline, press, wait_for  # noqa: F401 (offline is a fixture)

PUZZLES = sorted(p.stem for p in (ROOT / "puzzles").glob("*.ron"))
UNSOLVABLE = "lightsout-4x4-unsolvable"


def solved(stem):
    """`modsolve FILE --json`: whether it is solvable and its par."""
    run = subprocess.run([BIN, str(ROOT / "puzzles" / f"{stem}.ron"), "--json"], capture_output=True, text=True)
    doc = json.loads(run.stdout)
    return doc["solvable"], doc["fewest"] and doc["fewest"]["total_presses"]


def expected_texts(b, state, i, telling):
    texts = [str(state[i]), f"→{b['target'][i]}"]
    return texts + [f"mod {b['moduli'][i]}"] if telling else texts


def telling(b):
    moduli = {str(m) for m in b["moduli"]}
    return len(moduli) > 1 or moduli != {"2"}


def test_play_shows_every_cells_target_and_the_par_from_the_start(page):
    figures = []
    for stem in PUZZLES:
        open_level(page, f"{stem}.ron")
        play(page)
        b, d = board(page), drawn(page)
        for i, cell in enumerate(d["cells"]):
            assert cell["texts"] == expected_texts(b, b["start"], i, telling(b)), (stem, i, cell["texts"])
            assert min(cell["fonts"][1:]) >= 11, (stem, cell["fonts"])
        solvable, par = solved(stem)
        if solvable:
            expect(page.locator("#play-par")).to_have_text(f"par {par}")
            expect(page.locator("#unsolvable")).to_be_hidden()
        else:
            expect(page.locator("#unsolvable")).to_be_visible()
        page.mouse.move(5, 5)
        shot(page, f"play-{stem}")
        figures.append(f"{stem} par {par}")
        page.click("#modes button[data-mode=edit]")
    print("\n" + "; ".join(figures))


def test_small_cells_show_their_target_as_a_corner_square(page):
    """A 20×20 board's cells are too small for `→t`: each cell off its target carries a square of
    its target's colour in a corner (its target recorded for the test), and no cell at its target
    does."""
    open_level(page, "lightsout-3x3.ron")
    set_source(page, "Puzzle(graph: Grid(rows: 20, cols: 20), modulus: 5, start: All(0), target: All(2))")
    play(page)
    b, d = board(page), drawn(page)
    assert not d["pixels"] and len(d["cells"]) == 400
    assert all(c["texts"] == [] or len(c["texts"]) == 1 for c in d["cells"]), d["cells"][0]
    assert [c["mark"] for c in d["cells"]] == ["2"] * 400
    legend = page.locator("#legend").inner_text()
    assert "corner square" in legend, legend
    expect(page.locator("#unsolvable")).to_be_hidden()
    page.mouse.move(5, 5)
    shot(page, "play-20x20-target-marks")
    # The corner pressed twice adds 2 to cells 0, 1 and 20: at their target, unmarked.
    for moves in ("1", "2"):
        click_cell(page, 0)
        page.wait_for_function(f"document.body.dataset.moves === '{moves}'")
    d = drawn(page)
    assert [d["cells"][i]["mark"] for i in (0, 1, 20, 2, 21)] == [None, None, None, "2", "2"]
    assert str(b["target"]) == "2" or set(map(str, b["target"])) == {"2"}


PIXEL = """(i) => {
    const c = document.getElementById('board'), p = window.%s.cellCentre(i);
    const r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    const d = c.getContext('2d').getImageData(Math.floor((p.x - r.left) * dpr), Math.floor((p.y - r.top) * dpr), 1, 1).data;
    return [d[0], d[1], d[2]];
}"""
GREEN = [0x15, 0x80, 0x3D]
BIG = "Puzzle(graph: Grid(rows: 70, cols: 70), modulus: 5, start: All(0), target: All(2))"


def test_a_board_drawn_a_pixel_a_cell_shows_its_goal(page, tmp_path, offline):
    """4,900 cells leave no room for `→t`: outside the Edit view a cell at its target is green
    and the legend counts them; the Edit view's target field draws the targets. The exported
    page shows the same."""
    open_level(page, "lightsout-3x3.ron")
    set_source(page, BIG)
    play(page)
    assert drawn(page)["pixels"]
    pixel = PIXEL % "playground"
    assert page.evaluate(pixel, 0) != GREEN
    legend = page.locator("#legend").inner_text()
    assert "green: at its target (0 of 4,900 cells)" in legend, legend
    assert "corner square" not in legend and "mod m" not in legend, legend
    # The corner pressed twice adds 2 to cells 0, 1 and 70: at their target, green.
    for moves in ("1", "2"):
        click_cell(page, 0)
        page.wait_for_function(f"document.body.dataset.moves === '{moves}'")
    assert [page.evaluate(pixel, i) == GREEN for i in (0, 1, 70, 2, 71)] == [True, True, True, False, False]
    expect(page.locator("#legend")).to_contain_text("green: at its target (3 of 4,900 cells)")
    page.mouse.move(5, 5)
    shot(page, "play-70x70-pixels-goal")
    # The Edit view: the start's values, or with the target field the target's (2 of mod 5).
    page.click("#modes button[data-mode=edit]")
    page.uncheck("#show-plan")
    start = page.evaluate(pixel, 0)
    page.check("input[name=field][value=target]")
    assert page.evaluate(pixel, 0) != start != GREEN
    expect(page.locator("#legend")).to_contain_text("coloured by its target")
    shot(page, "edit-70x70-pixels-target")
    # The exported page.
    source = tmp_path / "big.ron"
    source.write_text(BIG)
    exported = offline.open(export(tmp_path, source, "big"))
    assert exported.evaluate(PIXEL % "player", 0) != GREEN
    expect(exported.locator("#legend")).to_contain_text("green: at its target (0 of 4,900 cells)")
    shot(exported, "export-70x70-pixels-goal")


def test_two_levers_reads_its_goal_mod_3(page):
    open_level(page, "two-levers.ron")
    play(page)
    cells = [c["texts"] for c in drawn(page)["cells"]]
    assert cells == [["0", "→1", "mod 3"], ["0", "→2", "mod 3"], ["0", "→2", "mod 3"]], cells
    assert [b["name"] for b in drawn(page)["buttons"]] == ["left lever", "right lever"]
    legend = page.locator("#legend").inner_text()
    assert "target" in legend and "modulo" in legend, legend
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("lever")


def test_an_unsolvable_level_says_so_on_opening(page):
    page.click("#modes button[data-mode=play]")
    open_level(page, f"{UNSOLVABLE}.ron")
    expect(page.locator("#unsolvable")).to_be_visible()
    expect(page.locator("#unsolvable")).to_contain_text("cannot be solved")
    shot(page, "play-unsolvable-notice")
    page.click("#modes button[data-mode=edit]")
    expect(page.locator("#unsolvable")).to_be_hidden()


HIDDEN = "Puzzle(name: \"Surprise\", graph: Path(3), modulus: 2, target: [1, 1, 1], hide_par: true)\n"


def test_hide_par_keeps_the_par_for_the_win(page):
    set_source(page, HIDDEN)
    assert board(page)["hide_par"] is True
    play(page)
    expect(page.locator("#play-par")).to_have_text("par ?")
    for cell, count in enumerate(page.evaluate("window.playground.solve.fewest.presses")):
        for _ in range(count):
            before = int(page.get_attribute("body", "data-moves"))
            click_cell(page, cell)
            page.wait_for_selector(f"body[data-moves='{before + 1}']")
    expect(page.locator("#play-par")).to_have_text("par 1")
    expect(page.locator("#win")).to_contain_text("par 1")


def test_merlins_buttons_are_its_squares(page):
    open_level(page, "merlin.ron")
    d, b = drawn(page), board(page)
    assert [x["cell"] for x in d["buttons"]] == list(range(9))
    assert page.locator("#buttons button").count() == 0
    # The fewest plan's badges sit on the squares: 7 presses, none on corners 0 and 8.
    plan = page.evaluate("window.playground.solve.fewest.presses")
    assert plan == [0, 1, 1, 1, 1, 1, 1, 1, 0], plan
    shot(page, "edit-merlin-buttons-on-squares")
    play(page)
    before = b["start"]
    click_cell(page, 1)  # the top edge's button: cells 0, 1, 2
    page.wait_for_selector("body[data-moves='1']")
    after = page.evaluate("window.playground.state")
    assert after == [(v + (1 if i in (0, 1, 2) else 0)) % 2 for i, v in enumerate(before)], after
    # The hint names the square's button as the board does, and rings that square.
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("(6 to go)")
    hinted = int(page.get_attribute("body", "data-hint"))
    assert plan[hinted] == 1 and hinted != 1, hinted
    expect(page.locator("#hint-text")).to_have_text(f"press button {hinted} (6 to go)")


AT = ("Puzzle(graph: Grid(rows: 2, cols: 2), modulus: 2, buttons: [[(0, 1), (1, 1), (3, 1)], [(0, 1), (2, 1)]],"
      " button_at: [3, 0], button_labels: [\"corner\", \"side\"], target: [0, 1, 1, 1])\n")


def test_button_at_puts_a_button_on_its_cell(page):
    set_source(page, AT)
    d = drawn(page)
    assert [(x["name"], x["cell"]) for x in d["buttons"]] == [("corner", 3), ("side", 0)]
    play(page)
    click_cell(page, 3)  # the corner button: cells 0, 1, 3
    page.wait_for_selector("body[data-moves='1']")
    assert page.evaluate("window.playground.state") == [1, 1, 0, 1]
    click_cell(page, 1)  # no button here: nothing happens
    click_cell(page, 0)  # the side button: cells 0, 2
    page.wait_for_selector("body[data-moves='2']")
    assert page.evaluate("window.playground.state") == [0, 1, 1, 1]
    expect(page.locator("#win")).to_contain_text("par 2")


def test_every_apart_button_has_its_lines(page):
    buttons = ", ".join(f"[({j}, 1), ({(j + 1) % 6}, 1)]" for j in range(5))
    set_source(page, f"Puzzle(graph: Cells(6), modulus: 2, buttons: [{buttons}])\n")
    page.mouse.move(5, 5)
    d = drawn(page)
    assert len(d["buttons"]) == 5 and d["lines"] == 10, d["lines"]
    expect(page.locator("#legend li[data-kind=lines]")).to_have_count(1)
    shot(page, "edit-explicit-lines")


def overlaps(box, a, b):
    """Whether the segment a–b passes through the box (sampled)."""
    for k in range(101):
        x = a[0] + (b[0] - a[0]) * k / 100
        y = a[1] + (b[1] - a[1]) * k / 100
        if abs(x - box["x"]) < box["w"] / 2 and abs(y - box["y"]) < box["h"] / 2:
            return True
    return False


def test_labels_stay_inside_and_off_the_edges(page):
    open_level(page, "sunflowers.ron")
    d, b = drawn(page), board(page)
    points = [(c["x"], c["y"]) for c in d["cells"]]
    assert [s["label"] for s in d["spots"]] == list("abcdefg")
    for box in d["spots"]:
        for a, c in b["layout"]["edges"]:
            assert not overlaps(box, points[a], points[c]), (box, a, c)
    page.mouse.move(5, 5)
    shot(page, "drawing-sunflowers-labels")
    set_source(page, "Puzzle(name: \"Ring\", graph: Cycle(8), modulus: 2)\n")
    d = drawn(page)
    height = page.evaluate("document.getElementById('board').getBoundingClientRect().height")
    lowest = max(c["y"] for c in d["cells"]) + 0.4 * d["size"]
    # The number under the lowest node (4) fits inside the canvas.
    assert lowest + 0.22 * d["size"] * 1.2 < height, (lowest, height)
    page.mouse.move(5, 5)
    shot(page, "drawing-cycle-labels")


def test_a_torus_shows_that_it_wraps_and_the_cube_names_its_faces(page):
    open_level(page, "torus-5x5.ron")
    assert drawn(page)["wraps"] == 20
    expect(page.locator("#legend li[data-kind=wrap]")).to_have_count(1)
    page.mouse.move(5, 5)
    shot(page, "drawing-torus-wraps")
    set_source(page, "Puzzle(name: \"Cube\", graph: Cube(2), modulus: 2, start: All(1))\n")
    captions = drawn(page)["captions"]
    assert [c["name"] for c in captions] == ["top", "left", "front", "right", "back", "bottom"]
    assert min(c["font"] for c in captions) >= 11
    page.mouse.move(5, 5)
    shot(page, "drawing-cube-faces")


def test_edit_view_cell_text_is_at_least_11_px(page):
    smallest = {}
    for stem in ("octopus", "sunflowers", "lightsout-5x5", "two-levers", "king-4x4"):
        open_level(page, f"{stem}.ron")
        fonts = [f for c in drawn(page)["cells"] for f in c["fonts"]]
        assert len(fonts) == 3 * board(page)["cells"] and min(fonts) >= 11, (stem, fonts)
        smallest[stem] = min(fonts)
    page.mouse.move(5, 5)
    shot(page, "drawing-cell-text")
    print(f"\nsmallest cell text (px): {smallest}")


def test_exported_pages_show_the_goal(tmp_path, offline):
    figures = []
    for stem in PUZZLES:
        if stem == UNSOLVABLE:
            continue
        page = offline.open(export(tmp_path, ROOT / "puzzles" / f"{stem}.ron", stem))
        b = page.evaluate("window.player.game.p.board")
        d = page.evaluate("window.player.drawn()")
        for i, cell in enumerate(d["cells"]):
            assert cell["texts"] == expected_texts(b, b["start"], i, telling(b)), (stem, i, cell["texts"])
            assert min(cell["fonts"][1:]) >= 11, (stem, cell["fonts"])
        _, par = solved(stem)
        expect(page.locator("#par")).to_have_text(f"par {par}")
        expect(page.locator("#legend li[data-kind=target]")).to_have_count(1)
        if stem == "two-levers":
            assert [x["name"] for x in d["buttons"]] == ["left lever", "right lever"]
        shot(page, f"export-start-{stem}")
        if stem == "merlin":
            assert [x["cell"] for x in d["buttons"]] == list(range(9))
            press(page, 4)
            assert page.evaluate("window.player.game.counts[4]") == 1
        figures.append(f"{stem} par {par}")
    print("\nexported: " + "; ".join(figures))


def test_an_exported_hide_par_level_shows_the_par_once_won(tmp_path, offline):
    source = tmp_path / "surprise.ron"
    source.write_text(HIDDEN)
    page = offline.open(export(tmp_path, source, "surprise"))
    expect(page.locator("#par")).to_have_text("par ?")
    press(page, 1)
    wait_for(page, "document.body.dataset.solved === 'true'")
    expect(page.locator("#par")).to_have_text("par 1")


def test_the_overlap_helper_sees_a_crossing_and_a_miss():
    assert overlaps({"x": 0, "y": 0, "w": 2, "h": 2}, (-5, 0), (5, 0))
    assert not overlaps({"x": 0, "y": 5, "w": 2, "h": 2}, (-5, 0), (5, 0))
