"""Every puzzle drawn as itself, and the board showing what the designer edits: screenshots of
every shipped puzzle in Edit and Play, the geometry the page drew (graphs in two dimensions,
rings that close, labels, explicit buttons), the target and modulus on the cells, a dragged
node written back as `layout:`, previews of a press, and undo/redo of edits."""

import itertools
import math

from playwright.sync_api import expect

from conftest import ROOT, click_cell, open_level, shot

PUZZLES = sorted(p.stem for p in (ROOT / "puzzles").glob("*.ron"))


def drawn(page):
    return page.evaluate("window.playground.drawn()")


def board(page):
    return page.evaluate("window.playground.board")


def analysed(page, action):
    """Runs `action` and waits for the analysis it asks for."""
    before = page.evaluate("window.playground.seq")
    action()
    page.wait_for_function(f"document.body.dataset.analysed > {before}")


def set_source(page, text):
    """Types a whole new RON text into the source box and waits for its analysis."""

    def write():
        page.evaluate(
            "(text) => { const s = document.getElementById('source'); s.value = text;"
            " s.dispatchEvent(new Event('input')); }",
            text,
        )

    analysed(page, write)


def play(page):
    page.click("#modes button[data-mode=play]")
    page.wait_for_function("document.body.dataset.moves === '0'")


def edit_mode(page):
    page.click("#modes button[data-mode=edit]")


def largest_triangle(points):
    def area(a, b, c):
        return abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2

    return max(area(*t) for t in itertools.combinations(points, 3))


def closest_pair(points):
    return min(math.dist(a, b) for a, b in itertools.combinations(points, 2))


def test_every_shipped_puzzle_in_edit_and_play(page):
    assert len(PUZZLES) == 13, PUZZLES
    for stem in PUZZLES:
        open_level(page, f"{stem}.ron")
        b, d = board(page), drawn(page)
        assert not d["pixels"] and len(d["cells"]) == b["cells"], stem
        points = [(c["x"], c["y"]) for c in d["cells"]]
        # No two cells drawn on top of each other: at least 80% of a cell width apart.
        assert closest_pair(points) >= 0.8 * d["size"] - 1, (stem, closest_pair(points), d["size"])
        page.mouse.move(5, 5)  # no hover preview in the pictures
        shot(page, f"edit-{stem}")
        play(page)
        assert len(drawn(page)["cells"]) == b["cells"]
        shot(page, f"play-{stem}")
        edit_mode(page)
    print(f"\nscreenshots of {len(PUZZLES)} puzzles in Edit and Play")


def test_a_graph_is_drawn_in_two_dimensions_with_its_edges_and_labels(page):
    open_level(page, "sunflowers.ron")
    d = drawn(page)
    points = [(c["x"], c["y"]) for c in d["cells"]]
    size = d["size"]
    # Not a row: the seven flowers span a real area, with their 7 edges and labels a–g.
    assert largest_triangle(points) > size * size, (points, size)
    assert len({round(y) for _, y in points}) >= 3, points
    assert d["edges"] == 7
    assert d["labels"] == list("abcdefg")
    # Neighbours nearer than cells two steps apart, on average.
    edges = board(page)["layout"]["edges"]
    near = sum(math.dist(points[a], points[b]) for a, b in edges) / len(edges)
    assert near < 2.2 * size, near
    print(f"\nsunflowers: 7 cells over {largest_triangle(points) / size**2:.1f} cell² triangles, mean edge {near / size:.2f} cells")


def test_a_path_is_a_line_with_its_labels(page):
    open_level(page, "octopus.ron")
    d = drawn(page)
    ys = {round(c["y"]) for c in d["cells"]}
    assert len(ys) == 1 and d["edges"] == 3
    assert d["labels"] == ["tentacle 1", "tentacle 2", "tentacle 3", "tentacle 4"]


def test_a_cycle_is_a_ring_that_closes(page):
    set_source(page, "Puzzle(name: \"Ring\", graph: Cycle(8), modulus: 2, start: [1, 0, 0, 0, 0, 0, 0, 1])\n")
    b, d = board(page), drawn(page)
    assert [0, 7] in b["layout"]["edges"] and d["edges"] == 8
    points = [(c["x"], c["y"]) for c in d["cells"]]
    cx, cy = sum(p[0] for p in points) / 8, sum(p[1] for p in points) / 8
    radii = [math.dist(p, (cx, cy)) for p in points]
    assert max(radii) - min(radii) < 1.5 and min(radii) > d["size"], radii
    # The wrap-around neighbours as near as any others.
    sides = [math.dist(points[a], points[b]) for a, b in b["layout"]["edges"]]
    assert max(sides) - min(sides) < 1.5, sides
    shot(page, "edit-cycle-8")


def test_the_cube_has_gaps_between_its_faces(page):
    set_source(page, "Puzzle(name: \"Cube\", graph: Cube(2), modulus: 2, start: All(1))\n")
    d = drawn(page)
    xs = sorted({round(c["x"], 1) for c in d["cells"]})
    steps = sorted({round(b - a, 1) for a, b in zip(xs, xs[1:])})
    # Within a face one cell width apart, between faces more.
    assert len(steps) == 2 and steps[1] > steps[0] * 1.2, steps
    shot(page, "edit-cube-2")


def test_explicit_buttons_are_drawn_named_and_pressed_on_the_board(page):
    open_level(page, "two-levers.ron")
    d = drawn(page)
    assert [b["name"] for b in d["buttons"]] == ["left lever", "right lever"]
    assert page.locator("#buttons button").count() == 0
    # Hovering a button shows the cells its press changes.
    point = page.evaluate("window.playground.buttonCentre(1)")
    page.mouse.move(point["x"], point["y"])
    page.wait_for_function("window.playground.preview === 1")
    shot(page, "preview-two-levers")
    play(page)
    point = page.evaluate("window.playground.buttonCentre(1)")
    before = page.evaluate("window.playground.state || window.playground.board.start")
    page.mouse.click(point["x"], point["y"])
    page.wait_for_function("document.body.dataset.moves === '1'")
    after = page.evaluate("window.playground.state")
    # Lever 1 adds 2 to lamp 1 and 1 to lamp 2 (mod 3).
    assert after == [before[0], (before[1] + 2) % 3, (before[2] + 1) % 3], (before, after)


def test_hovering_a_cell_previews_its_press(page):
    open_level(page, "octopus.ron")
    point = page.evaluate("window.playground.cellCentre(1)")
    page.mouse.move(point["x"], point["y"])
    page.wait_for_function("window.playground.preview === 1")
    effects = board(page)["effects"][1]
    assert effects == [[0, 1], [1, 2], [2, 1]], effects
    shot(page, "preview-octopus")


def test_target_and_modulus_are_on_the_cells_with_a_legend(page):
    open_level(page, "octopus.ron")
    cell = lambda: drawn(page)["cells"][0]["texts"]  # noqa: E731
    # Start: the value large, the target and modulus small.
    assert cell() == ["2", "→0", "mod 7"], cell()
    for kind in ["off", "target", "modulus", "badge", "preview"]:
        expect(page.locator(f"#legend li[data-kind={kind}]")).to_have_count(1)
    # Target: a click sets the target, shown large on the cell.
    page.check("input[name=field][value=target]")
    assert cell() == ["→0", "from 2", "mod 7"], cell()
    analysed(page, lambda: click_cell(page, 0))
    assert board(page)["target"][0] == 1
    assert cell() == ["→1", "from 2", "mod 7"], cell()
    page.mouse.move(5, 5)
    shot(page, "edit-target-mode")
    # Modulus: 7 → 8, shown large.
    page.check("input[name=field][value=moduli]")
    analysed(page, lambda: click_cell(page, 0))
    assert board(page)["moduli"][0] == 8
    assert cell() == ["8", "→1", "mod"], cell()
    page.mouse.move(5, 5)
    shot(page, "edit-modulus-mode")


def test_undo_and_redo_of_edits(page):
    open_level(page, "octopus.ron")
    original = page.input_value("#source")
    expect(page.locator("#edit-undo")).to_be_disabled()
    analysed(page, lambda: click_cell(page, 0))
    analysed(page, lambda: click_cell(page, 1))
    assert board(page)["start"] == [3, 5, 5, 3]
    analysed(page, lambda: page.click("#edit-undo"))
    assert board(page)["start"] == [3, 4, 5, 3]
    page.locator("#board").focus()
    analysed(page, lambda: page.keyboard.press("Control+z"))
    assert board(page)["start"] == [2, 4, 5, 3]
    assert page.input_value("#source") == original
    analysed(page, lambda: page.keyboard.press("Control+Shift+z"))
    assert board(page)["start"] == [3, 4, 5, 3]
    analysed(page, lambda: page.keyboard.press("Control+y"))
    assert board(page)["start"] == [3, 5, 5, 3]
    expect(page.locator("#edit-redo")).to_be_disabled()


def test_dragging_a_node_writes_layout_back(page):
    open_level(page, "sunflowers.ron")
    assert "layout:" not in page.input_value("#source")
    before = board(page)["layout"]["centres"]
    start = page.evaluate("window.playground.cellCentre(6)")
    size = drawn(page)["size"]

    def drag():
        page.mouse.move(start["x"], start["y"])
        page.mouse.down()
        page.mouse.move(start["x"] + size, start["y"] + size / 2, steps=5)
        page.mouse.move(start["x"] + 2 * size, start["y"] + size, steps=5)
        page.mouse.up()

    analysed(page, drag)
    source = page.input_value("#source")
    assert source.count("layout: [") == 1, source
    after = board(page)["layout"]["centres"]
    # Cell 6 moved by about (2, 1) cell widths against cell 0; nothing else moved.
    moved = [after[6][k] - after[0][k] - (before[6][k] - before[0][k]) for k in range(2)]
    assert abs(moved[0] - 2) < 0.1 and abs(moved[1] - 1) < 0.1, moved
    assert board(page)["start"] == [0] * 7  # a drag is not a click: no value changed
    page.mouse.move(5, 5)
    shot(page, "edit-dragged-sunflowers")
    analysed(page, lambda: page.click("#edit-undo"))
    assert "layout:" not in page.input_value("#source")
    analysed(page, lambda: page.click("#edit-redo"))
    assert page.input_value("#source") == source
