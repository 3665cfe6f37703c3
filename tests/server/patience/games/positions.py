"""Hand-built positions for game tests, written once.

``position(game, {"C1": "KS QH", "F1": run("S", 1, 5)}, rest="S")`` lays the named
cards bottom first; the first use of a code is the deck-0 card, the second the
deck-1 card. Every card not named goes under ``rest`` (or, with ``rest=None``, there
must be none), so a built position always holds the whole pack.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from server.patience.cards import RANKS, parse
from server.patience.engine import Game, State

V = TypeVar("V", bound=tuple[Hashable, ...])


def run(s: str, lo: int, hi: int) -> str:
    """Codes of suit ``s`` from rank ``lo`` to ``hi`` (down when ``lo > hi``)."""
    step = 1 if hi >= lo else -1
    return " ".join(f"{RANKS[r - 1]}{s}" for r in range(lo, hi + step, step))


class Pack:
    """Cards handed out by wire code: the first use of a code is the deck-0 card, the
    second the deck-1 card; a code used more often than it exists fails the test."""

    def __init__(self, decks: int = 2) -> None:
        self.decks = decks
        self.used: set[int] = set()

    def take(self, text: str) -> int:
        c = parse(text)
        while c in self.used:
            c += 52
        assert c < 52 * self.decks, f"one {text} too many"
        self.used.add(c)
        return c

    def rest(self) -> list[int]:
        """Every card not handed out yet, in increasing id."""
        return [c for c in range(52 * self.decks) if c not in self.used]


def position(
    game: Game[V], spec: dict[str, str], *, rest: str | None = None, vars: V | None = None
) -> State[V]:
    pack = Pack(game.decks)
    piles = {pid: [pack.take(t) for t in text.split()] for pid, text in spec.items()}
    left = pack.rest()
    if rest is not None:
        piles[rest] = left + piles.get(rest, [])
    else:
        assert not left, f"{len(left)} cards not placed"
    return game.new_state(piles, vars)
