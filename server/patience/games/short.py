"""Короткий пасьянс — Short Patience (seed 001; docs/games/short.md).

One deck. Six columns of four; the 25th card fixes the base rank and starts the
first foundation, the other three cards of that rank start the others as they come
free. Foundations go up in suit round the corner (for a ten: 10 J Q K A 2 … 9);
columns build down one card at a time regardless of suit and never turn the corner
(nothing goes on an ace), and an empty column takes only the rank just below the base.
The stock is turned three at a time and turned over again without limit — until a
redeal repeats an earlier one's position after a pass that offered no card move, when
the game is lost.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..cards import RANKS, SUIT_SYMBOLS, pretty, rank, suit
from ..engine import Game, Move, Pile, Piles, State, as_stock, rows, shuffled
from ..rules import moved, turned, turned_over

COLUMNS = tuple(f"C{i}" for i in range(1, 7))
FOUNDATIONS = tuple(f"F{i}" for i in range(1, 5))
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def name(r: int) -> str:
    return "10" if r == 10 else RANKS[r - 1]


def snapshot(piles: Piles) -> int:
    """A stable 64-bit digest of a position (every pile, in order): the key of the
    repetition rule. blake2b, not hash(), so that it survives a Python upgrade."""
    digest = hashlib.blake2b(digest_size=8)
    for pile in piles:
        digest.update(bytes(pile))
        digest.update(b"\xff")
    return int.from_bytes(digest.digest(), "big")


class ShortVars(NamedTuple):
    #: snapshots (tableau, foundations, stock order) at the deal and at every redeal
    seen: frozenset[int] = frozenset()
    #: the last redeal repeated an earlier snapshot: the game is lost
    repeated: bool = False
    #: the pass being played (1 at the deal, +1 at every redeal)
    passes: int = 1
    #: no card move has been legal at any point of the pass being played
    idle: bool = True


class Short(Game[ShortVars]):
    slug = "short"
    title_en = "Short Patience"
    title_ru = "Короткий пасьянс"
    decks = 1
    summary = (
        "Six columns of four; the 25th card sets the base rank. Build up in suit round "
        "the corner, turning the stock by threes as often as you like."
    )
    actions = frozenset({"deal", "redeal"})
    forced_actions = frozenset({"deal", "redeal"})
    Vars = ShortVars
    #: what happened on the way here, not where the cards lie
    history = frozenset({"seen", "passes", "idle"})
    layout = (
        *(Pile(f, "foundation", i, 0, label=f) for i, f in enumerate(FOUNDATIONS)),
        *(Pile(c, "tableau", i, 1, label=c, fan="down") for i, c in enumerate(COLUMNS)),
        Pile("S", "stock", 5, 0, label="stock", show="down"),
        Pile("X", "waste", 4, 0, label="waste", fan="right"),  # every turned card shows
    )

    def __init__(self) -> None:
        super().__init__()
        self.columns = tuple(self.at[c] for c in COLUMNS)
        self.foundations = tuple(self.at[f] for f in FOUNDATIONS)
        self.stock = self.at["S"]
        self.waste = self.at["X"]
        self.sources = (*zip(COLUMNS, self.columns, strict=True), ("X", self.waste))
        first = self.foundations[0]
        assert self.foundations == tuple(range(first, first + len(FOUNDATIONS)))
        self._found_slice = slice(first, first + len(FOUNDATIONS))
        self._safe_cache: dict[tuple[tuple[int, ...], ...], dict[int, str]] = {}

    def deal(self, seed: int) -> State[ShortVars]:
        _, pack, rng = shuffled(1, seed)
        piles: dict[str, list[int] | tuple[int, ...]] = dict(
            zip(COLUMNS, rows(pack[:24], 6), strict=True)
        )
        piles["F1"] = pack[24:25]  # the 25th card fixes the base rank
        piles["S"] = as_stock(pack[25:])
        state = self.new_state(piles, ShortVars(), rng)
        return State(state.piles, ShortVars(seen=frozenset({snapshot(state.piles)})), rng)

    def base(self, piles: Piles) -> int:
        return rank(piles[self.foundations[0]][0])

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State[ShortVars]) -> list[Move]:
        piles = state.piles
        b = self.base(piles)
        # Seed: «по одной карте в нисходящей последовательности без соблюдения масти»:
        # a card goes onto a column top one rank higher (nothing onto an ace), and only
        # the rank just below the base into an empty column. Keyed by the card's rank.
        onto: dict[int, list[int]] = {}
        for i in self.columns:
            pile = piles[i]
            if not pile:
                onto.setdefault((b + 11) % 13 + 1, []).append(i)
            elif (r := rank(pile[-1])) > 1:
                onto.setdefault(r - 1, []).append(i)
        # Foundations: (suit, value) each needs next; None for an empty one (v = 0).
        wants: dict[tuple[int, int] | None, list[str]] = {}
        for f, i in zip(FOUNDATIONS, self.foundations, strict=True):
            pile = piles[i]
            if not pile:
                wants.setdefault(None, []).append(f)
            elif len(pile) < 13:
                wants.setdefault((suit(pile[0]), len(pile)), []).append(f)
        legal: list[Move] = []
        for sid, si in self.sources:
            src = piles[si]
            if not src:
                continue
            c = src[-1]
            v = (rank(c) - b) % 13
            legal.extend(Move(sid, f) for f in wants.get((suit(c), v), ()))
            if v == 0:
                legal.extend(Move(sid, f) for f in wants.get(None, ()))
            for di in onto.get(rank(c), ()):
                # A lone card moving to another empty column changes nothing.
                if di != si and (piles[di] or si == self.waste or len(src) > 1):
                    legal.append(Move(sid, self.ids[di]))
        if piles[self.stock]:
            legal.append(DEAL)
        elif piles[self.waste]:
            legal.append(REDEAL)
        return legal

    def heuristic(self, state: State[ShortVars]) -> float:
        """For the solver: the cards not yet founded, plus one for each column card
        lying above a card of its own suit that its foundation needs earlier (lower
        from the base). Such a card must leave its column, onto another column or an
        empty one, before the card under it can be founded: a move a position still
        owes (measured against the plain count: docs/solver.md)."""
        piles = state.piles
        b = self.base(piles)
        owed = 0
        for i in self.columns:
            pile = piles[i]
            if len(pile) < 2:
                continue
            low = [13, 13, 13, 13]  # the lowest value of each suit further up the column
            for c in pile:
                s = c // 13
                v = (c - b + 1) % 13  # (rank - base) mod 13, rank = c % 13 + 1
                if low[s] < v:
                    owed += 1
                elif v < low[s]:
                    low[s] = v
        founded = 0
        for i in self.foundations:
            founded += len(piles[i])
        return self.total - founded + owed

    def safe_moves(self, state: State[ShortVars]) -> list[Move]:
        """A column's exposed card onto its foundation, when it is an ace or every card
        of the rank just below it is founded already.

        Why it cannot spoil a win. Seed: columns build «по одной карте в нисходящей
        последовательности без соблюдения масти» (and, as this module reads it, never
        turn the corner: nothing goes on an ace), so the only cards that can ever be
        laid on a card of rank r are the four of rank r − 1: none for an ace, none left
        once those four are founded. Such a card's only use left is its foundation
        (there is one foundation per suit). Take any winning line from here and play
        it with that card founded now: its moves of the card are dropped, every other
        move is as legal as before (it could only ever have been uncovering what lies
        under it, which is uncovered already; a column it leaves empty is filled only by
        choice), and the stock and the waste are untouched (the waste's card is *not*
        offered: taking it would shift the stock's threes). Where the line's path
        history differs (a pass now without a card move repeating an earlier redeal's
        position), the same positions recur, so the line's cycle can be cut: fewer
        positions seen, no repeat the old line did not have."""
        piles = state.piles
        founds = piles[self._found_slice]
        wanted = self._safe_cache.get(founds)
        if wanted is None:
            wanted = self._safe_targets(founds)
        out: list[Move] = []
        for cid, i in zip(COLUMNS, self.columns, strict=True):
            pile = piles[i]
            if pile:
                to = wanted.get(pile[-1])
                if to is not None:
                    out.append(Move(cid, to))
        return out

    def _safe_targets(self, founds: tuple[tuple[int, ...], ...]) -> dict[int, str]:
        """Card → the foundation it goes to safely, for these foundations (remembered:
        they change far less often than the columns)."""
        founded = [0] * 14  # founded cards of each rank
        wants: dict[int, str] = {}  # card → the foundation that takes it now
        empty: str | None = None
        for f, pile in zip(FOUNDATIONS, founds, strict=True):
            if not pile:
                empty = empty or f
                continue
            for c in pile:
                founded[rank(c)] += 1
            if len(pile) < 13:
                top = pile[-1]
                wants[top - 12 if rank(top) == 13 else top + 1] = f
        b = rank(founds[0][0])
        if empty is not None:  # a base card starts an empty foundation
            wants.update((s * 13 + b - 1, empty) for s in range(4))
        wanted = {c: f for c, f in wants.items() if rank(c) == 1 or founded[rank(c) - 1] == 4}
        if len(self._safe_cache) >= 4096:
            self._safe_cache.clear()
        self._safe_cache[founds] = wanted
        return wanted

    def is_lost(self, state: State[ShortVars]) -> bool:
        # Seed: «расположение карт в колоде не начнет повторяться»: a redeal repeats an
        # earlier redeal's position after a pass that offered no card move at all.
        return bool(state.vars.repeated)

    def _idle(self, state: State[ShortVars]) -> bool:
        """Whether the pass so far offered no card move, this position included."""
        return bool(state.vars.idle) and all(m.action for m in self.legal_moves(state))

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State[ShortVars], move: Move) -> State[ShortVars]:
        piles = state.piles
        if move.action == "deal":
            out = list(piles)
            out[self.stock], out[self.waste] = turned(piles[self.stock], piles[self.waste], 3)
            idle = self._idle(state)
            vars_ = state.vars if idle == state.vars.idle else state.vars._replace(idle=idle)
            return State(tuple(out), vars_, state.rng)
        if move.action == "redeal":
            out = list(piles)
            out[self.stock], out[self.waste] = turned_over(piles[self.waste]), ()
            after = tuple(out)
            key = snapshot(after)
            seen: frozenset[int] = state.vars.seen
            repeated = key in seen and self._idle(state)
            return State(after, ShortVars(seen | {key}, repeated, state.vars.passes + 1), state.rng)
        vars_ = state.vars._replace(idle=False) if state.vars.idle else state.vars
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]), vars_, state.rng
        )

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[ShortVars]) -> dict[str, object]:
        return {
            "base": RANKS[self.base(state.piles) - 1],
            "pass": state.vars.passes,
            "redeals_left": None,  # unlimited
            "repeated": state.vars.repeated,
        }

    def pile_view(self, state: State[ShortVars], i: int) -> dict[str, object]:
        if i in self.foundations:
            return {"base": RANKS[self.base(state.piles) - 1]}
        return {}

    def explain_action(self, state: State[ShortVars], move: Move) -> str:
        if move.action == "deal":
            return "the stock is empty: redeal (turn the waste over)"
        if state.piles[self.stock]:  # redeal
            return "deal out the stock before turning the waste over"
        return "the waste is empty: there is nothing to redeal"

    def explain_card(self, state: State[ShortVars], move: Move, si: int, di: int) -> str:
        piles = state.piles
        b = self.base(piles)
        src, dst = move.src or "", move.dst or ""
        if src in FOUNDATIONS:
            return "cards never leave the foundations"
        if src == "S":
            return "turn stock cards with the deal action"
        pile = piles[si]
        if not pile:
            return self.generic_reason(state, move)
        c = pile[-1]
        v = (rank(c) - b) % 13
        if src == dst:
            return "a card cannot move onto its own pile"
        if dst in FOUNDATIONS:
            target = piles[di]
            if not target:
                return f"an empty foundation is started only by a {name(b)}, the base rank"
            if len(target) == 13:
                return f"{dst} is complete"
            if suit(target[0]) != suit(c):
                return f"{dst} builds in {SUIT_SYMBOLS[suit(target[0])]} only"
            return f"{dst} needs the {name(rank(target[-1]) % 13 + 1)} next, not {pretty(c)}"
        if dst in COLUMNS:
            target = piles[di]
            low = name((b + 11) % 13 + 1)
            if not target:
                if v == 12:
                    return "moving the only card of a column to another empty column is no move"
                return f"only a {low}, the rank below the base, may fill an empty column"
            d = target[-1]
            if rank(d) == 1:
                return f"nothing goes on {pretty(d)}: a column never turns the corner to a king"
            return f"on {pretty(d)} only a {name(rank(d) - 1)} of any suit may go"
        return "cards go only onto the columns and the foundations"


GAME = Short()
