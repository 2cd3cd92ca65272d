"""The playground as a designer's studio: a new puzzle of every form (the graph drawn by
clicking), errors shown whole, generate with the command line's advice and a scramble field, the
header following saves and marking unsaved edits, a layout that holds at 1000 px and with 200
files, and Play as a player's view. Each journey saves a screenshot docs/screenshots/studio-*.png.
"""

import subprocess

import pytest
from conftest import BIN, TYPO, click_cell, open_level, shot
from playwright.sync_api import expect


def analysed(page, before):
    page.wait_for_function(f"document.body.dataset.analysed > {before}")


def create(page, kind, fields=None, texts=None, neighborhood="Cross", wrap=False):
    """Fills the New puzzle form for `kind` and creates it; waits for the analysis."""
    page.select_option("#template select[name=form]", kind)
    for name, value in {"self": "1", "neighbors": "1", **(fields or {})}.items():
        if page.locator(f"#template input[name={name}]").is_visible():
            page.fill(f"#template input[name={name}]", value)
    if kind == "grid":
        page.select_option("#template select[name=neighborhood]", neighborhood)
        page.set_checked("#template input[name=wrap]", wrap)
    for name in ("stencil", "mask", "buttons"):
        box = page.locator(f"#template textarea[name={name}]")
        if box.is_visible():
            box.fill((texts or {}).get(name, ""))
    before = page.evaluate("window.playground.seq")
    page.click("#template button[type=submit]")
    analysed(page, before)


def solve(page):
    return page.evaluate(
        "(() => { const s = window.playground.solve; return [s.cells, s.buttons, s.solvable, s.count, s.fewest && s.fewest.total_presses]; })()"
    )


# Each form with the analysis the command line gives its text: [cells, buttons, solvable,
# plans, par].
FORMS = [
    ("grid", dict(fields={"rows": "4", "cols": "4", "modulus": "3"}), "graph: Grid(rows: 4, cols: 4)", [16, 16, True, "9", 8]),
    (
        "grid-mask-stencil",
        dict(fields={"modulus": "2"}, neighborhood="Stencil", texts={"stencil": "x#\n##", "mask": "..#..\n.###.\n#####\n.###.\n..#.."}),
        'neighborhood: Stencil(["x#", "##"]), mask: [',
        [13, 13, True, "1", 12],
    ),
    ("grid-king-wrap", dict(fields={"rows": "3", "cols": "4", "modulus": "2"}, neighborhood="King", wrap=True), "wrap: true, neighborhood: King", [12, 12, True, "256", 4]),
    ("hex", dict(fields={"rows": "3", "cols": "4", "modulus": "2", "self": "1", "neighbors": "1"}), "graph: Hex(rows: 3, cols: 4)", [12, 12, True, "1", 6]),
    ("hex-mask", dict(fields={"modulus": "2"}, texts={"mask": ".##.\n###.\n.##."}), "graph: Hex(rows: 3, cols: 4, mask: [", [7, 7, True, "4", 1]),
    ("cube", dict(fields={"size": "2", "modulus": "2"}), "graph: Cube(2)", [24, 24, True, "256", 6]),
    ("path", dict(fields={"cells": "6", "modulus": "3", "self": "2", "neighbors": "1"}), "press: (self: 2, neighbors: 1)", [6, 6, True, "1", 6]),
    ("cycle", dict(fields={"cells": "5", "modulus": "2"}), "graph: Cycle(5)", [5, 5, True, "1", 5]),
    ("graph", dict(fields={"cells": "4", "modulus": "3"}), "graph: Edges(cells: 4, edges: [(0, 1), (1, 2), (2, 3)])", [4, 4, True, "1", 4]),
    ("explicit", dict(fields={"cells": "3", "modulus": "3"}, texts={"buttons": "0 1\n1 2*2\n2"}), "buttons: [\n        [(0, 1), (1, 1)],\n        [(1, 1), (2, 2)],", [3, 3, True, "1", 4]),
]


@pytest.mark.parametrize("name,settings,written,expected", FORMS, ids=[f[0] for f in FORMS])
def test_each_form_is_created_and_analysed(page, tmp_path, name, settings, written, expected):
    create(page, name.split("-")[0], **settings)
    source = page.input_value("#source")
    assert written in source, source
    assert solve(page) == expected
    # The command line reads the same text to the same analysis.
    path = tmp_path / "form.ron"
    path.write_text(source)
    out = subprocess.run([BIN, str(path)], capture_output=True, text=True)
    assert f"{expected[0]} cells" in out.stdout, out.stdout + out.stderr
    assert f"Fewest presses: {expected[4]} (proven)" in out.stdout, out.stdout
    assert f"Solutions: {expected[3]} plan" in out.stdout, out.stdout
    shot(page, f"studio-form-{name}")


def test_a_graph_is_drawn_by_clicking(page):
    create(page, "graph", fields={"cells": "4", "modulus": "2"})
    assert page.evaluate("window.playground.board.edges") == [[0, 1], [1, 2], [2, 3]]
    page.check("#graph-tool input")
    expect(page.locator("#graph-note")).to_be_visible()
    # Two nodes: the edge 0–3 closes the path into a ring.
    click_cell(page, 0)
    expect(page.locator("#edge-list")).to_contain_text("node 0 chosen")
    before = page.evaluate("window.playground.seq")
    click_cell(page, 3)
    analysed(page, before)
    assert page.evaluate("window.playground.board.edges") == [[0, 1], [0, 3], [1, 2], [2, 3]]
    # Empty space on the board: a new node (cell 4), then an edge to it.
    box = page.locator("#board").bounding_box()
    before = page.evaluate("window.playground.seq")
    page.mouse.click(box["x"] + 2, box["y"] + 2)
    analysed(page, before)
    assert page.evaluate("window.playground.board.cells") == 5
    click_cell(page, 4)
    before = page.evaluate("window.playground.seq")
    click_cell(page, 2)
    analysed(page, before)
    # The same two nodes again remove the edge 0–1; "+ node" adds a sixth.
    click_cell(page, 1)
    before = page.evaluate("window.playground.seq")
    click_cell(page, 0)
    analysed(page, before)
    before = page.evaluate("window.playground.seq")
    page.click("#add-node")
    analysed(page, before)
    source = page.input_value("#source")
    assert "graph: Edges(cells: 6, edges: [(0, 3), (1, 2), (2, 3), (2, 4)])" in source, source
    # A ring of 4 with a tail and a lone node: 6 cells, the analysis of that graph.
    assert solve(page) == [6, 6, True, "1", 4]
    expect(page.locator("#dirty")).to_be_visible()
    # Without labels of its own, each node shows the number the edge list uses.
    assert page.evaluate("window.playground.drawn().labels") == ["0", "1", "2", "3", "4", "5"]
    shot(page, "studio-graph-editor")


def test_the_graph_editor_removes_a_node(page):
    """Removing node 1 of a 5-node graph with per-cell moduli: its edges go, the higher nodes
    are renumbered in the edges and in the modulus list, and the analysis is of the smaller
    graph; an edit made before its answer waits its turn behind it (none is dropped)."""
    create(page, "graph", fields={"cells": "5", "modulus": "3,4,5,6,7"})
    source = page.input_value("#source")
    assert "modulus: [3, 4, 5, 6, 7]," in source, source
    assert "graph: Edges(cells: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4)])" in source, source
    page.check("#graph-tool input")
    click_cell(page, 1)
    expect(page.locator("#edge-list")).to_contain_text("node 1 chosen")
    before = page.evaluate("window.playground.seq")
    page.click("#remove-node")
    analysed(page, before)
    source = page.input_value("#source")
    assert "graph: Edges(cells: 4, edges: [(1, 2), (2, 3)])" in source, source
    assert "modulus: [3, 5, 6, 7]," in source, source
    assert "// Edges are undirected" in source, source
    assert page.evaluate("window.playground.board.cells") == 4
    assert page.evaluate("window.playground.board.edges") == [[1, 2], [2, 3]]
    # A removal with "+ node" queued behind it before its answer: both are applied, in order.
    click_cell(page, 3)
    before = page.evaluate("window.playground.seq")
    page.click("#remove-node")
    page.click("#add-node")
    page.wait_for_function(f"document.body.dataset.settled === '1' && document.body.dataset.analysed > {before + 1}")
    source = page.input_value("#source")
    assert "graph: Edges(cells: 4, edges: [(1, 2)])" in source, source
    assert "modulus: [3, 5, 6, 6]," in source, source
    assert page.evaluate("window.playground.board.cells") == 4
    shot(page, "studio-graph-remove-node")


def test_nodes_clicked_before_a_removal_lands_keep_their_identity(page):
    """Two removals clicked on the board drawn before the first one's answer: the second
    click's node is renumbered by the first removal, so the node the designer clicked goes,
    not its higher neighbour. The first request is held until both clicks are made."""
    create(page, "graph", fields={"cells": "5", "modulus": "3,4,5,6,7"})
    page.check("#graph-tool input")
    held = []

    def hold(route):
        if held and held[0] is None:
            route.continue_()
        else:
            held.append(route)

    def release():
        route = held.pop()
        held.append(None)
        route.continue_()

    page.route("**/api/analyse", hold)
    click_cell(page, 1)
    page.click("#remove-node")
    page.wait_for_function("document.body.dataset.settled !== '1'")
    # The board still shows five nodes: node 3 here is node 2 once node 1 is gone.
    assert page.evaluate("window.playground.board.cells") == 5
    click_cell(page, 3)
    expect(page.locator("#edge-list")).to_contain_text("node 3 chosen")
    page.click("#remove-node")
    assert len(held) == 1
    release()
    page.wait_for_function("document.body.dataset.settled === '1' && window.playground.board.cells === 3")
    source = page.input_value("#source")
    assert "graph: Edges(cells: 3, edges: [])" in source, source
    assert "modulus: [3, 5, 7]," in source, source
    # An edge between nodes clicked on a stale board joins the nodes clicked.
    held.clear()
    click_cell(page, 0)
    page.click("#remove-node")
    page.wait_for_function("document.body.dataset.settled !== '1'")
    click_cell(page, 1)
    click_cell(page, 2)
    assert len(held) == 1
    release()
    page.wait_for_function("document.body.dataset.settled === '1' && window.playground.board.cells === 2")
    source = page.input_value("#source")
    assert "graph: Edges(cells: 2, edges: [(0, 1)])" in source, source
    assert "modulus: [5, 7]," in source, source
    shot(page, "studio-graph-remove-queued")


def test_an_uploaded_typo_is_shown_whole_and_its_board_is_not(page, tmp_path):
    open_level(page, "octopus.ron")
    typo = tmp_path / "neighbourhood.ron"
    typo.write_text(TYPO)
    before = page.evaluate("window.playground.seq")
    page.set_input_files("#upload", str(typo))
    page.wait_for_function(f"document.body.dataset.error > {before}")
    error = page.locator("#error")
    expect(error).to_contain_text("unknown field `neighbourhood` in Grid; did you mean `neighborhood`?")
    expect(error).to_contain_text("neighbourhood.ron:3:35")
    sizes = page.evaluate("[...document.querySelectorAll('#error, #error .message')].map((e) => [e.scrollWidth, e.clientWidth])")
    assert len(sizes) == 2 and all(wide <= room for wide, room in sizes), sizes
    # The source line keeps its caret under column 35, in a strip that scrolls to it.
    expect(page.locator("#error .snippet")).to_contain_text("3 |     graph: Grid(rows: 3, cols: 3, neighbourhood: King),")
    # The octopus's board is gone: this file has none, and the page says so.
    assert page.evaluate("window.playground.board") is None
    assert page.evaluate("document.getElementById('board').width") == 0
    expect(page.locator("#board-note")).to_contain_text("No board: neighbourhood.ron does not read")
    expect(page.locator("#doc-name")).to_have_text("neighbourhood.ron")
    expect(page.locator("#status")).to_have_text("error at line 3, column 35")
    shot(page, "studio-error")


def test_an_edit_that_breaks_the_text_marks_the_board_as_the_last_valid_one(page):
    open_level(page, "octopus.ron")
    text = page.input_value("#source")
    before = page.evaluate("window.playground.seq")
    page.fill("#source", text.replace("modulus:", "modulos:"))
    page.wait_for_function(f"document.body.dataset.error > {before}")
    expect(page.locator("#error")).to_contain_text("did you mean `modulus`?")
    expect(page.locator("#board-note")).to_contain_text("Last valid board, not this text's")
    assert page.evaluate("document.body.classList.contains('stale')")
    # The stale board takes no edits (an edit would send the last valid text back).
    seq = page.evaluate("window.playground.seq")
    click_cell(page, 0)
    page.wait_for_timeout(300)
    assert page.evaluate("window.playground.seq") == seq
    assert "modulos:" in page.input_value("#source")
    shot(page, "studio-stale")


def generate(page, count, low, high, scramble=None):
    page.click("#modes button[data-mode=generate]")
    page.fill("#spec input[name=count]", str(count))
    page.fill("#spec input[name=par_low]", str(low))
    page.fill("#spec input[name=par_high]", str(high))
    page.fill("#spec input[name=scramble]", "" if scramble is None else str(scramble))
    page.evaluate("delete document.body.dataset.generated; delete document.body.dataset.histogram")
    page.click("#spec button[type=submit]")
    page.wait_for_selector("body[data-generated]", timeout=60000)
    page.wait_for_selector("body[data-histogram]", timeout=60000)


def test_a_rare_spec_gets_the_command_lines_advice(page, tmp_path):
    create(page, "grid", fields={"rows": "6", "cols": "6", "modulus": "3"})
    generate(page, 5, 6, 10)
    advice = page.locator("#gen-advice")
    expect(advice).to_be_visible()
    expect(page.locator("#levels .level")).to_have_count(0)
    # The same words as `modsolve generate` with the same spec.
    path = tmp_path / "grid.ron"
    path.write_text(page.input_value("#source"))
    cli = subprocess.run(
        [BIN, "generate", str(path), "--count", "5", "--par", "6..10", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 1
    words = cli.stdout.strip().splitlines()[-1]
    assert "--scramble 10" in words, words
    # The page names the form's fields where the command line names its flags.
    words = words.replace("--", "")
    text = advice.inner_text()
    assert text.startswith(words), (text, words)
    assert "Random solvable starts of this template have par" in text
    shot(page, "studio-generate-advice")


def test_an_impossible_spec_is_refused_with_the_command_lines_reason(page, tmp_path):
    open_level(page, "lightsout-3x3.ron")
    generate(page, 2, 100, 200)
    advice = page.locator("#gen-advice")
    path = tmp_path / "three.ron"
    path.write_text(page.input_value("#source"))
    cli = subprocess.run(
        [BIN, "generate", str(path), "--count", "2", "--par", "100..200", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 2
    # The library's reason in both; the command line adds the flag that sets it.
    reason = cli.stderr.strip().removeprefix("error: ").removesuffix(" (set by --par)")
    assert reason.startswith("the par range 100..200 cannot be met"), reason
    expect(advice).to_contain_text(reason)
    expect(page.locator("#gen-status")).to_have_text("refused")


def test_the_scramble_field_makes_levels_of_the_par_asked_for(page):
    create(page, "grid", fields={"rows": "6", "cols": "6", "modulus": "3"})
    generate(page, 5, 6, 10, scramble=10)
    expect(page.locator("#levels .level")).to_have_count(5)
    pars = page.evaluate("window.playground.levels.map((l) => l.par)")
    assert len(pars) == 5 and all(6 <= p <= 10 for p in pars), pars
    assert page.evaluate("window.playground.levels.every((l) => l.scramble && l.scramble.length === 36)")
    expect(page.locator("#gen-advice")).to_be_hidden()
    expect(page.locator("#gen-status")).to_contain_text("5 of 5 levels from")
    shot(page, "studio-generate-scramble")


def before_unload_prevented(page):
    return page.evaluate("(() => { const e = new Event('beforeunload', { cancelable: true }); window.dispatchEvent(e); return e.defaultPrevented; })()")


def test_save_as_moves_the_header_and_clears_the_unsaved_mark(page, folder):
    create(page, "grid", fields={"rows": "6", "cols": "6", "modulus": "2"})
    expect(page.locator("#doc-name")).to_have_text("grid-6x6.ron")
    expect(page.locator("#dirty")).to_be_hidden()
    assert not before_unload_prevented(page)
    before = page.evaluate("window.playground.seq")
    click_cell(page, 7)
    analysed(page, before)
    expect(page.locator("#dirty")).to_be_visible()
    expect(page.locator("#dirty")).to_have_text(" •")
    assert before_unload_prevented(page)
    shot(page, "studio-unsaved")
    page.fill("#save-name", "my-level.ron")
    page.click("#save")
    expect(page.locator("#status")).to_have_text("saved my-level.ron")
    expect(page.locator("#doc-name")).to_have_text("my-level.ron")
    expect(page.locator("#file-name")).to_have_text("my-level.ron")
    expect(page.locator("#dirty")).to_be_hidden()
    assert not before_unload_prevented(page)
    assert (folder / "my-level.ron").read_text() == page.input_value("#source")
    expect(page.locator("#files li.open")).to_have_attribute("data-file", "my-level.ron")
    shot(page, "studio-saved")
    # The save message belongs to Edit: Play starts with a clean status line.
    page.click("#modes button[data-mode=play]")
    expect(page.locator("#status")).to_have_text("")


@pytest.mark.parametrize("width,height", [(1400, 900), (1000, 800)])
def test_the_layout_holds_with_200_files(browser, crowded_server, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(crowded_server)
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#files li")).to_have_count(200)
    expect(page.locator("#file-count")).to_have_text("(200)")
    box = lambda selector: page.locator(selector).bounding_box()
    # The File section is on screen; the page itself does not scroll, the list does.
    files = box("#file-section")
    assert files["y"] >= 0 and files["y"] + files["height"] <= height, files
    side = box("#side")
    for control in ("#save", "#download", "label.file-button", "#overwrite"):
        b = box(control)
        assert b["y"] + b["height"] <= height and b["x"] + b["width"] <= side["x"] + side["width"], (control, b, side)
    sizes = page.evaluate("[document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]")
    assert sizes[0] <= height and sizes[1] <= width, sizes
    lists = page.evaluate("(() => { const l = document.getElementById('files'); return [l.scrollHeight, l.clientHeight]; })()")
    assert lists[0] > lists[1] > 100, lists
    # The toolbar is one line: every tool's label on the row of the first.
    tops = page.evaluate("[...document.querySelectorAll('#edit-tools > label:not([hidden])')].map((l) => Math.round(l.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops
    toolbar = page.evaluate("(() => { const t = document.getElementById('toolbar'); return [t.scrollWidth, t.clientWidth]; })()")
    assert toolbar[0] <= toolbar[1], toolbar
    # The header is one line too, and the RON box ends inside the window.
    assert box("header")["height"] <= 46
    source = box("#source")
    assert source["x"] + source["width"] <= width, source
    # The last file is reachable by scrolling the list.
    page.locator("#files li[data-file='level-0200.ron']").scroll_into_view_if_needed()
    expect(page.locator("#files li[data-file='level-0200.ron']")).to_be_in_viewport()
    shot(page, f"studio-200-files-{width}x{height}")
    page.close()


def test_play_is_a_players_view(page):
    open_level(page, "octopus.ron")
    page.wait_for_selector("body[data-checked]")
    page.click("#modes button[data-mode=play]")
    for hidden in ("dd[data-fact='par']", "dd[data-fact='plans']", "#findings", "#source", "#generate", "#template", "#file-section", "#analysis"):
        expect(page.locator(hidden)).to_be_hidden()
    for shown in ("#board", "#moves", "#undo", "#reset", "#hint", "#files"):
        expect(page.locator(shown)).to_be_visible()
    # The par shows from the start (issue 43: players see the goal).
    expect(page.locator("#play-par")).to_have_text("par 18")
    plan = page.evaluate("window.playground.solve.fewest.presses")
    moves = 0
    for cell, count in enumerate(plan):
        for _ in range(count):
            click_cell(page, cell)
            moves += 1
            page.wait_for_selector(f"body[data-moves='{moves}']")
    expect(page.locator("#win")).to_have_text("Solved in 18 moves (par 18 — perfect!)")
    shot(page, "studio-play")
    page.click("#modes button[data-mode=edit]")
    for shown in ("dd[data-fact='par']", "#source", "#template", "#file-section"):
        expect(page.locator(shown)).to_be_visible()


def test_opening_another_file_with_unsaved_edits_asks_first(browser, server):
    # A page of its own: the shared fixture answers every question with yes.
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    asked, answer = [], {"yes": False}

    def on_dialog(dialog):
        asked.append(dialog.message)
        if answer["yes"]:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    open_level(page, "octopus.ron")
    assert asked == [], "nothing unsaved: no question"
    before = page.evaluate("window.playground.seq")
    click_cell(page, 0)
    analysed(page, before)
    expect(page.locator("#dirty")).to_be_visible()
    # No: the edits stay, and so does the file.
    page.click("#files li[data-file='sunflowers.ron']")
    expect(page.locator("#doc-name")).to_have_text("octopus.ron")
    expect(page.locator("#dirty")).to_be_visible()
    assert asked == ["octopus.ron has unsaved edits. Open sunflowers.ron and lose them?"], asked
    # Yes: the other file opens, with nothing unsaved.
    answer["yes"] = True
    open_level(page, "sunflowers.ron")
    expect(page.locator("#doc-name")).to_have_text("sunflowers.ron")
    expect(page.locator("#dirty")).to_be_hidden()
    assert len(asked) == 2, asked
    page.close()


def test_thirty_fast_edits_during_analyses_are_all_saved(page, folder):
    """No edit is lost: 30 clicks 30 ms apart on a new 6×6 mod 3 grid, switching between start,
    target and modulus while analyses run, then Save at once.
    The file on disk, the text box and the board on screen all equal the 30 edits applied by
    hand."""
    create(page, "grid", fields={"rows": "6", "cols": "6", "modulus": "3"})
    board = page.evaluate("window.playground.board")
    moduli, start, target = list(board["moduli"]), list(board["start"]), list(board["target"])
    assert moduli == [3] * 36

    edits = []
    for k in range(30):
        field = ["start", "target", "moduli"][k % 3] if k % 4 else "start"
        cell = (k * 7) % 36
        edits.append((field, cell))

    def apply(field, cell):
        if field == "moduli":
            moduli[cell] = 2 if moduli[cell] >= 9 else moduli[cell] + 1
            start[cell] %= moduli[cell]
            target[cell] %= moduli[cell]
        else:
            values = start if field == "start" else target
            values[cell] = (values[cell] + 1) % moduli[cell]

    analyses_before = int(page.evaluate("document.body.dataset.analysed"))
    for field, cell in edits:
        page.check(f"input[name=field][value={field}]")
        click_cell(page, cell)
        apply(field, cell)
        page.wait_for_timeout(30)
    # Analyses ran while the clicks came (the edits did not wait for a quiet board).
    assert int(page.evaluate("document.body.dataset.analysed")) > analyses_before
    page.fill("#save-name", "thirty-edits.ron")
    page.click("#save")
    expect(page.locator("#status")).to_have_text("saved thirty-edits.ron", timeout=60000)
    on_disk = (folder / "thirty-edits.ron").read_text()
    assert on_disk == page.input_value("#source")
    # The saved text, read again by the server, has exactly the 30 edits.
    read = page.evaluate(
        """async (source) => {
            const response = await fetch('/api/analyse', {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-modsolve-token': sessionStorage.getItem('modsolve-token') },
                body: JSON.stringify({ source, file: 'thirty-edits.ron' }),
            });
            return (await response.json()).board;
        }""",
        on_disk,
    )
    cells = lambda v: v if isinstance(v, list) else [v] * 36  # noqa: E731
    assert [cells(read["moduli"]), cells(read["start"]), cells(read["target"])] == [moduli, start, target]
    shown = page.evaluate("window.playground.board")
    assert [shown["moduli"], shown["start"], shown["target"]] == [moduli, start, target]
    expect(page.locator("#dirty")).to_be_hidden()
    shot(page, "studio-thirty-edits")


def test_undo_typing_and_clicks_during_analyses_keep_their_order(page, folder):
    """Clicks, Ctrl-Z, typing in the text box and a click while the typing is being analysed:
    each is applied in the order made, and the typing keeps the clicks answered under it."""
    open_level(page, "octopus.ron")
    page.check("input[name=field][value=start]")
    for cell in (0, 1, 2):
        click_cell(page, cell)
        page.wait_for_timeout(20)
    page.locator("#board").focus()
    page.keyboard.press("Control+z")  # takes back what had been answered before it
    click_cell(page, 3)
    # Typing a comment at the top of the text while the clicks are still being analysed.
    page.click("#source")
    page.evaluate("document.getElementById('source').setSelectionRange(0, 0)")
    page.keyboard.type("// typed while analysing\n")
    click_cell(page, 3)
    page.wait_for_function("document.body.dataset.settled === '1'", timeout=30000)
    source = page.input_value("#source")
    assert source.startswith("// typed while analysing\n"), source
    # The octopus starts at [2, 4, 5, 3] (moduli 7, 8, 7, 6); cell 3 was clicked twice after
    # the undo, whatever the undo took back of cells 0..2.
    shown = page.evaluate("window.playground.board.start")
    assert shown[3] == 5, shown
    assert f"start: [{', '.join(map(str, shown))}]" in source, source
    page.fill("#save-name", "typed-octopus.ron")
    page.click("#save")
    expect(page.locator("#status")).to_have_text("saved typed-octopus.ron", timeout=30000)
    assert (folder / "typed-octopus.ron").read_text() == source
