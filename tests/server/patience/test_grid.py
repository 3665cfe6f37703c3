"""The carpet geometry of seed 003 (server/patience/grid.py): cell ids, orientation by
parity, and which cards are free under the `adjacent` rule (and `line_of_sight`)."""

from __future__ import annotations

import random

import pytest

from server.patience import grid
from server.patience.grid import CELLS, INITIALLY_FREE, cell_id, free, free_cells, orient

FULL = "X"
GAP = ""


def carpet(picture: str) -> list[str]:
    """64 cells from eight lines of eight characters: ``#`` a card, ``.`` a gap."""
    rows = picture.split()
    assert len(rows) == 8 and all(len(r) == 8 for r in rows)
    return [FULL if ch == "#" else GAP for row in rows for ch in row]


def free_set(cells: list[str], rule: grid.Rule = "adjacent") -> set[str]:
    return {CELLS[i] for i in free_cells(cells, rule=rule)}


def test_cell_ids_are_row_then_column_from_the_top_left() -> None:
    assert CELLS[0] == "G00" and CELLS[7] == "G07" and CELLS[8] == "G10" and CELLS[63] == "G77"
    assert cell_id(3, 5) == "G35" and len(set(CELLS)) == 64


def test_orientation_is_upright_where_row_plus_column_is_even() -> None:
    assert [orient(0, c) for c in range(4)] == ["v", "h", "v", "h"]
    assert [orient(1, c) for c in range(4)] == ["h", "v", "h", "v"]
    assert orient(7, 7) == "v" and orient(7, 0) == "h"
    piles = grid.cell_piles(2, 3)
    assert [p.orient for p in piles[:3]] == ["v", "h", "v"]
    assert (piles[9].id, piles[9].x, piles[9].y, piles[9].kind) == ("G11", 3, 4, "grid")


def test_the_sixteen_initially_free_cells_face_the_border() -> None:
    expected = (
        [(0, c) for c in (0, 2, 4, 6)]  # upright on the north edge
        + [(7, c) for c in (1, 3, 5, 7)]  # upright on the south edge
        + [(r, 0) for r in (1, 3, 5, 7)]  # across on the west edge
        + [(r, 7) for r in (0, 2, 4, 6)]  # across on the east edge
    )
    assert sorted(INITIALLY_FREE) == sorted(expected)
    full = carpet("######## " * 8)
    for rule in ("adjacent", "line_of_sight"):
        assert free_set(full, rule) == {cell_id(r, c) for r, c in expected}


def test_a_corner_card_lying_the_wrong_way_is_not_free() -> None:
    full = carpet("######## " * 8)
    # G07 lies across: its east side is the edge. G70 across: west edge. G77 upright:
    # south edge. But G01 lies across on the north edge with both short sides on cards.
    assert free(full, 0, 7) and free(full, 7, 0) and free(full, 7, 7)
    assert not free(full, 0, 1) and not free(full, 1, 7)


def test_a_gap_frees_the_cards_whose_short_sides_touch_it() -> None:
    cells = carpet("""
        #.######
        ########
        ########
        ########
        ########
        ########
        ########
        ########""")
    # G01 is gone. G00 and G02 are upright: the gap beside them touches a long side,
    # which changes nothing. G11 is upright: its north side now faces the gap.
    assert free(cells, 1, 1)
    assert free_set(cells) == {cell_id(*rc) for rc in INITIALLY_FREE} | {"G11"}


def test_a_card_boxed_in_along_its_long_sides_stays_blocked() -> None:
    cells = carpet("""
        ########
        ########
        ##.#.###
        ########
        ###.####
        ########
        ########
        ########""")
    # G33 (upright: north G23, south G43). G23 is still a card, G43 is a gap: free.
    assert free(cells, 3, 3)
    # G32 lies across (west G31, east G33): gaps at G22 and G42 north/south do not help.
    assert orient(3, 2) == "h" and not free(cells, 3, 2)
    # G34 lies across: west G33 and east G35 both cards; the gap above it at G24 does not
    # touch a short side.
    assert not free(cells, 3, 4)


def test_a_gap_is_not_free_and_has_no_card() -> None:
    cells = carpet("""
        .#######
        ########
        ########
        ########
        ########
        ########
        ########
        ########""")
    assert not free(cells, 0, 0)
    assert "G00" not in free_set(cells)
    assert free(cells, 1, 0)  # across, west edge
    assert free(cells, 0, 1)  # across: its west side now faces the gap at G00


def test_gaps_reaching_the_edge_open_a_lane_but_adjacent_needs_only_one_gap() -> None:
    cells = carpet("""
        ########
        ########
        ########
        ..######
        ########
        ########
        ########
        ########""")
    # G32 lies across; its west neighbour G31 is a gap, and G30 beyond it too: free
    # under both rules.
    assert free(cells, 3, 2) and free(cells, 3, 2, rule="line_of_sight")
    cells[CELLS.index("G30")] = FULL  # a card at the edge again: the lane is shut
    assert free(cells, 3, 2)
    assert not free(cells, 3, 2, rule="line_of_sight")


def test_adjacent_equals_reachable_from_outside_on_random_clearances() -> None:
    """Decision 5: removing only free cards, every gap stays joined to the outside,
    so `adjacent` is the same as reaching a short side through the gaps."""
    rnd = random.Random(3)
    for _ in range(40):
        cells = [FULL] * 64
        for _ in range(rnd.randrange(1, 50)):
            options = free_cells(cells)
            if not options:
                break
            cells[rnd.choice(options)] = GAP
        outside = reachable_gaps(cells)
        for i in range(64):
            r, c = divmod(i, 8)
            assert free(cells, r, c) == (
                bool(cells[i]) and any(n is None or n in outside for n in short_neighbours(r, c))
            )


def short_neighbours(r: int, c: int) -> list[int | None]:
    steps = [(-1, 0), (1, 0)] if (r + c) % 2 == 0 else [(0, -1), (0, 1)]
    out: list[int | None] = []
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        out.append(rr * 8 + cc if 0 <= rr < 8 and 0 <= cc < 8 else None)
    return out


def reachable_gaps(cells: list[str]) -> set[int]:
    """Gaps joined to the outside through gaps (4-connected flood fill)."""
    seen = {i for i in range(64) if not cells[i] and (i // 8 in (0, 7) or i % 8 in (0, 7))}
    todo = list(seen)
    while todo:
        r, c = divmod(todo.pop(), 8)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            j = rr * 8 + cc
            if 0 <= rr < 8 and 0 <= cc < 8 and not cells[j] and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


@pytest.mark.parametrize("rule", ["adjacent", "line_of_sight"])
def test_an_empty_carpet_has_no_free_card(rule: grid.Rule) -> None:
    assert free_cells([GAP] * 64, rule=rule) == []


def test_cells_may_be_given_as_rows_flags_piles_or_card_ids() -> None:
    flat = carpet("""
        .#######
        ########
        ########
        ########
        ########
        ########
        ########
        ########""")
    expected = free_set(flat)
    as_rows = [flat[8 * r : 8 * r + 8] for r in range(8)]
    as_flags = [bool(x) for x in flat]
    as_piles: list[tuple[int, ...]] = [(5,) if x else () for x in flat]
    as_ids: list[int | None] = [0 if x else None for x in flat]  # 0 is A♠, a card
    for cells in (as_rows, as_flags, as_piles, as_ids):
        assert {CELLS[i] for i in free_cells(cells)} == expected
        assert free(cells, 0, 1) and not free(cells, 0, 0) and not free(cells, 1, 1)
    with pytest.raises(ValueError, match="64 cells"):
        free_cells([True] * 63)
    with pytest.raises(ValueError, match="no cell"):
        free(flat, 8, 0)
