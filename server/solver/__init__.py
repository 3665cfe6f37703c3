"""The solver's seam (a later issue fills it): can a deal be won?

The daily picks the first candidate seed that is not proved unwinnable, so until a
real solver lands every daily takes candidate ``k = 0``.
"""

from __future__ import annotations

from server.patience.engine import Game


def winnable(game: Game, seed: int, budget: int) -> bool | None:
    """True when a win of ``seed`` is found, False when the search proves there is
    none, None (unknown) when ``budget`` nodes run out. Today: always None."""
    del game, seed, budget
    return None
