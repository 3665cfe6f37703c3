"""The board drawn from layout cells: one plain-text snapshot per registered game,
so a layout regression shows as a readable diff. Regenerate the files with
``PASYANS_UPDATE_SNAPSHOTS=1 pytest tests/client/test_board.py``."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from client.drawing import (
    COLUMN_GAP,
    DENSITIES,
    FULL,
    NARROW,
    Drawing,
    Marks,
    draw,
    draw_with,
    header,
    redrawn,
    short_header,
)
from client.text import state_text
from server.patience import registry

from .views import engine_state, titles

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = bool(os.environ.get("PASYANS_UPDATE_SNAPSHOTS"))


@pytest.mark.parametrize("slug", registry.slugs())
def test_snapshot_of_deal_0(slug: str) -> None:
    text = state_text(engine_state(slug, 0), titles()) + "\n"
    path = SNAPSHOTS / f"{slug}.txt"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.skip(f"wrote the first snapshot of {slug}: check it in")
    assert text == path.read_text(encoding="utf-8")


def check_drawing(piles: Sequence[Mapping[str, Any]], drawing: Drawing) -> None:
    """Every pile is drawn, titled with its whole id, hittable by its title and each
    of its cards, inside the drawing, and no two piles overlap."""
    assert set(drawing.boxes) == {p["id"] for p in piles}
    for pile in piles:
        pid = pile["id"]
        box = drawing.boxes[pid]
        assert "".join(ch for ch, _ in drawing.cells[box.y][box.x : box.x + len(pid)]) == pid
        assert drawing.hit(box.x, box.y) == (pid, None)
        for index, x, y, w in box.cards:
            assert drawing.hit(x, y) == (pid, index)
            assert x >= 0 and x + w <= drawing.width and y < drawing.height, (pid, index)
    boxes = list(drawing.boxes.values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = a.x < b.x + b.width and b.x < a.x + a.width
            overlap_y = a.y < b.y + b.height and b.y < a.y + a.height
            assert not (overlap_x and overlap_y), (a.pid, b.pid)


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_pile_is_drawn_and_hittable(slug: str) -> None:
    piles = engine_state(slug, 1)["view"]["piles"]
    check_drawing(piles, draw(piles))
    for density in DENSITIES:
        check_drawing(piles, draw_with(piles, Marks(), density, width=60))


#: the board's room in a 100-column terminal, less its padding and a vertical scrollbar
ROOM_100 = 96


def played(slug: str, seed: int, moves: int) -> Iterator[list[dict[str, Any]]]:
    """The piles of every 10th position of ``moves`` random legal moves from ``seed``."""
    game = registry.get(slug)
    rnd = random.Random(seed)
    state = game.deal(seed)
    for n in range(moves):
        if n % 10 == 0:
            yield game.view(state)["piles"]
        legal = game.legal_moves(state)
        if game.status(state) != "playing" or not legal:
            yield game.view(state)["piles"]
            return
        state = game.apply(state, rnd.choice(legal))


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_game_fits_100_columns_as_it_is_played(slug: str) -> None:
    """Piles grow as a game goes on (fanned rows, counts, spread cards): the board
    still fits the room of a 100-column terminal without cutting anything off."""
    for seed in (1, 2):
        for piles in played(slug, seed, 200):
            drawing = draw(piles, width=ROOM_100)
            assert drawing.width <= ROOM_100, (slug, seed, drawing.density, drawing.plain())
            check_drawing(piles, drawing)


def test_the_full_drawing_when_there_is_room() -> None:
    for slug in registry.slugs():
        piles = engine_state(slug, 0)["view"]["piles"]
        full = draw(piles)
        assert full.density == FULL and not full.cut
        wide = draw(piles, width=full.width)
        assert wide.plain() == full.plain() and wide.density == FULL
        tight = draw(piles, width=full.width - 1)
        assert tight.density != FULL and tight.width <= full.width - 1


def test_a_title_says_the_pile_id_once() -> None:
    """The Hemispheres' piles are labelled ``P2 NW``: titled ``P2 NW``, not ``P2 P2 NW``."""
    assert header({"id": "P2", "label": "P2 NW"}) == "P2 NW"
    assert header({"id": "S", "label": "S"}) == "S"
    assert header({"id": "P1", "label": "P10 SW"}) == "P1 P10 SW"  # another id stays
    for slug in registry.slugs():
        for pile in engine_state(slug, 0)["view"]["piles"]:
            pid = str(pile["id"])
            assert not header(pile).startswith(f"{pid} {pid} "), (slug, header(pile))


def test_titles_are_cut_by_whole_words() -> None:
    pile = {"id": "F1", "label": "K→A", "base": "KS", "orient": "h"}
    assert header(pile) == "F1 K→A base K♠↔"
    assert short_header(pile, 20) == "F1 K→A base K♠↔"
    assert short_header(pile, 14) == "F1 K→A↔"  # shorter by design, never cut with …
    assert short_header(pile, 7) == "F1 K→A↔"
    # tighter: the direction by its end, so F1 →A and F5 →K still differ
    assert short_header(pile, 6) == "F1 →A↔"
    assert short_header(pile, 5) == "F1→A↔"
    assert short_header(pile, 4) == "F1↔"
    assert short_header(pile, 0) == "F1↔"  # the id always stays
    # a foundation's direction by its arrow: FA-S↑ and FK-S↓ still differ
    assert short_header({"id": "FA-S", "label": "A↑"}, 6) == "FA-S ↑"
    assert short_header({"id": "FA-S", "label": "A↑"}, 5) == "FA-S↑"
    assert short_header({"id": "FK-S", "label": "K↓"}, 5) == "FK-S↓"


def test_a_narrow_board_shares_out_the_room() -> None:
    """The travellers' thirteen squared piles in a 100-column terminal: one space
    between columns, titles cut alike (the foundations keep their direction), the
    last pile of a row keeps its whole title, the cut ones are listed in full."""
    piles = engine_state("travellers", 0)["view"]["piles"]
    drawing = draw(piles, width=ROOM_100)
    assert drawing.density == NARROW
    lines = drawing.plain().splitlines()
    assert lines[0].split() == [
        "T", "travellers",
        *[w for k in range(1, 5) for w in (f"F{k}", "A→K")],
        *[w for k in range(5, 8) for w in (f"F{k}", "K→A")],
        "F8", "K→A", "base", "K♣",
    ]  # fmt: skip
    assert drawing.cut["F5"] == "F5 K→A base K♠" and "F8" not in drawing.cut
    assert lines[4].startswith("10♣ ×7  9♠ ×7  9♥ ×7  6♦ ×7")


def test_a_pile_alone_on_its_row_runs_on() -> None:
    """Cotillion's kings' reserve fans out alone on its row: it does not widen the
    first column (as it did, pushing the thirteen piles above it along); the
    travellers' title on the first row does."""
    piles = engine_state("cotillion", 0)["view"]["piles"]
    drawing = draw(piles)
    reserve, p1, p2 = (drawing.boxes[p] for p in ("R", "P1", "P2"))
    assert p2.x - p1.x == len("T travellers") + COLUMN_GAP
    assert reserve.x == p1.x and reserve.width > p2.x


def test_faces_and_backs() -> None:
    piles = [
        {
            "id": "S",
            "kind": "stock",
            "label": "",
            "cards": [None, None],
            "x": 0,
            "y": 0,
            "fan": "none",
        },
        {
            "id": "T1",
            "kind": "tableau",
            "label": "",
            "cards": [None, "TD", "QS"],
            "x": 1,
            "y": 0,
            "fan": "down",
        },
        {
            "id": "X",
            "kind": "waste",
            "label": "waste",
            "cards": ["AH", "2C"],
            "x": 2,
            "y": 0,
            "fan": "right",
        },
        {
            "id": "F1",
            "kind": "foundation",
            "label": "",
            "cards": [],
            "x": 0,
            "y": 1,
            "fan": "none",
            "base": "7",
            "orient": "h",
        },
    ]
    text = draw(piles).plain()
    assert text.splitlines() == [  # F1, alone on its row, does not widen the first column
        "S       T1   X waste",
        "▒▒▒ ×2  ▒▒▒   A♥  2♣",
        "        10♦",
        "         Q♠",
        "",
        "F1 base 7↔",
        "  ·",
    ]


def test_marks_style_the_piles() -> None:
    piles = engine_state(registry.slugs()[0], 0)["view"]["piles"]
    a, b = piles[0]["id"], piles[1]["id"]
    rich = draw(piles, Marks(source=a, targets=frozenset({b}))).rich()
    styles = {str(span.style) for span in rich.spans}
    assert "bold reverse yellow" in styles
    assert "bold black on green" in styles
    assert rich.plain == draw(piles).rich().plain


@pytest.mark.parametrize("slug", registry.slugs())
def test_marks_change_no_size(slug: str) -> None:
    """A board whose marks changed (the cursor, a source and its targets) is drawn in
    the density chosen without them (``redrawn``: the board screen draws once, not once
    a density): what ``draw`` chooses with the marks is the same drawing."""
    state = engine_state(slug, 0)
    piles = state["view"]["piles"]
    ids = [str(p["id"]) for p in piles]
    move = next((m for m in state["legal"] if "from" in m), None)
    marks = Marks(cursor=ids[-1], sources=frozenset(ids[:3]))
    if move is not None:  # every mark at once: a source, its targets, the cursor
        source = str(move["from"])
        targets = frozenset(str(m["to"]) for m in state["legal"] if m.get("from") == source)
        marks = Marks(source=source, targets=targets, sources=frozenset(ids), cursor=ids[-1])
    for width, height in ((100, 40), (78, 17)):  # a roomy board is the full drawing
        plain = draw(piles, width=width, height=height)
        assert redrawn(plain, piles, marks) == draw(piles, marks, width=width, height=height)


def test_the_chosen_card_is_marked() -> None:
    piles = [
        {
            "id": "R",
            "kind": "reserve",
            "label": "",
            "cards": ["AH", "2C", "3D"],
            "x": 0,
            "y": 0,
            "fan": "down",
        },
    ]

    def styles(marks: Marks) -> list[str]:
        drawing = draw(piles, marks)
        return [drawing.cells[1 + i][1][1] for i in range(3)]

    assert ["reverse" in s for s in styles(Marks(source="R"))] == [False, False, True]
    assert ["reverse" in s for s in styles(Marks(source="R", card=0))] == [True, False, False]
    assert not any("reverse" in s for s in styles(Marks()))


def test_the_board_clock_stops_while_nobody_plays() -> None:
    """The board runs the server's time on between replies, but a pause counts at most
    the server's idle gap: the clock of a board left alone stops, as the server's."""
    from client.screens.board import IDLE_GAP_MS, BoardScreen

    now = 1_000.0
    board = BoardScreen({"status": "playing", "time_ms": 5_000})
    board.monotonic = lambda: now  # the board's steady clock, moved by the test
    board.received = now
    assert board.elapsed_ms() == 5_000  # the server's time, just received
    now += 3600  # an hour since the last reply
    assert board.elapsed_ms() == 5_000 + IDLE_GAP_MS
    now = board.received + 2  # two seconds since
    assert board.elapsed_ms() == 7_000
    board.state = {"status": "won", "time_ms": 7_100}
    now += 3600
    assert board.elapsed_ms() == 7_100  # over: the clock shows the server's time


def test_the_board_clock_runs_on_only_what_the_pause_leaves() -> None:
    """A state read a while after the last move (a resume) counts that pause already:
    the board runs on only what is left of the idle gap (``idle_left_ms``), so it shows
    what the next move will count, not that pause twice."""
    from client.screens.board import BoardScreen

    now = 1_000.0
    board = BoardScreen({"status": "playing", "time_ms": 45_000, "idle_left_ms": 20_000})
    board.monotonic = lambda: now
    board.received = now
    now += 10
    assert board.elapsed_ms() == 55_000
    now += 3600
    assert board.elapsed_ms() == 65_000  # 40 s of pause before, 20 s now: the gap


def test_alike_piles_of_a_row_are_titled_alike() -> None:
    """A narrow board shortens the titles of alike piles of a row (the same words but
    their ids) alike: The Fifteen at 78 columns read ``FA-S ↑ … FA-C A↑`` (issue 47)."""
    for slug in registry.slugs():
        piles = engine_state(slug, 0)["view"]["piles"]
        for width in (78, ROOM_100):
            drawing = draw(piles, width=width)
            shown: dict[tuple[int, str], set[str]] = {}
            for pile in piles:
                pid, box = str(pile["id"]), drawing.boxes[str(pile["id"])]
                ends = [b.x for b in drawing.boxes.values() if b.y == box.y and b.x > box.x]
                cells = drawing.cells[box.y][box.x : min(ends, default=drawing.width)]
                title = "".join(ch for ch, _ in cells).split("  ")[0].strip()
                words = header(pile)[len(pid) :]  # its words and orientation mark
                shown.setdefault((box.y, words), set()).add(title[len(pid) :])
            differ = {k: v for k, v in shown.items() if len(v) > 1}
            assert not differ, (slug, width, differ, drawing.plain())
