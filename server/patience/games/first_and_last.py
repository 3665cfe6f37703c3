"""Первые и последние — First and Last (seed 000; docs/games/first_and_last.md).

Two decks. Eight cards lie in a top row and eight in a bottom row. Under each top
card, strictly left to right, a pile is built of the twelve following ranks (suits
ignored, K→A wraps) and closed by the top card itself: the first card is also the
last. The bottom row, the eighth top card and the card just turned from the stock
feed the current pile; the waste is redealt, shuffled, up to three times.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import RANKS, pretty, rank
from ..engine import Game, Move, Pile, Piles, State, as_stock, shuffled
from ..rng import shuffle
from ..rules import step

TOP = tuple(f"T{i}" for i in range(1, 9))
BOTTOM = tuple(f"B{i}" for i in range(1, 9))
BUILD = tuple(f"P{i}" for i in range(1, 9))
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


def name(r: int) -> str:
    return "10" if r == 10 else RANKS[r - 1]


class FirstAndLastVars(NamedTuple):
    redeals_left: int = 3


class FirstAndLast(Game[FirstAndLastVars]):
    slug = "first_and_last"
    title_en = "First and Last"
    title_ru = "Первые и последние"
    decks = 2
    summary = (
        "Under each of eight top cards build the twelve ranks that follow it, left to "
        "right, and close the pile with that card."
    )
    actions = frozenset({"deal", "redeal"})
    forced_actions = frozenset({"deal", "redeal"})
    Vars = FirstAndLastVars
    layout = (
        *(Pile(t, "reserve", i, 0, label=t) for i, t in enumerate(TOP)),
        *(Pile(p, "foundation", i, 1, label=p) for i, p in enumerate(BUILD)),
        *(Pile(b, "reserve", i, 2, label=b) for i, b in enumerate(BOTTOM)),
        Pile("S", "stock", 9, 0, label="stock", show="down"),
        Pile("X", "waste", 9, 1, label="waste"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.top = tuple(self.at[t] for t in TOP)
        self.bottom = tuple(self.at[b] for b in BOTTOM)
        self.build = tuple(self.at[p] for p in BUILD)
        self.t8 = self.top[7]
        self.stock = self.at["S"]
        self.waste = self.at["X"]
        # Vacancies are refilled T8 first, then the bottom row left to right.
        self.refill_order = (self.t8, *self.bottom)

    def deal(self, seed: int) -> State[FirstAndLastVars]:
        _, pack, rng = shuffled(2, seed)
        piles: dict[str, tuple[int, ...]] = {t: (c,) for t, c in zip(TOP, pack[:8], strict=True)}
        piles.update({b: (c,) for b, c in zip(BOTTOM, pack[8:16], strict=True)})
        piles["S"] = as_stock(pack[16:])
        return self.new_state(piles, FirstAndLastVars(), rng)

    # -- the current pile -------------------------------------------------------------

    def current(self, piles: Piles) -> int:
        """0-based index of the pile being built (8 once all are complete)."""
        for n, i in enumerate(self.build):
            if len(piles[i]) < 13:
                return n
        return 8

    def needed(self, piles: Piles, n: int) -> int:
        """The rank pile ``n`` needs next; 0 when it has no base (a vacant T8, F8)."""
        if n > 7:
            return 0
        pile = piles[self.build[n]]
        if pile:
            return step(rank(pile[-1]), 1, wrap=True)  # suits ignored, K→A wraps
        base = piles[self.top[n]]
        return step(rank(base[-1]), 1, wrap=True) if base else 0

    # -- legal moves ------------------------------------------------------------------

    def _fitting(self, piles: Piles) -> list[Move]:
        n = self.current(piles)
        need = self.needed(piles, n)
        if not need:
            return []
        dst = BUILD[n]
        fits: list[Move] = []
        t8 = piles[self.t8]
        if n < 7 and t8 and rank(t8[-1]) == need:
            fits.append(Move("T8", dst))  # first: the seed's preferred source (F4)
        for b, i in zip(BOTTOM, self.bottom, strict=True):
            pile = piles[i]
            if pile and rank(pile[-1]) == need:
                fits.append(Move(b, dst))
        return fits

    def moves(self, state: State[FirstAndLastVars]) -> list[Move]:
        piles = state.piles
        # Only T8 vs a B card is a real choice (docs/games/first_and_last.md): turning the stock
        # waits until every fitting card is placed.
        legal = self._fitting(piles)
        if piles[self.stock]:
            if not legal:
                legal.append(DEAL)
        elif piles[self.waste] and state.vars.redeals_left:
            legal.append(REDEAL)
        return legal

    # -- playing ----------------------------------------------------------------------

    def _settle(self, out: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        """Forced steps: refill vacancies from the waste top, close a pile whose twelve
        cards are placed with its top card, and give P8 a base (F8)."""
        for _ in range(2):
            for i in self.refill_order:
                if not out[i] and out[self.waste]:
                    out[i] = out[self.waste][-1:]
                    out[self.waste] = out[self.waste][:-1]
            n = self.current(tuple(out))
            if n < 8 and len(out[self.build[n]]) == 12:
                # Seed: "then the first pile is finished and the five lying above goes
                # onto it" — the top card closes its own pile.
                base = self.top[n]
                out[self.build[n]] = out[self.build[n]] + out[base]
                out[base] = ()
            else:
                break
        return tuple(out)

    def play(self, state: State[FirstAndLastVars], move: Move) -> State[FirstAndLastVars]:
        piles = state.piles
        out = list(piles)
        if move.action == "redeal":
            cards = list(piles[self.waste])  # bottom to top
            rng = shuffle(cards, state.rng)
            out[self.stock] = as_stock(cards)
            out[self.waste] = ()
            return State(tuple(out), FirstAndLastVars(state.vars.redeals_left - 1), rng)
        if move.action == "deal":
            c = piles[self.stock][-1]
            out[self.stock] = piles[self.stock][:-1]
            n = self.current(piles)
            if rank(c) == self.needed(piles, n):
                dst = self.build[n]
            else:
                # A vacancy exists only while the waste is empty (F5).
                dst = next((i for i in self.refill_order if not piles[i]), self.waste)
            out[dst] = piles[dst] + (c,)
        else:
            src, dst = self.at[move.src or ""], self.at[move.dst or ""]
            out[dst] = piles[dst] + piles[src][-1:]
            out[src] = ()
        return State(self._settle(out), state.vars, state.rng)

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[FirstAndLastVars]) -> dict[str, object]:
        piles = state.piles
        n = self.current(piles)
        need = self.needed(piles, n)
        return {
            "pile": BUILD[n] if n < 8 else None,
            "needs": RANKS[need - 1] if need else None,
            "redeals_left": state.vars.redeals_left,
            "pass": 4 - state.vars.redeals_left,
        }

    def explain_action(self, state: State[FirstAndLastVars], move: Move) -> str:
        piles = state.piles
        if move.action == "deal":
            if not piles[self.stock]:
                if piles[self.waste] and state.vars.redeals_left:
                    return "the stock is empty: redeal the waste"
                return "the stock is empty"
            fits = self._fitting(piles)
            return f"a fitting card must be placed first ({fits[0]})"
        if piles[self.stock]:  # redeal
            return "turn the whole stock before redealing the waste"
        if not state.vars.redeals_left:
            return "the waste has been redealt three times already"
        return "the waste is empty: there is nothing to redeal"

    def explain_card(self, state: State[FirstAndLastVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        n = self.current(piles)
        sid = move.src or ""
        if sid in TOP[:7]:
            return f"{sid} never moves: it waits to close its own pile"
        if sid == "T8" and n >= 7:
            return "T8 is the base of P8 now: it closes that pile at the end"
        if sid == "X":
            return "the waste top is not playable: it only refills T8 and the bottom row"
        if sid == "S":
            return "turn stock cards with the deal action"
        if sid in BUILD:
            return "cards never leave the build piles"
        if not piles[src]:
            return self.generic_reason(state, move)
        if move.dst not in BUILD:
            return "cards go only onto the pile being built"
        if n > 7:
            return "every pile is complete"
        if move.dst != BUILD[n]:
            return f"only {BUILD[n]} is being built now (strictly left to right)"
        need = self.needed(piles, n)
        c = piles[src][-1]
        if not need:
            return "P8 has no base yet: the next card turned becomes T8"
        return f"{BUILD[n]} needs a {name(need)} (any suit), not {pretty(c)}"


GAME = FirstAndLast()
