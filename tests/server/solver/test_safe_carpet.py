"""Carpet's safe moves (``Carpet.safe_moves``): a card onto the one foundation of its
suit that wants it, once the other foundation of its suit has gone past both its rank
and the rank beside it (so nothing can be packed on it that could not be founded
instead). Hand-built positions from the seed's rules, and endgames the search decides
alike with and without them."""

from __future__ import annotations

import random

from server.patience.engine import Game, Move, State
from server.patience.games.carpet import GAME as CARPET
from server.patience.games.carpet import Carpet
from server.patience.grid import CELLS, CarpetVars
from server.solver import certify, solve
from tests.server.patience.games.positions import position, run

#: hearts, diamonds and clubs complete both ways
DONE = {f"F{d}-{s}": run(s, 1, 13) if d == "A" else run(s, 13, 1) for s in "HDC" for d in "AK"}


class CarpetUnguided(Carpet):
    """Carpet without its safe moves: the search tries every legal move."""

    def safe_moves(self, state: State[CarpetVars]) -> list[Move]:
        return Game.safe_moves(self, state)


UNGUIDED = CarpetUnguided()


def spades(
    up_to: int, down_to: int, spec: dict[str, str], redeals_left: int = 1
) -> State[CarpetVars]:
    piles = DONE | {"FA-S": run("S", 1, up_to), "FK-S": run("S", 13, down_to)} | spec
    return position(CARPET, piles, rest="S", vars=CarpetVars(redeals_left))


def test_a_card_whose_other_foundation_is_past_it_and_its_neighbour_is_safe() -> None:
    """Seed 003: up in suit on the aces, down in suit on the kings; a free card packs
    onto the waste top one rank up or down in suit. The aces' spades want the 7♠ and
    the kings' spades lie at 6♠: both 6♠ are founded, the other 7♠ is on the kings,
    so only an 8♠ could ever lie on this 7♠, and the aces take the 8♠ next: safe, from
    the carpet as from the waste."""
    state = spades(6, 6, {"G00": "7S"})
    assert CARPET.safe_moves(state) == [Move("G00", "FA-S")]
    waste = spades(6, 6, {"X": "7S"})
    assert CARPET.safe_moves(waste) == [Move("X", "FA-S")]
    down = spades(8, 8, {"G00": "7S"})  # the mirror: the kings want it, the aces at 8♠
    assert CARPET.safe_moves(down) == [Move("G00", "FK-S")]


def test_a_card_a_lower_neighbour_may_still_be_packed_on_is_not_safe() -> None:
    """The kings' spades at 7♠: the other 7♠ is founded, but one 6♠ is still out and
    could be packed onto this 7♠ on the waste (freeing its cell) before either goes
    up: legal, not listed. Nor while a turned card waits for its foundation."""
    state = spades(6, 7, {"G00": "7S", "G02": "6S"})
    assert Move("G00", "FA-S") in CARPET.legal_moves(state)
    assert CARPET.safe_moves(state) == []
    assert CARPET.safe_moves(CARPET.deal(0)) == []


def spades_endgame(seed: int) -> State[CarpetVars]:
    """The spades from the 5♠ up and from the 8♠ down left, shuffled over a corner
    of the carpet, the stock and the waste (seeded), the redeal used on odd seeds;
    the rest founded."""
    rnd = random.Random(seed)
    cards = run("S", 5, 13).split() + run("S", 8, 1).split()
    rnd.shuffle(cards)
    cells = list(CELLS[:3] + CELLS[8:11] + CELLS[16:19])
    spec: dict[str, list[str]] = {"X": [], "S": []}
    for c in cards:
        where = rnd.choice(("cell", "cell", "S", "X", "X"))
        if where == "cell" and cells:
            spec[cells.pop(rnd.randrange(len(cells)))] = [c]
        else:
            spec[where if where != "cell" else "S"].append(c)
    return spades(4, 9, {p: " ".join(v) for p, v in spec.items()}, redeals_left=1 - seed % 2)


def test_search_decides_alike_with_and_without_safe_moves() -> None:
    """On endgames dealt at random the search's verdicts with the safe moves are
    those without (a budget may run out first, more often without them)."""
    verdicts = []
    fired = 0
    for seed in range(16):
        state = spades_endgame(seed)
        guided = solve(CARPET, state, max_nodes=20_000, shorten=False)
        plain = solve(UNGUIDED, state, max_nodes=20_000, shorten=False)
        assert len({guided.outcome, plain.outcome} - {"unknown"}) <= 1, seed
        if "unknown" not in (guided.outcome, plain.outcome):
            verdicts.append(guided.outcome)
        if guided.line is not None:
            assert certify(CARPET, state, guided.line)
            fired += any(CARPET.safe_moves(s) for s in replay(state, guided.line))
    assert verdicts.count("win") >= 3 and verdicts.count("none") >= 3, verdicts
    assert fired, "no line met a safe move"


def replay(state: State[CarpetVars], line: tuple[Move, ...]) -> list[State[CarpetVars]]:
    out = [state]
    for move in line:
        out.append(CARPET.apply(out[-1], move))
    return out
