"""Резерв в руке — Hand Reserve (seed 003, game A; docs/games/hand_reserve.md).

The seed keeps only the end of this game's rules and an opening example; the game is
our documented reconstruction R1 (King Albert with the seed's locked foundations) with
the flag ``pickUpColumn`` on, because the seed's own example takes a whole column into
the hand.

One deck. Nine open columns of 9, 8, …, 1 cards; the other seven cards are the hand,
each playable at any time. Columns build down in alternating colours, one card at a
time; an empty column takes any card. Aces found four foundations during play, built
up in suit. A column's exposed card may go into the hand at any time, and the hand has
no limit; taking a whole column at once (the seed's example) is a shortcut for that.

The hand is one spread pile ``H``, kept in order (by suit, then rank), so a hand is the
same hand whatever order its cards came in; a hand card is named by its place,
``{"from": "H", "index": i}`` (0 = first). The older names ``H1``, ``H2``, … (the
n-th card of the hand; as a target, the hand) are still read.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from ..cards import ACE, KING, is_red, pretty, rank
from ..engine import Game, InvalidMove, Move, Pile, State, shuffled
from ..rules import UP_FROM_ACE, Foundations

COLUMNS = tuple(f"C{i}" for i in range(1, 10))
HAND = "H"
FOUNDATIONS = tuple(f"F{i}" for i in range(1, 5))
LENGTHS = tuple(range(9, 0, -1))  # C1..C9
#: a hand place as states stored by earlier servers name it, one pile per card
#: (``H1``: the hand's first card): still read
_OLD_HAND = re.compile(r"^H([1-9][0-9]?)$")


class HandReserveVars(NamedTuple):
    #: a column was taken into the hand (kept for games saved when that was once a game)
    picked_up: bool = False


class HandReserve(Game[HandReserveVars]):
    slug = "hand_reserve"
    title_en = "Hand Reserve"
    title_ru = "Резерв в руке"
    decks = 1
    summary = (
        "Nine open columns and seven cards in the hand; build down in alternating "
        "colours and up in suit from the aces. Any exposed card may go into the hand."
    )
    actions = frozenset({"pick_up"})
    action_params: ClassVar[Mapping[str, frozenset[str]]] = {"pick_up": frozenset({"column"})}
    Vars = HandReserveVars
    history = frozenset({"picked_up"})
    alike = (COLUMNS, FOUNDATIONS)  # the hand stands alone
    #: cards go into the hand and back at any time: a blocked game ends when you resign
    endless = True
    #: the whole-column shortcut (the seed's example); off gives plain King Albert moves
    pick_up_column = True
    layout = (
        *(Pile(f, "foundation", 5 + i, 0, label="A→K") for i, f in enumerate(FOUNDATIONS)),
        Pile(HAND, "reserve", 0, 1, label="hand", fan="right", name="pile.hand"),
        *(Pile(c, "tableau", i, 2, label=c, fan="down") for i, c in enumerate(COLUMNS)),
    )

    def __init__(self) -> None:
        super().__init__()
        self.columns = tuple(self.at[c] for c in COLUMNS)
        self.hand = self.at[HAND]
        self.foundations = tuple(self.at[f] for f in FOUNDATIONS)
        self._col_ids = tuple(zip(COLUMNS, self.columns, strict=True))
        self._found_rules = Foundations(
            (f, i, UP_FROM_ACE) for f, i in zip(FOUNDATIONS, self.foundations, strict=True)
        )
        #: every move from a column, built once: ``self._to[src][dst]``
        self._to = {a: {b: Move(a, b) for b in self.ids if b != a} for a in COLUMNS}
        self._pick_up = {c: Move.act("pick_up", column=c) for c in COLUMNS}

    def deal(self, seed: int) -> State[HandReserveVars]:
        _, pack, rng = shuffled(1, seed)
        cols: list[list[int]] = [[] for _ in COLUMNS]
        k = 0
        for row in range(9):  # passes: each column still short of its length gets a card
            for j, length in enumerate(LENGTHS):
                if length > row:
                    cols[j].append(pack[k])
                    k += 1
        piles: dict[str, list[int]] = dict(zip(COLUMNS, cols, strict=True))
        piles[HAND] = sorted(pack[k:])
        return self.new_state(piles, HandReserveVars(), rng)

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State[HandReserveVars]) -> list[Move]:
        piles = state.piles
        wanted: dict[tuple[int, bool], list[str]] = {}  # (rank, red) a column takes
        empty: list[str] = []
        for cid, i in self._col_ids:
            pile = piles[i]
            if not pile:
                empty.append(cid)
            elif rank(top := pile[-1]) != ACE:
                # Seed example: Q♦ on K♣, J♣ on Q♦ — down in alternating colours.
                wanted.setdefault((rank(top) - 1, not is_red(top)), []).append(cid)
        needs, free = self._found_rules.wants(piles)
        legal: list[Move] = []
        add = legal.append
        for n, c in enumerate(piles[self.hand]):  # a hand card, named by its place
            for d in (
                *(free if rank(c) == ACE else needs.get(c, ())),
                *wanted.get((rank(c), is_red(c)), ()),
                *empty,
            ):
                add(Move(HAND, d, n))
        for cid, i in self._col_ids:
            pile = piles[i]
            if not pile:
                continue
            c, to = pile[-1], self._to[cid]
            for d in free if rank(c) == ACE else needs.get(c, ()):
                add(to[d])
            for d in wanted.get((rank(c), is_red(c)), ()):
                add(to[d])
            if len(pile) > 1:  # a column's only card into an empty column changes nothing
                for d in empty:
                    add(to[d])
                if self.pick_up_column:  # the shortcut; a lone card moves on its own
                    add(self._pick_up[cid])
            # «Карты, уложенные на базовые, нельзя переносить ни в столбцы, ни в резерв»:
            # only foundation cards are barred from the hand, so a column's card enters it.
            add(to[HAND])
        return legal

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State[HandReserveVars], move: Move) -> State[HandReserveVars]:
        piles = state.piles
        out = list(piles)
        hand = list(piles[self.hand])
        if move.action == "pick_up":
            col = self.at[str(move.param("column"))]
            out[col] = ()
            out[self.hand] = tuple(sorted(hand + list(piles[col])))
            return State(tuple(out), state.vars, state.rng)
        dst = self.at[move.dst or ""]
        if move.src == HAND:
            c = hand.pop(move.index or 0)
            out[self.hand] = tuple(hand)
        else:
            src = self.at[move.src or ""]
            c = piles[src][-1]
            out[src] = piles[src][:-1]
        if dst == self.hand:
            insort(hand, c)
            out[dst] = tuple(hand)
        else:
            out[dst] = piles[dst] + (c,)
        return State(tuple(out), state.vars, state.rng)

    # -- the hand's older names -----------------------------------------------------

    def canonical(self, move: Move) -> Move:
        """``H3 C5`` (the hand's third card) is ``H[2] C5``; ``C4 H8`` is ``C4 H``."""
        if move.action is not None:
            return super().canonical(move)
        src, index, dst = move.src, move.index, move.dst
        if src is not None and (old := _OLD_HAND.match(src)) and index is None:
            src, index = HAND, int(old[1]) - 1
        if dst is not None and _OLD_HAND.match(dst):
            dst = HAND
        return move._replace(src=src, index=index, dst=dst)

    def parse_move(self, wire: Any) -> Move:
        move = super().parse_move(wire)
        if move.action is None and move.src == HAND and move.index is None:
            raise InvalidMove("a hand card is named by its place: 'index' (0 = first)")
        return self.canonical(move)

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[HandReserveVars]) -> dict[str, object]:
        return {
            "hand": len(state.piles[self.hand]),
            "pick_up_left": None if self.pick_up_column else 0,  # no limit
        }

    def explain_card(self, state: State[HandReserveVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        if src in self.foundations:
            return "cards on the foundations never go back to the columns or the hand"
        if src == dst:
            return "a card cannot move onto its own pile"
        pile = piles[src]
        if src == self.hand:
            if move.index is None:
                return "name the hand card by its place (index 0 = first)"
            if not 0 <= move.index < len(pile):
                return self.generic_reason(state, move)
            c = pile[move.index]
        elif move.index is not None:
            return "only the exposed card of a column moves, one card at a time"
        elif not pile:
            return self.generic_reason(state, move)
        else:
            c = pile[-1]
        target = piles[dst]
        if dst in self.foundations:
            if not target:
                return f"an empty foundation takes only an ace, not {pretty(c)}"
            top = target[-1]
            if rank(top) == KING:
                return f"{move.dst} is complete"
            return f"{move.dst} needs {pretty(top + 1)}, not {pretty(c)}"
        if not target:
            if len(pile) == 1 and src in self.columns:
                return "moving the only card of a column into an empty column changes nothing"
            return self.generic_reason(state, move)
        top = target[-1]
        if is_red(top) == is_red(c):
            return f"columns build in alternating colours: {pretty(c)} cannot go on {pretty(top)}"
        return f"columns build down by one: {pretty(c)} cannot go on {pretty(top)}"

    def explain_action(self, state: State[HandReserveVars], move: Move) -> str:
        """Why this ``pick_up`` (the game's one action) is not allowed now."""
        if not self.pick_up_column:
            return "this version of the game does not allow taking a column into the hand"
        cid = move.param("column")
        if cid not in COLUMNS:
            return f"column must name one of C1..C9, not {cid!r}"
        n = len(state.piles[self.at[str(cid)]])
        if not n:
            return f"{cid} is empty"
        return f"{cid} holds one card: move it into the hand ({cid} H)"


GAME = HandReserve()
