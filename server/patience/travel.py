"""The Travellers family (seed 004; docs/games/travellers*.md): written once, set per game.

Five patiences share one machine:

* the **counting deal** (:func:`count_deal`): cards go onto the table piles while the
  dealer counts ranks; a card that matches the count is set aside face down as a
  *traveller* (an *exile*) and the count does not advance;
* the **journey** (:func:`journey`): when play is stuck the last traveller set aside
  goes under the pile of its rank, that pile's top card goes under the pile of *its*
  rank, and so on until a playable card is uncovered or a pile's top already belongs
  to it;
* the **gathering** between deals: shuffled, or in a fixed order.

:class:`TravelGame` is the rules engine side: a game module sets its count, its
foundations, its reserve and how it gathers, and gets deal, moves, play, view and
reasons for illegal moves. Every step the player cannot choose (``travel``,
``next_row``, ``spread``, ``redeal``) is an explicit forced action, legal only when no
card can go to a foundation.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any, ClassVar, NamedTuple

from .cards import RANKS, SUIT_SYMBOLS, pretty, rank, suit
from .engine import Game, Move, Pile, State, as_stock, shuffled
from .rng import shuffle

# The family's modules take the four foundation directions from here.
from .rules import DOWN_FROM_ACE as DOWN_FROM_ACE
from .rules import DOWN_FROM_KING as DOWN_FROM_KING
from .rules import UP_FROM_ACE as UP_FROM_ACE
from .rules import UP_FROM_KING as UP_FROM_KING
from .rules import Foundation

#: A pile's rank as a player reads it on its label.
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: A base's rank in words (the bases of this family are aces or kings).
BASE_NAMES = {1: "ace", 13: "king"}

TRAVEL, NEXT_ROW, SPREAD, REDEAL = "travel", "next_row", "spread", "redeal"


def direction(rule: Foundation) -> str:
    """A foundation's direction as its first and last rank, e.g. ``"A→2"`` (A, K, …, 2)."""
    last = rule.first
    for _ in range(rule.size - 1):
        last = (last + rule.by - 1) % 13 + 1
    return f"{RANK_NAMES[rule.first]}→{RANK_NAMES[last]}"


class Count(NamedTuple):
    """How a counting deal counts (docs/games/travellers.md).

    ``ranks[i]`` is the rank called at position ``i`` (pile ``i`` stands for it).
    At position ``reserve_at`` the card goes to the reserve whatever it is, and the count
    advances (the Classic's and Cotillion's "king" slot). A card of rank ``bases`` goes
    straight to the base row wherever it comes, and the count stays (Cotillion's kings).
    """

    ranks: tuple[int, ...]
    reserve_at: int = -1
    bases: int = 0


class Dealt(NamedTuple):
    """Where a counting deal put the cards (each list bottom→top, in dealing order)."""

    piles: list[list[int]]
    travellers: list[int]
    reserve: list[int]
    bases: list[int]
    used: int


def count_deal(
    deck: Sequence[int],
    count: Count,
    piles: list[list[int]] | None = None,
    *,
    one_row: bool = False,
) -> Dealt:
    """Deal ``deck`` (``deck[0]`` first) by counting, onto ``piles`` (new empty piles by
    default; the lists are extended in place).

    With ``one_row`` the deal stops when the count comes round to its first position
    again (the Classic deals one count cycle per row); ``used`` says how many cards of
    ``deck`` were dealt. Every row starts counting from ``count.ranks[0]``.
    """
    ranks, reserve_at, bases_rank = count.ranks, count.reserve_at, count.bases
    n = len(ranks)
    if piles is None:
        piles = [[] for _ in range(n)]
    travellers: list[int] = []
    reserve: list[int] = []
    bases: list[int] = []
    i = 0
    for used, c in enumerate(deck, 1):
        r = c % 13 + 1
        if r == bases_rank:
            bases.append(c)
            continue
        if i == reserve_at:
            reserve.append(c)
        elif r == ranks[i]:
            travellers.append(c)  # seed: the next card is dealt with the same count
            continue
        else:
            piles[i].append(c)
        i = (i + 1) % n
        if one_row and i == 0:
            return Dealt(piles, travellers, reserve, bases, used)
    return Dealt(piles, travellers, reserve, bases, len(deck))


def journey(
    piles: list[list[int]],
    labels: Sequence[int],
    card: int,
    fits: Callable[[int], bool],
    spread: Container[int] = (),
) -> int:
    """Send ``card`` (a traveller that fits no foundation) on its journey, in place.

    ``labels[i]`` is the rank pile ``i`` stands for (0: none). The card goes under the
    pile of its rank; that pile's top card goes under the pile of its own rank, and so
    on (docs/games/travellers.md). The journey stops

    * (b) when the top of the pile just fed is already of that pile's rank;
    * (a) when taking a top card uncovers a card that ``fits`` a foundation;
    * when a card reaches a *spread* pile: it is simply added there (on top), where it
      is playable by itself.

    Returns the number of cards moved. It always ends: only cards of a pile's own rank
    are ever put into it, and every step that does not stop takes one card of another
    rank out of a pile.
    """
    where = {r: i for i, r in enumerate(labels) if r}
    p = where[rank(card)]
    steps = 1
    if p in spread:
        piles[p].append(card)
        return steps
    piles[p].insert(0, card)
    while True:
        pile = piles[p]
        x = pile[-1]
        if rank(x) == labels[p]:
            return steps  # (b)
        pile.pop()
        q = where[rank(x)]
        steps += 1
        if q in spread:
            piles[q].append(x)
            return steps
        piles[q].insert(0, x)
        if pile and fits(pile[-1]):
            return steps  # (a)
        p = q


class TravelVars(NamedTuple):
    """The public counters of a Travellers game."""

    deal: int = 1  # the deal in progress, from 1
    drawn: bool = False  # the top traveller is turned up and must go to a foundation
    spread: bool = False  # the reserve R lies spread (face up, every card playable)
    row: int = 0  # Classic: rows dealt in this deal


def travel_layout(
    labels: Sequence[int],
    directions: Sequence[Foundation],
    *,
    spread: Container[int] = (),
    reserve: bool = False,
    stock: bool = False,
    travellers: str = "travellers",
) -> tuple[Pile, ...]:
    """The family's piles: ``P1..Pn`` (squared, each labelled with its rank; a spread
    pile fans down, all face up), ``T`` (face down), optionally ``R`` (the kings'
    reserve, face down until spread) and ``S`` (the undealt deck), then ``F1..F8``.

    Cells: the foundations on row 0 (x 2..9) with ``T`` at the left and ``S`` at the
    right; the table piles on row 1; the reserve spreads to the right on row 2.
    """
    piles = [
        Pile(
            f"P{i + 1}",
            "tableau",
            i,
            1,
            label=RANK_NAMES[r] if r else "",
            fan="down" if i in spread else "none",
            show="up" if i in spread else "top",
        )
        for i, r in enumerate(labels)
    ]
    piles.append(Pile("T", "reserve", 0, 0, label=travellers, show="down", name="pile.travellers"))
    if reserve:
        piles.append(
            Pile(
                "R",
                "reserve",
                0,
                2,
                label="kings' reserve",
                fan="right",
                show="down",
                name="pile.kings_reserve",
            )
        )
    if stock:
        piles.append(Pile("S", "stock", 11, 0, label="deck", show="down"))
    piles.extend(
        Pile(f"F{k + 1}", "foundation", 2 + k, 0, label=direction(d))
        for k, d in enumerate(directions)
    )
    return tuple(piles)


class TravelGame(Game[TravelVars]):
    """A patience of the Travellers family; subclasses set the class attributes."""

    decks = 2
    Vars = TravelVars
    #: set per game by ``__init_subclass__``: the rules name ``next_row`` only for the
    #: Classic and ``spread`` only for the games with a kings' reserve
    actions = frozenset({TRAVEL, NEXT_ROW, SPREAD, REDEAL})
    forced_actions = actions

    #: the count of the deal; pile ``i`` stands for ``count.ranks[i]``
    count: ClassVar[Count]
    #: the eight foundations F1..F8 (suit free: set by the first card)
    directions: ClassVar[tuple[Foundation, ...]]
    #: cards taken out before the shuffle, in order, onto F1, F2, …
    set_aside: ClassVar[tuple[tuple[int, int], ...]] = ()
    #: bases laid during play, each suit claiming a pair (F1,F2), (F3,F4), …
    paired: ClassVar[bool] = False
    #: table piles whose cards lie spread (each playable)
    spread_piles: ClassVar[frozenset[int]] = frozenset()
    #: deals in all (the first and the redeals)
    deals: ClassVar[int] = 3
    #: when the reserve R is spread: "before" or "after" the travellers, or never (None)
    spread_reserve: ClassVar[str | None] = None
    #: a table pile whose cards are spread into R with it (Cotillion's kings' pile, the
    #: cards dealt at the call "king")
    kings_pile: ClassVar[int | None] = None
    #: deal in rows with a forced ``next_row`` between them (the Classic)
    in_rows: ClassVar[bool] = False
    #: gathering between deals: table piles in this order (default P1..Pn), then R
    gather_order: ClassVar[tuple[int, ...] | None] = None
    #: shuffle the gathered cards (continuing the game's generator)
    reshuffle: ClassVar[bool] = True
    #: what the set-aside cards are called ("traveller", "exile")
    word: ClassVar[str] = "traveller"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = {TRAVEL, REDEAL}
        if cls.in_rows:
            names.add(NEXT_ROW)
        if cls.spread_reserve:
            names.add(SPREAD)
        cls.actions = cls.forced_actions = frozenset(names)
        # Every table pile stands for its rank and T, R, S each have their own part:
        # only foundations of one direction may be renamed among themselves (a pair
        # of a suit may not: its twin claims the suit).
        found = [
            (p.id, d)
            for p, d in zip(
                (p for p in cls.layout if p.kind == "foundation"), cls.directions, strict=True
            )
        ]
        cls.alike = (
            ()
            if cls.paired
            else tuple(
                group
                for d in dict.fromkeys(cls.directions)
                if len(group := tuple(pid for pid, e in found if e == d)) > 1
            )
        )

    def __init__(self) -> None:
        super().__init__()
        n = sum(p.kind == "tableau" for p in self.layout)  # P1..Pn come first
        self.labels = self.count.ranks[:n]
        self.table = tuple(range(n))
        self.squared = tuple(i for i in self.table if i not in self.spread_piles)
        self.T = self.at["T"]
        self.R = self.at.get("R", -1)
        self.S = self.at.get("S", -1)
        self.F = tuple(self.at[f"F{k}"] for k in range(1, 9))
        self.f_rule = dict(zip(self.F, self.directions, strict=True))
        self.order = self.gather_order or self.table
        self._moves = {
            (s, d): Move.card(self.ids[s], self.ids[d])
            for s in (*self.table, self.T)
            for d in self.F
        }

    # -- dealing ------------------------------------------------------------------

    def deal(self, seed: int) -> State[TravelVars]:
        aside, pack, rng = shuffled(2, seed, set_aside=self.set_aside)
        piles: list[list[int]] = [[] for _ in self.layout]
        for f, c in zip(self.F, aside, strict=False):
            piles[f].append(c)
        return self._deal_out(piles, pack, rng, 1)

    def _deal_out(
        self, piles: list[list[int]], pack: list[int], rng: int, deal: int
    ) -> State[TravelVars]:
        """Deal ``pack`` (top first) onto emptied table piles: all of it by counting,
        or (Classic) into the deck ``S`` and then its first row."""
        if self.in_rows:
            piles[self.S] = list(as_stock(pack))
            return self._next_row(piles, rng, TravelVars(deal=deal))
        dealt = count_deal(pack, self.count, [piles[i] for i in self.table])
        piles[self.T] = dealt.travellers
        if self.R >= 0:
            piles[self.R] = dealt.reserve
        empty = [f for f in self.F if not piles[f]]
        for f, c in zip(empty, dealt.bases, strict=False):  # Cotillion: the leftmost free
            piles[f].append(c)
        return State(tuple(map(tuple, piles)), TravelVars(deal=deal), rng)

    def _next_row(self, piles: list[list[int]], rng: int, v: TravelVars) -> State[TravelVars]:
        deck = piles[self.S][::-1]
        dealt = count_deal(deck, self.count, [piles[i] for i in self.table], one_row=True)
        piles[self.T] = piles[self.T] + dealt.travellers
        piles[self.R] = piles[self.R] + dealt.reserve
        piles[self.S] = piles[self.S][: len(deck) - dealt.used]
        return State(tuple(map(tuple, piles)), v._replace(row=v.row + 1), rng)

    # -- foundations --------------------------------------------------------------

    def needs(self, piles: Sequence[Sequence[int]]) -> dict[int, list[int]]:
        """Which foundations take which card now: ``card % 52`` → F pile indices."""
        out: dict[int, list[int]] = {}
        rules = self.f_rule
        if not self.paired:
            opened: set[Foundation] = set()
            for f in self.F:
                pile = piles[f]
                if pile:
                    key = rules[f].takes(pile)
                    if key >= 0:
                        out.setdefault(key, []).append(f)
                elif rules[f] not in opened:
                    # A base laid during play goes to the leftmost empty F of the
                    # direction it takes (where directions differ, the player picks).
                    opened.add(rules[f])
                    for s in range(4):
                        out.setdefault(s * 13 + rules[f].first - 1, []).append(f)
            return out
        claimed: set[int] = set()
        opening: tuple[int, int] | None = None
        for a, b in zip(self.F[::2], self.F[1::2], strict=True):
            pa, pb = piles[a], piles[b]
            if not pa and not pb:
                opening = opening or (a, b)
                continue
            s = suit((pa or pb)[0])
            claimed.add(s)
            for f, pile in ((a, pa), (b, pb)):
                r = rules[f].needs(pile)
                if r:
                    out.setdefault(s * 13 + r - 1, []).append(f)
        if opening:
            for s in range(4):
                if s not in claimed:
                    for f in opening:
                        out.setdefault(s * 13 + rules[f].first - 1, []).append(f)
        return out

    # -- moves --------------------------------------------------------------------

    def spread_sources(self, state: State[TravelVars]) -> tuple[int, ...]:
        if state.vars.spread:
            return (*self.spread_piles, self.R)
        return tuple(self.spread_piles)

    def moves(self, state: State[TravelVars]) -> list[Move]:
        piles = state.piles
        needs = self.needs(piles)
        moves = self._moves
        if state.vars.drawn:
            return [moves[self.T, f] for f in needs.get(piles[self.T][-1] % 52, ())]
        legal = []
        for i in self.squared:
            pile = piles[i]
            if pile:
                for f in needs.get(pile[-1] % 52, ()):
                    legal.append(moves[i, f])
        for i in self.spread_sources(state):
            src = self.ids[i]
            for k, c in enumerate(piles[i]):
                for f in needs.get(c % 52, ()):
                    legal.append(Move.card(src, self.ids[f], index=k))
        if legal:
            return legal
        forced = self.forced_step(state)
        return [Move.act(forced)] if forced else []

    def forced_step(self, state: State[TravelVars]) -> str | None:
        """The step the rules take when no card can be played (or None: over)."""
        piles, v = state.piles, state.vars
        if self.in_rows and piles[self.S]:
            return NEXT_ROW
        can_spread = (
            self.spread_reserve
            and not v.spread
            and (piles[self.R] or (self.kings_pile is not None and piles[self.kings_pile]))
        )
        if can_spread and self.spread_reserve == "before":
            return SPREAD
        if piles[self.T]:
            return TRAVEL
        if can_spread:
            return SPREAD
        if v.deal < self.deals:
            return REDEAL
        return None

    def play(self, state: State[TravelVars], move: Move) -> State[TravelVars]:
        v: TravelVars = state.vars
        if move.action is None:
            src, dst = self.at[move.src or ""], self.at[move.dst or ""]
            out = list(state.piles)
            pile = out[src]
            k = len(pile) - 1 if move.index is None else move.index
            out[dst] = out[dst] + (pile[k],)
            out[src] = pile[:k] + pile[k + 1 :]
            return State(tuple(out), v._replace(drawn=False) if src == self.T else v, state.rng)
        piles = [list(p) for p in state.piles]
        if move.action == TRAVEL:
            needs = self.needs(state.piles)
            card = piles[self.T][-1]
            if card % 52 in needs:  # it must go to a foundation: the player picks which
                return State(state.piles, v._replace(drawn=True), state.rng)
            piles[self.T].pop()
            journey(
                [piles[i] for i in self.table],
                self.labels,
                card,
                lambda c: c % 52 in needs,
                self.spread_piles,
            )
            return State(tuple(map(tuple, piles)), v, state.rng)
        if move.action == NEXT_ROW:
            return self._next_row(piles, state.rng, v)
        if move.action == SPREAD:
            if self.kings_pile is not None:
                piles[self.R] += piles[self.kings_pile]
                piles[self.kings_pile] = []
                return State(tuple(map(tuple, piles)), v._replace(spread=True), state.rng)
            return State(state.piles, v._replace(spread=True), state.rng)
        return self._redeal(piles, state.rng, v.deal + 1)

    def _redeal(self, piles: list[list[int]], rng: int, deal: int) -> State[TravelVars]:
        pack = [c for i in self.order for c in piles[i]]
        if self.R >= 0:
            pack += piles[self.R]
            piles[self.R] = []
        for i in self.table:
            piles[i] = []
        if self.reshuffle:
            rng = shuffle(pack, rng)
        return self._deal_out(piles, pack, rng, deal)

    # -- view -----------------------------------------------------------------------

    def info(self, state: State[TravelVars]) -> dict[str, Any]:
        v: TravelVars = state.vars
        out: dict[str, Any] = {
            "deal": v.deal,
            "deals": self.deals,
            "redeals_left": self.deals - v.deal,
            "travellers": len(state.piles[self.T]),
            "drawn": v.drawn,
        }
        if self.R >= 0:
            out["reserve_spread"] = v.spread
        if self.in_rows:
            out["row"] = v.row
            out["stock"] = len(state.piles[self.S])
        return out

    def pile_view(self, state: State[TravelVars], i: int) -> dict[str, Any]:
        if i in self.f_rule:
            s = self.suit_of(state.piles, i)
            if s is None:
                return {}
            return {"base": RANKS[self.f_rule[i].first - 1] + "SHDC"[s]}
        if i == self.T and state.vars.drawn:
            return {"show": "top"}
        if i == self.R and state.vars.spread:
            return {"show": "up"}
        return {}

    def suit_of(self, piles: Sequence[Sequence[int]], f: int) -> int | None:
        """The suit foundation ``f`` builds (for a pair, the suit its twin claimed)."""
        if piles[f]:
            return suit(piles[f][0])
        if self.paired:
            k = self.F.index(f)
            twin = piles[self.F[k ^ 1]]
            if twin:
                return suit(twin[0])
        return None

    # -- reasons ----------------------------------------------------------------------

    def explain_action(self, state: State[TravelVars], move: Move) -> str:
        legal = self.legal_moves(state)
        if legal and legal[0].action is None:
            if state.vars.drawn:
                return self._drawn_reason(state)
            return f"{move.action!r} waits until no card can go to a foundation (e.g. {legal[0]})"
        return self._action_reason(state, move.action or "", self.forced_step(state))

    def explain_card(self, state: State[TravelVars], move: Move, src: int, dst: int) -> str:
        piles, v = state.piles, state.vars
        if src in self.f_rule:
            return "cards never leave a foundation"
        if dst not in self.f_rule:
            return "cards go only to the foundations F1–F8"
        if v.drawn and src != self.T:
            return self._drawn_reason(state)
        if src == self.T:
            return (
                f"the {self.word}s lie face down: when play is stuck, 'travel' turns up the top one"
            )
        if src == self.S:
            return "the deck is dealt row by row with 'next_row'"
        if src == self.R and not v.spread:
            return "the kings' reserve stays face down until it is spread"
        pile = piles[src]
        spread = src in self.spread_sources(state)
        if not pile:
            return f"pile {move.src} is empty"
        if spread and move.index is None:
            return (
                f"every card of {move.src} lies spread: name the one to play with "
                f"'index' (0 = bottom)"
            )
        if not spread and move.index is not None:
            return f"{move.src} is squared: only its top card plays (send no index)"
        if move.index is not None and not 0 <= move.index < len(pile):
            return f"pile {move.src} has no card at index {move.index}"
        c = pile[-1 if move.index is None else move.index]
        return f"{pretty(c)} does not fit {move.dst}: {self._wants(piles, dst, c)}"

    def _drawn_reason(self, state: State[TravelVars]) -> str:
        c = state.piles[self.T][-1]
        return f"the turned-up {self.word} {pretty(c)} must first go to a foundation"

    def _action_reason(self, state: State[TravelVars], action: str, forced: str | None) -> str:
        if forced is None:
            return "the last deal is over"
        if action == TRAVEL:
            return (
                f"no {self.word}s are left"
                if not state.piles[self.T]
                else (f"first {forced.replace('_', ' ')}")
            )
        if action == NEXT_ROW:
            return "the whole deck is dealt" if self.in_rows else "this game deals no rows"
        if action == SPREAD:
            if self.R < 0:
                return "this game has no reserve to spread"
            if state.vars.spread:
                return "the reserve is already spread"
            return f"the reserve is spread later: now {forced.replace('_', ' ')}"
        if state.vars.deal >= self.deals:
            return "this is the last deal"
        return f"the deal is not over: {forced.replace('_', ' ')} first"

    def _wants(self, piles: Sequence[Sequence[int]], f: int, card: int) -> str:
        rule, pile = self.f_rule[f], piles[f]
        if not self.paired:
            # Bases laid during play: any suit, each into the leftmost free foundation
            # of the direction the player chooses, as many of each way as there are.
            base = BASE_NAMES[rule.first]
            way = f"build {'up' if rule.by > 0 else 'down'}"
            free = [g for g in self.F if self.f_rule[g] == rule and not piles[g]]
            if rank(card) == rule.first and not free:
                kin = sum(d == rule for d in self.directions)
                return f"{'four' if kin == 4 else 'all'} {base}s already {way}"
            if rank(card) == rule.first and free[0] != f:
                return f"a new {base} to {way} goes to the leftmost free one, {self.ids[free[0]]}"
            if not pile:
                return f"it is empty: only {'an' if base == 'ace' else 'a'} {base} starts it"
        s = self.suit_of(piles, f)
        if pile and not rule.needs(pile):
            return "it is complete"
        r = rule.needs(pile)
        if s is not None:
            return f"it needs the {RANK_NAMES[r]}{SUIT_SYMBOLS[s]}"
        wanted = self.needs(piles)
        if any(f in fs for fs in wanted.values()):
            return f"it takes a {RANK_NAMES[r]} of a suit not yet founded"
        return f"new foundations open from the left: {RANK_NAMES[r]}s go further left first"
