"""Пятнадцать — The Fifteen (seed 002; docs/games/fifteen.md).

Two decks dealt face up in rows of fifteen: fourteen columns of seven and one of six.
Only a column's exposed card is usable. The aces and kings found during play build
up and down in suit; exposed cards marry one another (same suit, one rank up or
down, either way) and an empty column ("lane") takes any exposed card. Once, when
the game cannot even start, an ace and a king may be taken from the sixth row.
An open game: every card is visible.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from ..cards import ACE, KING, SUITS, pretty, rank, suit
from ..engine import Game, Move, Pile, State, rows, shuffled
from ..rules import FA, FK, Foundation, Foundations, exposed, swaps

#: the foundations up from the aces and down from the kings
UP, DOWN = FA, FK

COLUMNS = tuple(f"C{i}" for i in range(1, 16))
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: the grace takes "the sixth row": the sixth card from the top of a column
GRACE_ROW = 5


class FifteenVars(NamedTuple):
    grace_used: bool = False
    #: the card dealt into the sixth row of each column, C1..C15: the grace takes only
    #: these, and only while they lie where they were dealt
    sixth_row: tuple[int, ...] = ()


class Fifteen(Game[FifteenVars]):
    slug = "fifteen"
    title_en = "The Fifteen"
    title_ru = "Пятнадцать"
    decks = 2
    summary = (
        "Fifteen open columns; marry cards in suit up or down, open lanes, and build "
        "aces up and kings down in suit."
    )
    actions = frozenset({"grace"})
    # A grace names the column of its ace, its king or both; one left out means null.
    action_params: ClassVar[Mapping[str, frozenset[str]]] = {"grace": frozenset({"ace", "king"})}
    Vars = FifteenVars
    layout = (
        *(Pile(f, "foundation", 3 + i, 0, label="A↑") for i, f in enumerate(UP)),
        *(Pile(f, "foundation", 8 + i, 0, label="K↓") for i, f in enumerate(DOWN)),
        *(Pile(c, "tableau", i, 1, label=c, fan="down") for i, c in enumerate(COLUMNS)),
    )

    def __init__(self) -> None:
        super().__init__()
        self.columns = tuple(self.at[c] for c in COLUMNS)
        self.up = tuple(self.at[f] for f in UP)
        self.down = tuple(self.at[f] for f in DOWN)
        self._col_ids = tuple(zip(COLUMNS, self.columns, strict=True))
        self._found = self.up + self.down
        # Aces and kings found the piles of their suit during play (an ace may fit an
        # empty FA and a FK waiting for its last card).
        self._found_rules = Foundations(
            (f, self.at[f], Foundation(first, by, suit=s))
            for s in range(4)
            for f, first, by in ((UP[s], ACE, 1), (DOWN[s], KING, -1))
        )
        #: every card move, built once: ``self._to[src][dst]``
        self._to = {a: {b: Move(a, b) for b in self.ids if b != a} for a in self.ids}

    def deal(self, seed: int) -> State[FifteenVars]:
        _, pack, rng = shuffled(2, seed)
        columns = rows(pack, 15)
        sixth_row = tuple(column[GRACE_ROW] for column in columns)
        return self.new_state(
            dict(zip(COLUMNS, columns, strict=True)), FifteenVars(False, sixth_row), rng
        )

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State[FifteenVars]) -> list[Move]:
        piles = state.piles
        sources, tops, empty = exposed(piles, self._col_ids)
        needs, _ = self._found_rules.wants(piles)
        legal: list[Move] = []
        add = legal.append
        at = self.at
        for src, key in sources:
            to = self._to[src]
            mine = piles[at[src]]
            for f in needs.get(key, ()):
                add(to[f])
            # A marriage: same suit, one rank up or down, no wrap; never one that only
            # swaps two columns.
            r = key % 13
            if r != KING - 1 and key + 1 in tops:
                for dst in tops[key + 1]:
                    if not swaps(mine, piles[at[dst]]):
                        add(to[dst])
            if r != ACE - 1 and key - 1 in tops:
                for dst in tops[key - 1]:
                    if not swaps(mine, piles[at[dst]]):
                        add(to[dst])
            # Any available card may go to an empty column, but a column's only card
            # moving there changes nothing.
            if len(mine) > 1:
                for dst in empty:
                    add(to[dst])
        if not state.vars.grace_used:
            legal.extend(self._graces(state))
        return legal

    def _graces(self, state: State[FifteenVars]) -> list[Move]:
        """The one-time opening exception: an ace and/or a king from the sixth row,
        «взять изъ шестого ряда одного туза и одного короля», as it was dealt."""
        piles = state.piles
        if state.vars.grace_used or any(piles[i] for i in self._found):
            return []
        aces: list[str] = []
        kings: list[str] = []
        for n, (cid, i) in enumerate(self._col_ids):
            pile = piles[i]
            if pile and rank(pile[-1]) in (ACE, KING):
                return []  # an ace or a king is available: the game can start
            if self._dealt_in_place(state, n):
                r = rank(pile[GRACE_ROW])
                if r == ACE:
                    aces.append(cid)
                elif r == KING:
                    kings.append(cid)
        out = [Move.act("grace", ace=a, king=None) for a in aces]
        out += [Move.act("grace", ace=None, king=k) for k in kings]
        out += [Move.act("grace", ace=a, king=k) for a in aces for k in kings]
        return out

    def _dealt_in_place(self, state: State[FifteenVars], n: int) -> bool:
        """Whether column ``n`` (0 for C1) still holds, sixth from the top, the very card
        dealt there (not a card that came to that place later, nor the other deck's
        twin)."""
        pile = state.piles[self.columns[n]]
        dealt = state.vars.sixth_row
        return len(pile) > GRACE_ROW and n < len(dealt) and pile[GRACE_ROW] == dealt[n]

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State[FifteenVars], move: Move) -> State[FifteenVars]:
        piles = state.piles
        if move.action == "grace":
            out = list(piles)
            for name in ("ace", "king"):
                cid = move.param(name)
                if cid is None:
                    continue
                i = self.at[str(cid)]
                pile = out[i]
                c = pile[GRACE_ROW]
                # The cards below close up; the card founds its foundation.
                out[i] = pile[:GRACE_ROW] + pile[GRACE_ROW + 1 :]
                f = self.up[suit(c)] if name == "ace" else self.down[suit(c)]
                out[f] = (c,)
            return State(tuple(out), state.vars._replace(grace_used=True), state.rng)
        src, dst = self.at[move.src or ""], self.at[move.dst or ""]
        out = list(piles)
        c = piles[src][-1]
        out[src] = piles[src][:-1]
        out[dst] = piles[dst] + (c,)
        return State(tuple(out), state.vars, state.rng)

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[FifteenVars]) -> dict[str, object]:
        return {"grace_used": state.vars.grace_used}

    def explain_card(self, state: State[FifteenVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        if src in self._found:
            return "cards never leave the foundations"
        if move.index is not None:
            return "only the exposed (lowest) card of a column is usable"
        pile = piles[src]
        if not pile:
            return self.generic_reason(state, move)
        c = pile[-1]
        if dst == src:
            return "a card cannot move onto its own column"
        target = piles[dst]
        if dst not in self._found and swaps(pile, target):
            if not target:
                return "moving the only card of a column into an empty column changes nothing"
            return (
                f"{move.src} without {pretty(c)} is just like {move.dst}: the move would "
                "only swap the two columns"
            )
        s = suit(c)
        if dst in self._found:
            kind = "A" if dst in self.up else "K"
            if (move.dst or "")[-1] != SUITS[s]:
                return f"{move.dst} is the foundation of another suit than {pretty(c)}"
            if not target:
                first = "an ace" if kind == "A" else "a king"
                return f"{move.dst} is founded by {first} of {SUIT_NAMES[s]}, not {pretty(c)}"
            if len(target) == 13:
                return f"{move.dst} is complete"
            nxt = target[-1] + (1 if kind == "A" else -1)
            return f"{move.dst} needs {pretty(nxt)}, not {pretty(c)}"
        if not target:
            return self.generic_reason(state, move)
        top = target[-1]
        if suit(top) != s:
            return f"a marriage is in suit: {pretty(c)} cannot go on {pretty(top)}"
        return (
            f"a marriage is one rank up or down (no king on ace): {pretty(c)} cannot go "
            f"on {pretty(top)}"
        )

    def explain_action(self, state: State[FifteenVars], move: Move) -> str:
        """Why this grace (the game's one action) is not allowed now."""
        piles = state.piles
        if state.vars.grace_used:
            return "the grace is granted once a game, and it is used"
        if any(piles[i] for i in self._found):
            return "the grace is only for a game that cannot start: a foundation is founded"
        for col, i in self._col_ids:
            if piles[i] and rank(piles[i][-1]) in (ACE, KING):
                return f"{pretty(piles[i][-1])} in {col} is available: play it instead"
        ace, king = move.param("ace"), move.param("king")
        if ace is None and king is None:
            return "name the column of the ace, of the king, or both"
        for name, cid, want in (("ace", ace, ACE), ("king", king, KING)):
            if cid is None:
                continue
            if cid not in COLUMNS:
                return f"{name} must name a column C1..C15, not {cid!r}"
            pile = piles[self.at[str(cid)]]
            if len(pile) <= GRACE_ROW:
                return f"{cid} has no sixth card covered by another"
            if not self._dealt_in_place(state, COLUMNS.index(cid)):
                return (
                    f"the sixth card of {cid} is not the one dealt there: the grace takes "
                    "only cards of the sixth row as dealt"
                )
            if rank(pile[GRACE_ROW]) != want:
                return (
                    f"the sixth card of {cid} is {pretty(pile[GRACE_ROW])}, not "
                    f"{'an ace' if want == ACE else 'a king'}"
                )
        return "this grace is not allowed now"


GAME = Fifteen()
