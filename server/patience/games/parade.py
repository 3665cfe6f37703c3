"""Парад — Parade, the Royal Parade (seed 003; docs/games/parade.md).

Two decks. Twenty-four cards form the parade, three rows of eight; its aces go out
of play at once. The first row wants twos, the second threes, the third fours, each
built up in suit by three (2 5 8 J, 3 6 9 Q, 4 7 10 K). A gap in a row takes only
that row's base; a card that is not a base of its row may move out into a gap where
it belongs or onto a pile it continues. The rest of the pack is dealt eight at a time
onto eight depots whose top cards play; aces dealt are discarded. The seed breaks off
before the stock: its part follows Tarbart (see docs/games/parade.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import RANKS, SUIT_RANK, SUIT_SYMBOLS, pretty, rank, suit
from ..engine import Game, Move, NoVars, Pile, State, as_stock, shuffled
from ..rules import moved
from .parade_aids import ParadeAids

ROWS = 3
COLS = 8
#: base rank of each parade row: twos, threes, fours
BASE = (2, 3, 4)
SLOTS = tuple(f"P{k}{c}" for k in range(ROWS) for c in range(COLS))
DEPOTS = tuple(f"D{i}" for i in range(1, COLS + 1))
DEAL = Move.act("deal")
FULL = 4


def row_name(k: int) -> str:
    return ("twos", "threes", "fours")[k]


def build(k: int) -> str:
    """The ranks of a complete pile of row ``k``, e.g. ``2 5 8 J``."""
    return " ".join("10" if r == 10 else RANKS[r - 1] for r in range(BASE[k], 14, 3))


class Parade(Game[NoVars]):
    slug = "parade"
    title_en = "Parade"
    title_ru = "Парад"
    decks = 2
    Vars = NoVars
    summary = (
        "Three rows of eight: twos, threes and fours, each built up in suit by three; "
        "misplaced cards move through the gaps the aces leave."
    )
    actions = frozenset({"deal"})
    forced_actions = frozenset({"deal"})
    #: the aces are out of play: 24 piles of four make a won game
    target = ROWS * COLS * FULL
    #: a slot's row is its meaning (the base it wants): the slots of a row are alike.
    #: The depots are not: a deal gives its k-th card to the k-th depot, so two
    #: positions whose depots hold the same cards in another order deal differently
    #: (D1 [5♠] D2 [] and D1 [] D2 [5♠] of the other deck: the next card dealt lands on
    #: the 5♠ in one and not in the other). Each depot keeps its place in the key.
    alike = tuple(SLOTS[k * COLS : (k + 1) * COLS] for k in range(ROWS))
    layout = (
        *(Pile(p, "foundation", int(p[2]), int(p[1]), label=build(int(p[1]))) for p in SLOTS),
        *(Pile(d, "tableau", i, ROWS + 1, label=d, fan="down") for i, d in enumerate(DEPOTS)),
        Pile("S", "stock", COLS + 1, 0, label="stock", show="down"),
        Pile("X", "discard", COLS + 1, 2, label="aces out", name="pile.aces_out"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: (slot id, pile index, row base) of every slot, row by row
        self.slots = tuple((p, self.at[p], BASE[int(p[1])]) for p in SLOTS)
        self.depots = tuple(self.at[d] for d in DEPOTS)
        self.stock = self.at["S"]
        self.discard = self.at["X"]
        self.aids = ParadeAids(self, base=BASE, full=FULL)

    def deal(self, seed: int) -> State[NoVars]:
        _, pack, rng = shuffled(2, seed)
        return self.opening(pack, rng)

    def opening(self, pack: Sequence[int], rng: int = 0) -> State[NoVars]:
        """The position dealt from ``pack`` (top first): cards 0..23 into the parade
        row by row, its aces out of play at once (slot order), the rest the stock."""
        parade = pack[: ROWS * COLS]
        piles: dict[str, tuple[int, ...]] = {
            p: (c,) for p, c in zip(SLOTS, parade, strict=True) if rank(c) != 1
        }
        piles["X"] = tuple(c for c in parade if rank(c) == 1)
        piles["S"] = as_stock(pack[ROWS * COLS :])
        return self.new_state(piles, None, rng)

    # -- positions --------------------------------------------------------------------

    def score(self, state: State[NoVars]) -> tuple[int, int]:
        """Cards on founded slots (a misplaced card is not on a foundation)."""
        piles = state.piles
        n = 0
        for _, i, base in self.slots:
            pile = piles[i]
            if pile and SUIT_RANK[pile[0]][1] == base:
                n += len(pile)
        return n, self.total

    def moves(self, state: State[NoVars]) -> list[Move]:
        piles = state.piles
        builds: dict[tuple[int, int], list[str]] = {}
        gaps: dict[int, list[str]] = {}
        sources: list[tuple[str, int]] = []
        for p, i, base in self.slots:
            pile = piles[i]
            if not pile:
                gaps.setdefault(base, []).append(p)
            elif SUIT_RANK[pile[0]][1] != base:
                sources.append((p, pile[0]))  # misplaced: free to move
            elif len(pile) < FULL:
                s, r = SUIT_RANK[pile[-1]]
                builds.setdefault((s, r + 3), []).append(p)
        for d, i in zip(DEPOTS, self.depots, strict=True):
            if piles[i]:
                sources.append((d, piles[i][-1]))
        legal: list[Move] = []
        for src, c in sources:
            key = SUIT_RANK[c]
            for dst in builds.get(key, ()):
                legal.append(Move(src, dst))
            for dst in gaps.get(key[1], ()):
                legal.append(Move(src, dst))
        if piles[self.stock]:
            legal.append(DEAL)
        return legal

    # -- for the solver and ``auto``: parade_aids.py -----------------------------------

    def heuristic(self, state: State[NoVars]) -> float:
        """:meth:`ParadeAids.heuristic`: the cards not founded, those stuck, or
        :data:`~.parade_aids.DEAD`."""
        return self.aids.heuristic(state)

    def stuck(self, state: State[NoVars]) -> tuple[int, bool]:
        """:meth:`ParadeAids.stuck`: depot cards on a lower card of their build."""
        return self.aids.stuck(state)

    def deadlocked(self, state: State[NoVars]) -> bool:
        """:meth:`ParadeAids.deadlocked`: whether some card can never reach its pile."""
        return self.aids.deadlocked(state)

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        """:meth:`ParadeAids.safe_moves`: cards onto piles that take no other copy."""
        return self.aids.safe_moves(state)

    def play(self, state: State[NoVars], move: Move) -> State[NoVars]:
        piles = state.piles
        if move.action == "deal":
            out = list(piles)
            stock = piles[self.stock]
            n = min(COLS, len(stock))
            aces: list[int] = []
            for k in range(n):
                c = stock[-1 - k]
                if rank(c) == 1:
                    aces.append(c)  # discarded at once, the depot gets nothing
                else:
                    out[self.depots[k]] += (c,)
            out[self.stock] = stock[: len(stock) - n]
            out[self.discard] += tuple(aces)
            return State(tuple(out), state.vars, state.rng)
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]), state.vars, state.rng
        )

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[NoVars]) -> dict[str, Any]:
        stock = len(state.piles[self.stock])
        return {
            "deals_left": -(-stock // COLS),
            "aces_out": len(state.piles[self.discard]),
        }

    def explain_action(self, state: State[NoVars], move: Move) -> str:
        return "the stock is empty"

    def explain_card(self, state: State[NoVars], move: Move, si: int, di: int) -> str:
        piles = state.piles
        src, dst = move.src or "", move.dst or ""
        if src == "S":
            return "deal the stock with the deal action"
        if src == "X":
            return "the aces are out of play"
        if dst in DEPOTS:
            return "nothing may be put onto a depot: depots get cards only from the stock"
        if dst in ("S", "X"):
            return f"nothing may be put onto {'the stock' if dst == 'S' else 'the aces'}"
        if src == dst:
            return "a card cannot move onto its own pile"
        source = piles[si]
        if not source:
            return f"{src} is a gap" if src in SLOTS else f"{src} is empty"
        if move.index is not None:
            return "in Parade only top cards move: a move names no index"
        c = source[-1]
        if src in SLOTS:
            k = int(src[1])
            if rank(source[0]) == BASE[k]:
                if len(source) == 1:
                    return f"{pretty(c)} is a base in its own row ({row_name(k)}): it stays"
                return "cards never leave a pile built in the parade"
        k = int(dst[1])
        pile = piles[di]
        if not pile:
            return (
                f"a gap in the {row_name(k)}' row takes only a {BASE[k]} "
                f"(any suit), not {pretty(c)}"
            )
        if rank(pile[0]) != BASE[k]:
            return (
                f"{dst} holds {pretty(pile[0])}, which is not a base of this row: "
                f"it takes nothing until that card moves away"
            )
        if len(pile) >= FULL:
            return f"{dst} is complete"
        top = pile[-1]
        if suit(c) != suit(top):
            return f"{dst} builds in {SUIT_SYMBOLS[suit(top)]}, not {pretty(c)}"
        return f"{dst} needs {pretty(top + 3)} next (up by three), not {pretty(c)}"


GAME = Parade()
