"""Tournaments' pure parts (issue 51): the code's letters, the deal labels and the
commitment, a standings row from the sorted set's score, the public schedule."""

from __future__ import annotations

import hashlib
from typing import Any

#: a tournament code's letters: no I, O, 0 or 1 (they read alike)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: points and cards founded in one score: points × SHIFT + founded
SHIFT = 1 << 20
#: the standings' rows a tournament object carries
TOP = 20


def label(tid: str, i: int) -> str:
    """What deal ``i``'s candidates are drawn under (a daily's date's place)."""
    return f"tournament:{tid}:{i}"


def commitment(seed: int, tid: str, slug: str) -> str:
    """sha256(seed as 8 big-endian bytes ‖ 'tournament:ID:slug'), in hex."""
    return hashlib.sha256(seed.to_bytes(8, "big") + f"tournament:{tid}:{slug}".encode()).hexdigest()


def place_of(board: list[tuple[str, int]], player: str) -> int | None:
    """``player``'s rank (1 first) on a board in the standings' order, or None."""
    key = player.casefold()
    for i, (name, _) in enumerate(board, 1):
        if name.casefold() == key:
            return i
    return None


def standing(rank: int, name: str, score: int, row: dict[str, bytes]) -> dict[str, Any]:
    """A standings row from the sorted set's score and the entrant's hash."""

    def num(field: str) -> int:
        return int(row.get(field) or 0)

    return {
        "rank": rank,
        "player": name,
        "points": score // SHIFT,
        "won": num("won"),
        "played": num("played"),
        "founded": score % SHIFT,
        "streak": num("streak"),
        "playing": bool(row.get("current")),
        "left": row.get("left") == b"1",
    }


def schedule(text: str) -> list[tuple[str, int, int]]:
    """``--tournament-schedule``: ``SLUG@HH:MM/MINUTES`` items, comma-separated, as
    ``(slug, ms after midnight UTC, minutes)``; a malformed item is a ``ValueError``."""
    out = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        slug, _, rest = item.partition("@")
        when, _, minutes = rest.partition("/")
        hh, _, mm = when.partition(":")
        h, m, n = int(hh), int(mm), int(minutes or 30)
        if not (0 <= h < 24 and 0 <= m < 60 and 5 <= n <= 180 and slug):
            raise ValueError(f"not a tournament schedule item: {item!r}")
        out.append((slug, (h * 60 + m) * 60_000, n))
    return out
