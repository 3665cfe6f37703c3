"""What players call a game's piles: a keyed message of the catalogues by the pile's
kind, or the game's own (``Pile.name``), and its number (docs/i18n.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Protocol


class Pile(Protocol):
    """What naming reads of a pile (engine.Pile)."""

    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...


#: what a pile is called by its kind, unless the game names it (``Pile.name``): a key of
#: the catalogues (protocol/locale), said with ``.from``/``.to``/``.acc`` in moves
KIND_NAMES: Mapping[str, str] = {
    "foundation": "pile.foundation",
    "tableau": "pile.column",
    "stock": "pile.stock",
    "waste": "pile.waste",
    "reserve": "pile.reserve",
    "cell": "pile.cell",
    "grid": "pile.grid",
    "discard": "pile.discard",
}
#: names said with a number (``column 3``): the game's piles of that name counted in
#: layout order from 1; any other name is one pile's
NUMBERED = frozenset(
    {"pile.foundation", "pile.column", "pile.reserve", "pile.cell", "pile.grid", "pile.barrier"}
)


def pile_names(layout: Sequence[Pile]) -> tuple[tuple[str, int | None], ...]:
    """Each pile's name and number (None: a pile called by its name alone)."""
    seen: Counter[str] = Counter()
    out: list[tuple[str, int | None]] = []
    for p in layout:
        name = p.name or KIND_NAMES[p.kind]
        seen[name] += 1
        out.append((name, seen[name] if name in NUMBERED else None))
    return tuple(out)
