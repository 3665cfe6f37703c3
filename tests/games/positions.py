"""Hand-built positions for game tests, written once.

``position(game, {"C1": "KS QH", "F1": run("S", 1, 5)}, rest="S")`` lays the named
cards bottom first; the first use of a code is the deck-0 card, the second the
deck-1 card. Every card not named goes under ``rest`` (or, with ``rest=None``, there
must be none), so a built position always holds the whole pack.
"""

from __future__ import annotations

from typing import Any

from server.patience.cards import RANKS, parse
from server.patience.engine import Game, State


def run(s: str, lo: int, hi: int) -> str:
    """Codes of suit ``s`` from rank ``lo`` to ``hi`` (down when ``lo > hi``)."""
    step = 1 if hi >= lo else -1
    return " ".join(f"{RANKS[r - 1]}{s}" for r in range(lo, hi + step, step))


def position(
    game: Game, spec: dict[str, str], *, rest: str | None = None, vars: Any = None
) -> State:
    used: set[int] = set()
    piles: dict[str, list[int]] = {}
    for pid, text in spec.items():
        piles[pid] = []
        for t in text.split():
            c = parse(t)
            while c in used:
                c += 52
            assert c < 52 * game.decks, f"one {t} too many"
            used.add(c)
            piles[pid].append(c)
    left = [c for c in range(52 * game.decks) if c not in used]
    if rest is not None:
        piles[rest] = left + piles.get(rest, [])
    else:
        assert not left, f"{len(left)} cards not placed"
    return game.new_state(piles, vars)
