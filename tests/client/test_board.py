"""The board drawn from layout cells: one plain-text snapshot per registered game,
so a layout regression shows as a readable diff. Regenerate the files with
``PASYANS_UPDATE_SNAPSHOTS=1 pytest tests/client/test_board.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from client.board import Marks, draw
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


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_pile_is_drawn_and_hittable(slug: str) -> None:
    state = engine_state(slug, 1)
    piles = state["view"]["piles"]
    drawing = draw(piles)
    assert set(drawing.boxes) == {p["id"] for p in piles}
    for pile in piles:
        box = drawing.boxes[pile["id"]]
        assert drawing.hit(box.x, box.y) == (pile["id"], None)
        for index, x, y, _ in box.cards:
            assert drawing.hit(x, y) == (pile["id"], index)
    # no two piles overlap
    boxes = list(drawing.boxes.values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = a.x < b.x + b.width and b.x < a.x + a.width
            overlap_y = a.y < b.y + b.height and b.y < a.y + a.height
            assert not (overlap_x and overlap_y), (a.pid, b.pid)


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
    assert text.splitlines() == [
        "S           T1   X waste",
        "▒▒▒ ×2      ▒▒▒   A♥  2♣",
        "            10♦",
        "             Q♠",
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
