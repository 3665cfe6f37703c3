"""Наполеон на острове Святой Елены — Napoleon at St Helena (seed 002; docs/games/st_helena.md).

Two decks. Forty cards lie in ten columns of four; the other 64 are the stock. Aces
found eight foundations, built up in suit to the kings. One card moves at a time: a
column's exposed card or the waste top goes onto a foundation, onto the exposed card
of the same suit one rank higher, or into an empty column. The stock is turned one
card at a time, once.

The seed prints only the second half of the rules (under a stray page heading
«Полушарія»); the first half, the deal, is Cadogan's.
"""

from __future__ import annotations

from ..cards import ACE, KING, pretty
from ..engine import Game, Move, NoVars, Pile, State, as_stock, rows, shuffled
from ..rules import UP_FROM_ACE, Foundations, exposed, moved, swaps, turned

COLUMNS = tuple(f"C{i}" for i in range(1, 11))
FOUNDATIONS = tuple(f"F{i}" for i in range(1, 9))
DEAL = Move.act("deal")
#: card id → the card (``% 52``) it is married onto: its suit's next rank up (-1: a king)
_UP = tuple(-1 if c % 13 == KING - 1 else c % 52 + 1 for c in range(104))


class StHelena(Game[NoVars]):
    slug = "st_helena"
    title_en = "Napoleon at St Helena"
    title_ru = "Наполеон на острове Святой Елены"
    decks = 2
    Vars = NoVars
    summary = (
        "Forty Thieves: ten columns of four; build down in suit one card at a time, "
        "eight aces up to the kings, the stock turned once."
    )
    actions = frozenset({"deal"})
    forced_actions = frozenset({"deal"})  # when it is the only move left
    layout = (
        Pile("S", "stock", 0, 0, label="stock", show="down"),
        Pile("X", "waste", 1, 0, label="waste"),
        *(Pile(f, "foundation", 2 + i, 0, label="A→K") for i, f in enumerate(FOUNDATIONS)),
        *(Pile(c, "tableau", i, 1, label=c, fan="down") for i, c in enumerate(COLUMNS)),
    )

    def __init__(self) -> None:
        super().__init__()
        self.stock = self.at["S"]
        self.waste = self.at["X"]
        self.columns = tuple(self.at[c] for c in COLUMNS)
        self.foundations = tuple(self.at[f] for f in FOUNDATIONS)
        self._col_ids = tuple(zip(COLUMNS, self.columns, strict=True))
        self._found_ids = tuple(zip(FOUNDATIONS, self.foundations, strict=True))
        self._found_rules = Foundations((f, i, UP_FROM_ACE) for f, i in self._found_ids)
        self._sources = (*self._col_ids, ("X", self.waste))
        first = self.foundations[0]
        assert self.foundations == tuple(range(first, first + len(FOUNDATIONS)))
        self._found_slice = slice(first, first + len(FOUNDATIONS))
        self._safe_cache: dict[tuple[tuple[int, ...], ...], dict[int, str]] = {}
        #: every card move, built once: ``self._to[src][dst]``
        self._to = {a: {b: Move(a, b) for b in self.ids if b != a} for a in self.ids}

    def deal(self, seed: int) -> State[NoVars]:
        _, pack, rng = shuffled(2, seed)
        piles: dict[str, list[int] | tuple[int, ...]] = dict(
            zip(COLUMNS, rows(pack[:40], 10), strict=True)
        )
        piles["S"] = as_stock(pack[40:])
        return self.new_state(piles, rng=rng)

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State[NoVars]) -> list[Move]:
        piles = state.piles
        # Available cards: each column's exposed card and the waste top.
        sources, tops, empty = exposed(piles, self._col_ids)
        waste = piles[self.waste]
        if waste:
            sources.append(("X", waste[-1] % 52))
        # Foundations: what each needs next (card % 52), empty ones take any ace.
        needs, free = self._found_rules.wants(piles)
        legal: list[Move] = []
        add = legal.append
        at = self.at
        for src, key in sources:
            to = self._to[src]
            # A move that only swaps two columns is no move (the waste swaps nothing).
            mine = piles[at[src]] if src != "X" else ()
            r = key % 13
            for f in free if r == ACE - 1 else needs.get(key, ()):
                add(to[f])
            # Seed: a marriage "in descending order": onto the same suit one higher.
            if r != KING - 1 and key + 1 in tops:
                for dst in tops[key + 1]:
                    if not swaps(mine, piles[at[dst]]):
                        add(to[dst])
            # Any available card may go to an empty column, but a column's only card
            # moving there changes nothing.
            if len(mine) != 1:
                for dst in empty:
                    add(to[dst])
        if piles[self.stock]:
            add(DEAL)
        return legal

    def heuristic(self, state: State[NoVars]) -> float:
        """For the solver: the cards not yet founded, less half a card for each card
        married in a column (lying on the card of its suit one rank higher, at the
        foot of the column). Married runs are what a Forty Thieves player builds: each
        frees a card to go where it is needed (measured against the plain count:
        docs/solver.md)."""
        piles = state.piles
        founded = 0
        for i in self.foundations:
            founded += len(piles[i])
        married = 0
        up = _UP
        for i in self.columns:
            pile = piles[i]
            n = len(pile) - 1
            while n > 0 and up[pile[n]] == pile[n - 1] % 52:
                married += 1
                n -= 1
        return self.total - founded - married / 2

    def beam_estimate(self, state: State[NoVars]) -> float:
        """For the solver's beam, which compares positions after the same number of
        deals: :meth:`heuristic` plus a quarter of a card for each card on the waste.
        Of two such positions the one that left fewer dealt cards on the waste has
        placed more of them (only the waste's top can ever move, so each card left
        there buries the ones below it). The A\\* does better without it (an estimate
        charging waste cards lost deals there: docs/solver.md); the beam does better
        with it (docs/solver.md, "Issue 24: st_helena (2026-11-26)")."""
        return self.heuristic(state) + len(state.piles[self.waste]) / 4

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        """An exposed card or the waste top onto a foundation, when both copies of
        the card of its suit one rank lower are founded already (always for an ace).

        Why it cannot spoil a win: only that lower card is ever married onto it, so
        the card has no use left but its foundation, and the foundations of one suit
        that reached the rank below it are alike (whichever copy goes first, the other
        takes the other pile). Taking it now only uncovers what lies under it, or
        leaves an empty column, which is only ever filled by choice."""
        piles = state.piles
        founds = piles[self._found_slice]
        wanted = self._safe_cache.get(founds)
        if wanted is None:
            wanted = self._safe_targets(founds)
        out: list[Move] = []
        for src, i in self._sources:
            pile = piles[i]
            if pile:
                to = wanted.get(pile[-1] % 52)
                if to is not None:
                    out.append(self._to[src][to])
        return out

    def _safe_targets(self, founds: tuple[tuple[int, ...], ...]) -> dict[int, str]:
        """``card % 52`` → the foundation it goes to safely, for these foundations
        (remembered: the foundations change far less often than the columns)."""
        # the card each suit's foundations make safe, and where it goes: the rank above
        # the lower top once both of the suit's foundations are started
        tops: dict[int, tuple[int, str]] = {}
        wanted: dict[int, str] = {}
        free: str | None = None
        for fid, pile in zip(FOUNDATIONS, founds, strict=True):
            if not pile:
                free = free or fid
                continue
            key = pile[-1] % 52
            other = tops.get(key // 13)
            if other is None:
                tops[key // 13] = (key, fid)
            elif key % 13 != KING - 1 or other[0] % 13 != KING - 1:
                low, at = min(other, (key, fid))
                wanted[low + 1] = at
        if free is not None:
            for suit in range(4):
                wanted[suit * 13 + ACE - 1] = free
        if len(self._safe_cache) >= 4096:
            self._safe_cache.clear()
        self._safe_cache[founds] = wanted
        return wanted

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State[NoVars], move: Move) -> State[NoVars]:
        piles = state.piles
        if move.action == "deal":
            stock, waste = turned(piles[self.stock], piles[self.waste])
            out = list(piles)
            out[self.stock], out[self.waste] = stock, waste
            return State(tuple(out), state.vars, state.rng)
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]),
            state.vars,
            state.rng,
        )

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[NoVars]) -> dict[str, object]:
        return {"stock": len(state.piles[self.stock]), "redeals_left": 0}

    def explain_action(self, state: State[NoVars], move: Move) -> str:
        return "the stock is used up: this patience is not dealt a second time"

    def explain_card(self, state: State[NoVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        if src in self.foundations:
            return "cards never leave the foundations"
        if src == self.stock:
            return "turn the stock with the deal action"
        if move.index is not None:
            return "only the exposed card of a column moves, one card at a time"
        pile = piles[src]
        if not pile:
            return self.generic_reason(state, move)
        c = pile[-1]
        if dst in (self.stock, self.waste):
            return "nothing is played onto the stock or the waste"
        if dst == src:
            return "a card cannot move onto its own pile"
        target = piles[dst]
        if dst in self.foundations:
            if not target:
                return f"an empty foundation takes only an ace, not {pretty(c)}"
            top = target[-1]
            if top % 13 == KING - 1:
                return f"{move.dst} is complete"
            return f"{move.dst} needs {pretty(top + 1)}, not {pretty(c)}"
        if src in self.columns and swaps(pile, target):
            if not target:
                return "moving the only card of a column into an empty column changes nothing"
            return (
                f"{move.src} without {pretty(c)} is just like {move.dst}: the move would "
                "only swap the two columns"
            )
        if not target:
            return self.generic_reason(state, move)
        top = target[-1]
        if top % 13 == ACE - 1:
            return f"nothing goes on an ace in a column ({pretty(top)} in {move.dst})"
        return f"build down in suit: only {pretty(top - 1)} goes on {pretty(top)}, not {pretty(c)}"


GAME = StHelena()
