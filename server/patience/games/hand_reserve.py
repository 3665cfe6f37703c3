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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from ..cards import ACE, KING, is_red, pretty, rank
from ..engine import Game, Move, Pile, State, shuffled

COLUMNS = tuple(f"C{i}" for i in range(1, 10))
#: one place per card of the pack: the hand has no limit
HAND = tuple(f"H{i}" for i in range(1, 53))
FOUNDATIONS = tuple(f"F{i}" for i in range(1, 5))
LENGTHS = tuple(range(9, 0, -1))  # C1..C9


class Vars(NamedTuple):
    #: a column was taken into the hand (kept for games saved when that was once a game)
    picked_up: bool = False


class HandReserve(Game):
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
    Vars = Vars
    history = frozenset({"picked_up"})
    #: the hand's places are alike: which one holds a card does not matter
    alike = (HAND, COLUMNS, FOUNDATIONS)
    #: the hand's places past the sixteenth exist so that the hand has no limit; a deal
    #: rarely needs them
    spare = frozenset(HAND[16:])
    #: cards go into the hand and back at any time: a blocked game ends when you resign
    endless = True
    #: the whole-column shortcut (the seed's example); off gives plain King Albert moves
    pick_up_column = True
    layout = (
        *(Pile(f, "foundation", 5 + i, 0, label="A→K") for i, f in enumerate(FOUNDATIONS)),
        *(Pile(h, "reserve", i % 13, 1 + i // 13, label=h) for i, h in enumerate(HAND)),
        *(Pile(c, "tableau", i, 5, label=c, fan="down") for i, c in enumerate(COLUMNS)),
    )

    def __init__(self) -> None:
        super().__init__()
        self.columns = tuple(self.at[c] for c in COLUMNS)
        self.hand = tuple(self.at[h] for h in HAND)
        self.foundations = tuple(self.at[f] for f in FOUNDATIONS)
        self._col_ids = tuple(zip(COLUMNS, self.columns, strict=True))
        self._hand_ids = tuple(zip(HAND, self.hand, strict=True))
        self._found_ids = tuple(zip(FOUNDATIONS, self.foundations, strict=True))
        #: every card move, built once: ``self._to[src][dst]``
        self._to = {a: {b: Move(a, b) for b in self.ids if b != a} for a in self.ids}

    def deal(self, seed: int) -> State:
        _, pack, rng = shuffled(1, seed)
        cols: list[list[int]] = [[] for _ in COLUMNS]
        k = 0
        for row in range(9):  # passes: each column still short of its length gets a card
            for j, length in enumerate(LENGTHS):
                if length > row:
                    cols[j].append(pack[k])
                    k += 1
        piles: dict[str, list[int]] = dict(zip(COLUMNS, cols, strict=True))
        piles.update({h: [c] for h, c in zip(HAND, pack[k:], strict=False)})
        return self.new_state(piles, Vars(), rng)

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State) -> list[Move]:
        piles = state.piles
        sources: list[tuple[str, int]] = []  # (pile id, available card)
        tops: dict[tuple[int, bool], list[str]] = {}  # (rank, red) of exposed cards
        empty: list[str] = []
        for cid, i in self._col_ids:
            pile = piles[i]
            if pile:
                c = pile[-1]
                sources.append((cid, c))
                tops.setdefault((rank(c), is_red(c)), []).append(cid)
            else:
                empty.append(cid)
        hand_slot: str | None = None  # the first free place of the hand
        free_hand = 0
        for hid, i in self._hand_ids:
            pile = piles[i]
            if pile:
                sources.append((hid, pile[0]))
            else:
                free_hand += 1
                hand_slot = hand_slot or hid
        needs: dict[int, list[str]] = {}
        free: list[str] = []
        for fid, i in self._found_ids:
            pile = piles[i]
            if not pile:
                free.append(fid)
            elif len(pile) < 13:
                needs.setdefault(pile[-1] + 1, []).append(fid)
        legal: list[Move] = []
        add = legal.append
        for src, c in sources:
            to = self._to[src]
            r = rank(c)
            for f in free if r == ACE else needs.get(c, ()):
                add(to[f])
            if r != KING:
                # Seed example: Q♦ on K♣, J♣ on Q♦ — down in alternating colours.
                for d in tops.get((r + 1, not is_red(c)), ()):
                    add(to[d])
            column = src[0] == "C"
            # Any available card may go to an empty column (a column's only card moving
            # there would change nothing).
            if not column or len(piles[self.at[src]]) > 1:
                for d in empty:
                    add(to[d])
            # A column's exposed card may go into the hand, at its first free place.
            if column and hand_slot is not None:
                add(to[hand_slot])
        if self.pick_up_column:
            legal.extend(
                Move.act("pick_up", column=cid)
                for cid, i in self._col_ids
                if 0 < len(piles[i]) <= free_hand
            )
        return legal

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State, move: Move) -> State:
        piles = state.piles
        out = list(piles)
        if move.action == "pick_up":
            col = self.at[str(move.param("column"))]
            slots = [i for i in self.hand if not piles[i]]
            # The column goes into the next empty hand slots, bottom card first.
            for i, c in zip(slots, piles[col], strict=False):
                out[i] = (c,)
            out[col] = ()
            return State(tuple(out), state.vars, state.rng)
        src, dst = self.at[move.src or ""], self.at[move.dst or ""]
        c = piles[src][-1]
        out[src] = piles[src][:-1]
        out[dst] = piles[dst] + (c,)
        return State(tuple(out), state.vars, state.rng)

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State) -> dict[str, object]:
        piles = state.piles
        return {
            "hand": sum(1 for i in self.hand if piles[i]),
            "pick_up_left": None if self.pick_up_column else 0,  # no limit
        }

    def explain(self, state: State, move: Move) -> str:
        piles = state.piles
        if move.action == "pick_up":
            return self._explain_pick_up(state, move)
        if move.action is not None or move.src not in self.at or move.dst not in self.at:
            return super().explain(state, move)
        src, dst = self.at[move.src or ""], self.at[move.dst or ""]
        if src in self.foundations:
            return "cards on the foundations never go back to the columns or the hand"
        if dst in self.hand:
            if src in self.hand:
                return "a card in the hand stays there until it goes to a column or a foundation"
            if piles[dst]:
                return f"{move.dst} already holds a card"
            first = next(h for h, i in self._hand_ids if not piles[i])
            if move.dst != first:
                return f"a card enters the hand at its first free place, {first}"
        if move.index is not None:
            return "only the exposed card of a column moves, one card at a time"
        pile = piles[src]
        if not pile:
            return super().explain(state, move)
        c = pile[-1]
        if dst == src:
            return "a card cannot move onto its own pile"
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
            return super().explain(state, move)
        top = target[-1]
        if is_red(top) == is_red(c):
            return f"columns build in alternating colours: {pretty(c)} cannot go on {pretty(top)}"
        return f"columns build down by one: {pretty(c)} cannot go on {pretty(top)}"

    def _explain_pick_up(self, state: State, move: Move) -> str:
        if not self.pick_up_column:
            return "this version of the game does not allow taking a column into the hand"
        cid = move.param("column")
        if cid not in COLUMNS:
            return f"column must name one of C1..C9, not {cid!r}"
        piles = state.piles
        n = len(piles[self.at[str(cid)]])
        if not n:
            return f"{cid} is empty"
        free = sum(1 for i in self.hand if not piles[i])
        return f"{cid} holds {n} cards but the hand has only {free} free places"


GAME = HandReserve()
