"""Полушария — The Hemispheres (docs/games/hemispheres.md; Cadogan's rules).

Seed 002 prints only the heading «Полушарія» (a stray page header); the game itself
comes from Lady Cadogan's *Illustrated Games of Patience*. Two decks. Four red aces
build up and four black kings build down, in suit. Twelve piles stand in a circle cut
by four barrier cards: the red kings part the north (proper colour red) from the
south (black), the black aces part each hemisphere into two races of three piles.
Proper-coloured cards marry in suit inside their race (red down in the north, black
up in the south); a black card alone in the north and a red card alone in the south
may be exchanged. Empty piles are refilled by the next cards turned from the stock.
When the stock is used up (whatever lies on the waste), wrong-coloured cards may cross
to their own hemisphere and the barriers go to the foundations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, SPADES, is_red, pretty
from ..engine import Game, Move, NoVars, Pile, Piles, State, as_stock, shuffled
from ..rules import DOWN_FROM_KING, UP_FROM_ACE, Foundations, moved, swaps

RED = ("FR1", "FR2", "FR3", "FR4")
BLACK = ("FB1", "FB2", "FB3", "FB4")
BARRIERS = ("BW", "BN", "BE", "BS")
CIRCLE = tuple(f"P{i}" for i in range(1, 13))
NORTH, SOUTH = CIRCLE[:6], CIRCLE[6:]
RACES = ("NW", "NE", "SE", "SW")
#: set aside in this order: FR1..FR4, FB1..FB4, then BW BN BE BS.
SET_ASIDE = (
    (ACE, HEARTS),
    (ACE, HEARTS),
    (ACE, DIAMONDS),
    (ACE, DIAMONDS),
    (KING, SPADES),
    (KING, SPADES),
    (KING, CLUBS),
    (KING, CLUBS),
    (KING, HEARTS),
    (ACE, SPADES),
    (KING, DIAMONDS),
    (ACE, CLUBS),
)
DEAL = Move.act("deal")
#: The circle drawn on the rim of a 5×5 square (y shifted by one), clockwise from the
#: west barrier: BW, P1 P2 P3 (race NW), BN, P4 P5 P6 (NE), BE, P7 P8 P9 (SE), BS,
#: P10 P11 P12 (SW).
RIM = (
    (0, 3),
    (0, 2),
    (0, 1),
    (1, 1),
    (2, 1),
    (3, 1),
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 4),
    (4, 5),
    (3, 5),
    (2, 5),
    (1, 5),
    (0, 5),
    (0, 4),
)
RING = (
    "BW",
    "P1",
    "P2",
    "P3",
    "BN",
    "P4",
    "P5",
    "P6",
    "BE",
    "P7",
    "P8",
    "P9",
    "BS",
    "P10",
    "P11",
    "P12",
)
CELL = dict(zip(RING, RIM, strict=True))
#: ``is_red`` of every card id, looked up on the search's hot path (moves, safe moves)
RED_CARD = tuple(is_red(c) for c in range(104))


def _race(pid: str) -> str:
    return RACES[(int(pid[1:]) - 1) // 3]


class Hemispheres(Game[NoVars]):
    slug = "hemispheres"
    title_en = "The Hemispheres"
    title_ru = "Полушария"
    decks = 2
    Vars = NoVars
    summary = (
        "Twelve piles in a circle cut by four barriers: red cards are played in the "
        "north, black in the south; red aces build up, black kings down."
    )
    actions = frozenset({"deal", "swap"})
    action_params: ClassVar[Mapping[str, frozenset[str]]] = {"swap": frozenset({"a", "b"})}
    forced_actions = frozenset({"deal"})  # when it is the only move left
    #: piles are alike only inside their race; each barrier keeps its place
    alike = (RED, BLACK, *(CIRCLE[i : i + 3] for i in range(0, 12, 3)))
    layout = (
        *(Pile(f, "foundation", i, 0, label="A↑") for i, f in enumerate(RED)),
        *(Pile(f, "foundation", i, 6, label="K↓") for i, f in enumerate(BLACK)),
        *(
            Pile(b, "reserve", *CELL[b], label=f"barrier {b[1]}", name="pile.barrier")
            for b in BARRIERS
        ),
        *(Pile(p, "tableau", *CELL[p], label=f"{p} {_race(p)}", fan="down") for p in CIRCLE),
        Pile("S", "stock", 6, 1, label="stock", show="down"),
        Pile("X", "waste", 6, 2, label="waste"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.red = tuple(self.at[f] for f in RED)
        self.black = tuple(self.at[f] for f in BLACK)
        self.barriers = tuple(self.at[b] for b in BARRIERS)
        self.circle = tuple(self.at[p] for p in CIRCLE)
        self.stock = self.at["S"]
        self.waste = self.at["X"]
        # the red aces build up, the black kings down
        self._found_rules = Foundations(
            (f, self.at[f], UP_FROM_ACE if f in RED else DOWN_FROM_KING) for f in RED + BLACK
        )
        self._barrier_ids = tuple(zip(BARRIERS, self.barriers, strict=True))
        #: every card move, built once: ``self._to[src][dst]``
        self._to = {a: {b: Move(a, b) for b in self.ids if b != a} for a in self.ids}
        # (pile id, pile index, north?, race number) for P1..P12
        self._circle = tuple(
            (p, i, n < 6, n // 3) for n, (p, i) in enumerate(zip(CIRCLE, self.circle, strict=True))
        )

    def deal(self, seed: int) -> State[NoVars]:
        aside, pack, rng = shuffled(2, seed, set_aside=SET_ASIDE)
        piles: dict[str, tuple[int, ...]] = {
            pid: (c,) for pid, c in zip(RED + BLACK + BARRIERS, aside, strict=True)
        }
        piles.update({p: (c,) for p, c in zip(CIRCLE, pack[:12], strict=True)})
        piles["S"] = as_stock(pack[12:])
        return self.new_state(piles, rng=rng)

    # -- legal moves ------------------------------------------------------------------

    def moves(self, state: State[NoVars]) -> list[Move]:
        piles = state.piles
        end = not piles[self.stock]
        needs, _ = self._found_rules.wants(piles)
        # Available (proper-coloured) tops by card % 52 → (pile id, race).
        tops: dict[int, list[tuple[str, int]]] = {}
        sources: list[tuple[str, int, bool, int]] = []  # (pid, card, north, race)
        strays: list[tuple[str, int, bool]] = []  # wrong-coloured lone cards
        empty_north: list[str] = []
        empty_south: list[str] = []
        for pid, i, north, race in self._circle:
            pile = piles[i]
            if not pile:
                (empty_north if north else empty_south).append(pid)
                continue
            c = pile[-1]
            if RED_CARD[c] == north:
                tops.setdefault(c % 52, []).append((pid, race))
                sources.append((pid, c, north, race))
            elif len(pile) == 1:
                strays.append((pid, c, north))
        legal: list[Move] = []
        add = legal.append
        for src, c, north, race in sources:
            key = c % 52
            to = self._to[src]
            for f in needs.get(key, ()):
                add(to[f])
            # Marriage in suit inside the race: red down in the north, black up in the
            # south; never one that only swaps two piles (8♥ 7♥ onto a lone 8♥).
            mine = piles[self.at[src]]
            onto = key + 1 if north else key - 1
            if key % 13 != (KING - 1 if north else ACE - 1):
                for d, r in tops.get(onto, ()):
                    if r == race and not swaps(mine, piles[self.at[d]]):
                        add(to[d])
        waste = piles[self.waste]
        if waste:
            c = waste[-1]
            key = c % 52
            to = self._to["X"]
            for f in needs.get(key, ()):
                add(to[f])
            # The waste top may marry into any race of its own hemisphere.
            if RED_CARD[c]:
                if key % 13 != KING - 1:
                    for d, _ in tops.get(key + 1, ()):
                        add(to[d])
            elif key % 13 != ACE - 1:
                for d, _ in tops.get(key - 1, ()):
                    add(to[d])
        # Exchange: a black card alone in the north for a red card alone in the south.
        north_strays = [pid for pid, _, north in strays if north]
        south_strays = [pid for pid, _, north in strays if not north]
        legal.extend(Move.act("swap", a=a, b=b) for a in north_strays for b in south_strays)
        if end:
            legal.extend(self._end_moves(piles, needs, tops, strays, empty_north, empty_south))
        elif piles[self.stock]:
            legal.append(DEAL)
        return legal

    def _end_moves(
        self,
        piles: Piles,
        needs: dict[int, list[str]],
        tops: dict[int, list[tuple[str, int]]],
        strays: list[tuple[str, int, bool]],
        empty_north: list[str],
        empty_south: list[str],
    ) -> list[Move]:
        """The stock used up: strays cross home, barriers go to the foundations."""
        legal: list[Move] = []
        for src, c, north in strays:
            key = c % 52
            if north:  # a black card going south
                legal.extend(Move(src, d) for d in empty_south)
                if key % 13 != ACE - 1:
                    legal.extend(Move(src, d) for d, _ in tops.get(key - 1, ()))
            else:  # a red card going north
                legal.extend(Move(src, d) for d in empty_north)
                if key % 13 != KING - 1:
                    legal.extend(Move(src, d) for d, _ in tops.get(key + 1, ()))
        for bid, i in self._barrier_ids:
            pile = piles[i]
            if pile:
                legal.extend(Move(bid, f) for f in needs.get(pile[-1] % 52, ()))
        return legal

    def heuristic(self, state: State[NoVars]) -> float:
        """The cards not founded, and a tenth of a card for each card on the waste:
        only its top is ever free, so every card left there may block others."""
        piles = state.piles
        return self.total - self.score(state)[0] + len(piles[self.waste]) / 10

    def safe_moves(self, state: State[NoVars]) -> list[Move]:
        """A card onto the foundation of its suit that is furthest behind (a red card
        one above the lower of its suit's two tops, a black one one below the higher),
        from the waste, from a circle pile where it lies on another card, or from any
        circle pile once the stock is used up.

        Why it cannot spoil a win: only the card one step back towards its foundation's
        base (7♥ for an 8♥, 5♠ for a 4♠) is ever married onto it, and both copies of
        that card are founded already, so the card has no use left but its foundation
        (both foundations of a suit build alike: whichever copy goes first, the other
        takes the other pile). Taking it now only uncovers what lies under it. It must
        not empty a pile while cards are still dealt: an empty pile takes the next card
        turned, which could then lie there wrong-coloured instead of on the waste; a
        card lying on another in a circle pile can never come to lie alone, and one on
        the waste moves only onto a foundation or another card."""
        piles = state.piles
        low: dict[int, int] = {}  # red suit -> the lower top rank of its foundations
        for i in self.red:
            top = piles[i][-1]
            s, r = (top % 52) // 13, top % 13 + 1
            low[s] = min(low.get(s, 13), r)
        high: dict[int, int] = {}  # black suit -> the higher top rank
        for i in self.black:
            top = piles[i][-1]
            s, r = (top % 52) // 13, top % 13 + 1
            high[s] = max(high.get(s, 1), r)
        end = not piles[self.stock]
        out: list[Move] = []

        def fit(src: str, c: int) -> None:
            s, r = (c % 52) // 13, c % 13 + 1
            if RED_CARD[c]:
                if r == low[s] + 1:
                    out.extend(self._to[src][f] for f in self._wants(piles, self.red, c - 1)[:1])
            elif r == high[s] - 1:
                out.extend(self._to[src][f] for f in self._wants(piles, self.black, c + 1)[:1])

        waste = piles[self.waste]
        if waste:
            fit("X", waste[-1])
        for pid, i, north, _ in self._circle:
            pile = piles[i]
            if pile and (end or len(pile) > 1) and RED_CARD[pile[-1]] == north:
                fit(pid, pile[-1])
        return out

    def _wants(self, piles: Piles, found: tuple[int, ...], top: int) -> list[str]:
        """The foundations among ``found`` whose top is ``top`` (either deck)."""
        return [self.ids[i] for i in found if piles[i][-1] % 52 == top % 52]

    # -- playing ----------------------------------------------------------------------

    def play(self, state: State[NoVars], move: Move) -> State[NoVars]:
        piles = state.piles
        out = list(piles)
        if move.action == "deal":
            stock = piles[self.stock]
            c = stock[-1]
            out[self.stock] = stock[:-1]
            # The turned card fills the first empty circle pile, else goes to the waste.
            dst = next((i for i in self.circle if not piles[i]), self.waste)
            out[dst] = piles[dst] + (c,)
            return State(tuple(out), state.vars, state.rng)
        if move.action == "swap":
            a, b = self.at[str(move.param("a"))], self.at[str(move.param("b"))]
            out[a], out[b] = piles[b], piles[a]
            return State(tuple(out), state.vars, state.rng)
        return State(
            moved(piles, self.at[move.src or ""], self.at[move.dst or ""]),
            state.vars,
            state.rng,
        )

    # -- the wire ---------------------------------------------------------------------

    def canonical(self, move: Move) -> Move:
        """A ``swap`` names the north pile ``a`` and the south pile ``b``; the other
        order means the same exchange."""
        move = super().canonical(move)
        if move.action == "swap":
            a, b = move.param("a"), move.param("b")
            if a in SOUTH and b in NORTH:
                return Move.act("swap", a=b, b=a)
        return move

    # -- what a player sees -----------------------------------------------------------

    def info(self, state: State[NoVars]) -> dict[str, object]:
        piles = state.piles
        return {
            "stock": len(piles[self.stock]),
            "end_phase": not piles[self.stock],
        }

    def pile_view(self, state: State[NoVars], i: int) -> dict[str, Any]:
        spec = self.layout[i]
        if spec.kind == "foundation":
            return {"base": "up in suit to K" if spec.id[1] == "R" else "down in suit to A"}
        return {}

    def explain_action(self, state: State[NoVars], move: Move) -> str:
        if move.action == "deal":
            return "the stock is used up: this patience is not dealt a second time"
        return self._explain_swap(state, move)

    def explain_card(self, state: State[NoVars], move: Move, src: int, dst: int) -> str:
        piles = state.piles
        end = not piles[self.stock]
        sid, did = move.src or "", move.dst or ""
        if src in self.red + self.black:
            return "cards never leave the foundations"
        if src == self.stock:
            return "turn the stock with the deal action"
        if move.index is not None:
            return "only the top card of a pile moves"
        if dst in (self.stock, self.waste) or dst in self.barriers:
            return f"nothing is played onto {did}"
        pile = piles[src]
        if not pile:
            return self.generic_reason(state, move)
        c = pile[-1]
        if src in self.barriers and not end:
            return "the barriers go to the foundations only when the stock is used up"
        target = piles[dst]
        if dst in self.red + self.black:
            if src in self.circle and is_red(c) != (sid in NORTH):
                return self._stray_reason(c, sid)
            if (did[1] == "R") != is_red(c):
                if is_red(c):
                    return f"red cards go up on the red foundations, not on {did}"
                return f"black cards go down on the black foundations, not on {did}"
            top = target[-1]
            if len(target) == 13:
                return f"{did} is complete"
            if (top % 52) // 13 != (c % 52) // 13:
                return f"{did} is built in suit from {pretty(target[0])}: not {pretty(c)}"
            nxt = top + 1 if did[1] == "R" else top - 1
            return f"{did} needs {pretty(nxt)}, not {pretty(c)}"
        # dst is a circle pile
        if src in self.circle and is_red(c) != (sid in NORTH):
            if not end:
                return self._stray_reason(c, sid)
            home = "south" if sid in NORTH else "north"
            if (did in NORTH) == (sid in NORTH):
                return f"{pretty(c)} may only cross to its own hemisphere, the {home}"
        if not target:
            if end:
                return (
                    "only a wrong-coloured card from the other hemisphere goes into an empty pile"
                )
            return "an empty pile is refilled only from the stock, by dealing"
        top = target[-1]
        if is_red(top) != (did in NORTH):
            return f"nothing is built on a wrong-coloured card ({pretty(top)} in {did})"
        if is_red(c) != (did in NORTH):
            return "red cards are built in the north (P1–P6), black in the south (P7–P12)"
        if src in self.circle and is_red(c) == (sid in NORTH) and _race(sid) != _race(did):
            return (
                f"marriages stay inside a race of three piles: {sid} is in race "
                f"{_race(sid)}, {did} in race {_race(did)}"
            )
        if src in self.circle and swaps(piles[src], target):
            return f"{sid} without {pretty(c)} is just like {did}: the move would only swap them"
        if is_red(c):
            return f"in the north a red card goes on the same suit one higher, not on {pretty(top)}"
        return f"in the south a black card goes on the same suit one lower, not on {pretty(top)}"

    @staticmethod
    def _stray_reason(c: int, pid: str) -> str:
        where = "north" if pid in NORTH else "south"
        return (
            f"{pretty(c)} is the wrong colour for the {where}: it can only be exchanged "
            "(swap) until the stock is used up"
        )

    def _explain_swap(self, state: State[NoVars], move: Move) -> str:
        piles = state.piles
        a, b = move.param("a"), move.param("b")
        if a not in NORTH or b not in SOUTH:
            return "swap a north pile (a: P1–P6) with a south pile (b: P7–P12)"
        pa, pb = piles[self.at[str(a)]], piles[self.at[str(b)]]
        if len(pa) != 1 or is_red(pa[0]):
            return f"{a} must hold a black card alone"
        if len(pb) != 1 or not is_red(pb[0]):
            return f"{b} must hold a red card alone"
        return "this exchange is not allowed now"


GAME = Hemispheres()
