"""Картинная галерея — Picture Gallery (seed 000; docs/games/picture_gallery.md).

Two decks. One king heads the first pile; the pack is dealt card by card onto the
latest king, every new king starting a new pile, every queen going to the queen row
as decoration and every ace starting a foundation built up in suit to the jack. The
king piles are gathered unshuffled and dealt again: three passes in all.

Not PySolFC's game of that name: this is the seed's "king-headed piles" game.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import ACE, JACK, KING, QUEEN, SPADES, pretty, rank
from ..engine import Game, Move, Pile, Piles, State, as_stock, shuffled
from ..rules import Foundation, Foundations, moved

KINGS = tuple(f"K{i}" for i in range(1, 9))
ACES = tuple(f"A{i}" for i in range(1, 9))
#: the ace foundations, up in suit to the jacks
UP_TO_JACK = Foundation(ACE, 1, size=JACK)
DEAL = Move.act("deal")
REDEAL = Move.act("redeal")


class PictureGalleryVars(NamedTuple):
    redeals_left: int = 2


class PictureGallery(Game[PictureGalleryVars]):
    slug = "picture_gallery"
    title_en = "Picture Gallery"
    title_ru = "Картинная галерея"
    decks = 2
    summary = (
        "The pack is dealt onto king-headed piles; build eight aces up to the jacks in "
        "suit within three passes."
    )
    actions = frozenset({"deal", "redeal"})
    forced_actions = frozenset({"deal", "redeal"})
    target = 88  # 8 foundations A→J; kings and queens never reach a foundation
    Vars = PictureGalleryVars
    layout = (
        Pile("Q", "discard", 0, 0, label="queens", fan="right", name="pile.queens"),
        *(Pile(k, "tableau", i, 2, label=k, fan="down") for i, k in enumerate(KINGS)),
        *(Pile(a, "foundation", i, 1, label="A→J") for i, a in enumerate(ACES)),
        Pile("S", "stock", 8, 0, label="stock", show="down"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.queens = self.at["Q"]
        self.kings = tuple(self.at[k] for k in KINGS)
        self.aces = tuple(self.at[a] for a in ACES)
        self._found_rules = Foundations((a, self.at[a], UP_TO_JACK) for a in ACES)
        self.stock = self.at["S"]

    def deal(self, seed: int) -> State[PictureGalleryVars]:
        # Seed: "any king" heads the first pile; kings never move, so K♠ (lowest id).
        aside, pack, rng = shuffled(2, seed, set_aside=[(KING, SPADES)])
        return self.new_state({"K1": aside, "S": as_stock(pack)}, PictureGalleryVars(), rng)

    # -- legal moves ------------------------------------------------------------------

    def _covers(self, piles: Piles) -> list[Move]:
        """End of pass 1 or 2: a top card from a pile with 2+ cards on its king onto a
        bare king (seed: "no king may ever stay open")."""
        bare = [k for k, i in zip(KINGS, self.kings, strict=True) if len(piles[i]) == 1]
        if not bare:
            return []
        donors = [k for k, i in zip(KINGS, self.kings, strict=True) if len(piles[i]) > 2]
        return [Move(d, b) for d in donors for b in bare]

    def moves(self, state: State[PictureGalleryVars]) -> list[Move]:
        piles = state.piles
        wanted, _ = self._found_rules.wants(piles)  # an empty slot waits for a dealt ace
        legal: list[Move] = []
        if wanted:
            for k, i in zip(KINGS, self.kings, strict=True):
                pile = piles[i]
                if len(pile) > 1:
                    for a in wanted.get(pile[-1] % 52, ()):
                        legal.append(Move(k, a))
        if piles[self.stock]:
            legal.append(DEAL)
        elif state.vars.redeals_left:
            covers = self._covers(piles)
            legal.extend(covers or (REDEAL,))
        return legal

    # -- playing ----------------------------------------------------------------------

    def _route(self, piles: Piles, c: int) -> int:
        """Where a turned card goes (docs/games/picture_gallery.md: the first rule that applies)."""
        r = rank(c)
        if r == ACE:
            return next(i for i in self.aces if not piles[i])
        if r == QUEEN:
            return self.queens
        if r == KING:
            return next(i for i in self.kings if not piles[i])
        below = c % 52 - 1
        for i in self.aces:
            pile = piles[i]
            if pile and pile[-1] % 52 == below:
                return i
        current = self.kings[0]
        for i in self.kings:
            pile = piles[i]
            if len(pile) == 1:
                return i  # the leftmost bare king is covered first
            if pile:
                current = i
        return current

    def play(self, state: State[PictureGalleryVars], move: Move) -> State[PictureGalleryVars]:
        piles = state.piles
        if move.action == "deal":
            stock = piles[self.stock]
            c = stock[-1]
            dst = self._route(piles, c)
            out = list(piles)
            out[self.stock] = stock[:-1]
            out[dst] = piles[dst] + (c,)
            return State(tuple(out), state.vars, state.rng)
        if move.action == "redeal":
            # New stock, top first: K1, pile 1 bottom→top, K2, … (seed: gathered
            # "starting from the last, so that it again comes last", unshuffled).
            gathered = [c for i in self.kings for c in piles[i]]
            out = list(piles)
            for i in self.kings:
                out[i] = ()
            out[self.stock] = as_stock(gathered)
            return State(tuple(out), PictureGalleryVars(state.vars.redeals_left - 1), state.rng)
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]),
            state.vars,
            state.rng,
        )

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[PictureGalleryVars]) -> dict[str, object]:
        piles = state.piles
        current = [k for k, i in zip(KINGS, self.kings, strict=True) if piles[i]]
        return {
            "pass": 3 - state.vars.redeals_left,
            "redeals_left": state.vars.redeals_left,
            "current": current[-1] if current else None,
            "stock": len(piles[self.stock]),
        }

    def explain_action(self, state: State[PictureGalleryVars], move: Move) -> str:
        left = state.vars.redeals_left
        if move.action == "deal":
            if left:
                return "the stock is empty: cover any bare king, then redeal"
            return "the stock is empty and this was the third and last pass"
        if state.piles[self.stock]:  # redeal
            return "deal out the whole stock before gathering the piles"
        if not left:
            return "three passes are all: the piles may not be dealt a fourth time"
        return (
            "a bare king must be covered first: move a top card onto it from a "
            "pile holding two or more cards on its king"
        )

    def explain_card(self, state: State[PictureGalleryVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        left = state.vars.redeals_left
        stock = piles[self.stock]
        if src == self.queens:
            return "the queens are only decoration: nothing moves from the queen row"
        if src in self.aces:
            return "cards never leave the ace foundations"
        if src == self.stock:
            return "turn stock cards with the deal action"
        pile = piles[src]
        if len(pile) == 1:
            return "kings never move: they head their piles"
        if not pile:
            return self.generic_reason(state, move)
        c = pile[-1]
        if dst in self.aces:
            target = piles[dst]
            if not target:
                return f"{move.dst} is empty: a dealt ace takes the leftmost empty slot"
            top = target[-1]
            if rank(top) == JACK:
                return f"{move.dst} is complete: the ace rows end with the jacks"
            return f"{move.dst} needs {pretty(top + 1)}, not {pretty(c)}"
        if dst in self.kings:
            if stock:
                return (
                    "cards reach the king piles by dealing; bare kings are covered "
                    "only when the stock is empty"
                )
            if not left:
                return "after the third pass no king needs covering"
            if len(piles[dst]) != 1:
                return f"{move.dst} is not a bare king: only a bare king is covered"
            return f"{move.src} must keep at least one card on its king"
        return "cards go only onto the ace foundations or, to cover a bare king, a king pile"


GAME = PictureGallery()
