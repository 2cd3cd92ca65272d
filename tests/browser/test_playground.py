"""The playground in real headless Chromium: `modsolve serve` on a scratch copy of puzzles/,
driven by Playwright the way a designer uses it. Each journey saves a screenshot; the page load
and edit-to-analysis figures are measured and printed.

Run with `bash .ci/browser` (which installs Chromium and Playwright and builds the binary), or
directly with MODSOLVE_BIN, MODSOLVE_CHROMIUM and MODSOLVE_SCREENSHOTS set.
"""

import statistics
import subprocess

from conftest import BIN, ROOT, click_cell, open_level, shot
from playwright.sync_api import expect


def test_load_to_interactive_board(browser, server):
    figures = []
    for _ in range(5):
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server)
        page.wait_for_selector("body[data-ready='1']")
        figures.append(page.evaluate("window.playground.timings.interactive"))
        page.close()
    median = statistics.median(figures)
    print(f"\nFIGURE page load to interactive board: median {median:.0f} ms over 5 loads (all: {', '.join(f'{f:.0f}' for f in figures)})")
    assert median < 1000


def test_octopus_shows_par_18(page):
    open_level(page, "octopus.ron")
    expect(page.locator("dd[data-fact='par']")).to_have_text("18 (proven)")
    # no-simple-strategy is a note: the octopus passes with no warning badge.
    expect(page.locator("#files li[data-file='octopus.ron'] .verdict")).to_have_text("pass")
    page.wait_for_selector("body[data-checked]")
    expect(page.locator("#findings")).to_contain_text("no-simple-strategy")
    shot(page, "octopus")


def test_an_edit_changes_the_analysis(page):
    open_level(page, "octopus.ron")
    before = page.evaluate("window.playground.seq")
    click_cell(page, 0)  # start of tentacle 1: 2 -> 3
    page.wait_for_function(f"document.body.dataset.analysed > {before}")
    assert page.evaluate("window.playground.board.start") == [3, 4, 5, 3]
    expect(page.locator("dd[data-fact='par']")).not_to_have_text("18 (proven)")
    assert "start: [3, 4, 5, 3]" in page.input_value("#source")
    shot(page, "edit")


def test_an_edit_keeps_values_past_2_53_exact(page):
    open_level(page, "big-moduli.ron")
    before = page.evaluate("window.playground.seq")
    click_cell(page, 0)  # 9007199254740995 -> 9007199254740996; the others unchanged
    page.wait_for_function(f"document.body.dataset.analysed > {before}")
    assert "start: [9007199254740996, 3, 4611686018427387845]" in page.input_value("#source")
    click_cell(page, 0)  # 9007199254740996 -> 0 (mod 9007199254740997)
    page.wait_for_function(f"document.body.dataset.analysed > {before + 1}")
    assert "start: [0, 3, 4611686018427387845]" in page.input_value("#source")


def test_edit_of_a_20x20_board_to_its_analysis(page):
    page.fill("#template input[name=rows]", "20")
    page.fill("#template input[name=cols]", "20")
    before = page.evaluate("window.playground.seq")
    page.click("#template button[type=submit]")
    page.wait_for_function(f"document.body.dataset.analysed > {before}")
    figures = []
    for k in range(12):
        before = page.evaluate("window.playground.seq")
        click_cell(page, 21 * k)
        page.wait_for_function(f"document.body.dataset.analysed > {before}")
        figures.append(page.evaluate("window.playground.lastAnalysisMs"))
    median = statistics.median(figures[2:])
    print(f"\nFIGURE 20x20 edit to new analysis: median {median:.1f} ms over 10 edits (all: {', '.join(f'{f:.0f}' for f in figures)})")
    shot(page, "board-20x20")
    assert median < 50


def test_play_the_fewest_plan_and_win(page):
    open_level(page, "octopus.ron")
    plan = page.evaluate("window.playground.solve.fewest.presses")
    assert plan == [1, 3, 13, 1]
    page.click("#modes button[data-mode=play]")
    moves = 0
    for cell, count in enumerate(plan):
        for _ in range(count):
            click_cell(page, cell)
            moves += 1
            page.wait_for_selector(f"body[data-moves='{moves}']")
    expect(page.locator("#win")).to_be_visible()
    expect(page.locator("#win")).to_contain_text("in 18 moves (par 18")
    shot(page, "win")


def test_a_hint_marks_a_press_of_a_fewest_plan(page):
    open_level(page, "octopus.ron")
    page.click("#modes button[data-mode=play]")
    click_cell(page, 0)
    page.wait_for_selector("body[data-moves='1']")
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("press tentacle")
    expect(page.locator("#hint-text")).to_contain_text("17 to go")
    assert page.evaluate("window.playground.hint") in [0, 1, 2, 3]
    shot(page, "hint")


def test_generate_five_levels_and_save_them(page, folder):
    open_level(page, "lightsout-3x3.ron")
    page.click("#modes button[data-mode=generate]")
    page.fill("#spec input[name=count]", "5")
    page.fill("#spec input[name=par_low]", "3")
    page.fill("#spec input[name=par_high]", "6")
    page.click("#spec button[type=submit]")
    page.wait_for_selector("body[data-generated='5']")
    expect(page.locator("#levels .level")).to_have_count(5)
    page.wait_for_selector("body[data-histogram]")
    page.fill("#level-prefix", "made")
    page.click("#save-levels")
    page.wait_for_selector("body[data-saved='5']")
    for k in range(1, 6):
        assert (folder / f"made-{k:04}.ron").exists()
    expect(page.locator("#files li[data-file='made-0001.ron']")).to_have_count(1)
    shot(page, "generate")


def test_a_file_with_an_error_shows_its_line(page):
    before = page.evaluate("window.playground.seq")
    page.click("#files li[data-file='broken.ron']")
    page.wait_for_function(f"document.body.dataset.error >= {before + 1}")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("broken.ron:5:16")
    expect(error).to_contain_text("5 |     start: [1, 2, 0],")
    assert page.get_attribute("#error", "data-line") == "5"
    expect(page.locator("#files li[data-file='broken.ron'] .verdict")).to_have_text("fail")
    # The board of the file shown before is not left on screen as if it were this file's.
    assert page.evaluate("window.playground.board") is None
    assert page.evaluate("document.getElementById('board').width") == 0
    shot(page, "error")


def test_an_error_is_shown_whole_with_its_advice(page):
    before = page.evaluate("window.playground.seq")
    page.click("#files li[data-file='typo.ron']")
    page.wait_for_function(f"document.body.dataset.error >= {before + 1}")
    error = page.locator("#error")
    expect(error).to_contain_text("did you mean `neighborhood`?")
    expect(error).to_contain_text("typo.ron:3:")
    # Wrapped, not cut off: nothing of it is past the box's edge.
    overflow = page.evaluate("(() => { const e = document.getElementById('error'); return e.scrollWidth - e.clientWidth; })()")
    assert overflow <= 0, overflow
    shot(page, "error-advice")


def test_a_1000x1000_board_is_drawn_soon_after_its_solve(page):
    page.fill("#template input[name=rows]", "1000")
    page.fill("#template input[name=cols]", "1000")
    before = page.evaluate("window.playground.seq")
    page.click("#template button[type=submit]")
    page.wait_for_function(f"document.body.dataset.analysed > {before}", timeout=60000)
    figures = page.evaluate("window.playground.bigTimings")
    print(f"\nFIGURE 1000x1000 board: solve answered in {figures['answer']:.0f} ms, drawn {figures['drawn']:.0f} ms after the answer arrived")
    assert page.evaluate("window.playground.board.cells") == 1_000_000
    shot(page, "board-1000x1000")
    assert figures["drawn"] < 2000


def test_the_token_guards_the_api_and_leaves_the_address_bar(browser, server):
    # The printed URL carries the token; the page keeps it for the tab and drops it from the URL.
    assert "?token=" in server
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    assert "token" not in page.url, page.url
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.close()
    # Without the token the API refuses, and the page says how to open it.
    bare = browser.new_page(viewport={"width": 1400, "height": 900})
    bare.goto(server.split("?")[0])
    bare.wait_for_selector("body[data-ready='refused']")
    expect(bare.locator("#status")).to_contain_text("needs the token")
    shot(bare, "no-token")
    bare.close()


def test_an_unproven_par_shows_its_lower_bound(browser, tmp_path):
    # A 7x7 grid with a random modulus per cell: its par is not proven within a short budget,
    # and the page says the proven lower bound beside it.
    subprocess.run(
        ["python3", str(ROOT / "benches" / "reference" / "mixed.py"), "grid", "7", "2", "1", str(tmp_path / "mixed-7x7.ron")],
        check=True,
    )
    process = subprocess.Popen(
        [BIN, "serve", str(tmp_path), "--port", "0", "--budget", "300ms"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        url = process.stdout.readline().strip()
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url + "&file=mixed-7x7.ron")
        page.wait_for_selector("body[data-ready='1']")
        par = page.locator("dd[data-fact='par']")
        expect(par).to_contain_text("not proven")
        expect(par).to_contain_text("at least")
        # Long facts (a 50-digit plan count, the bound) wrap inside the panel, not past its edge.
        overflow = page.evaluate("(() => { const f = document.getElementById('facts'); return f.scrollWidth - f.clientWidth; })()")
        assert overflow <= 0, overflow
        shot(page, "par-lower-bound")
        page.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
