"""The engine contract every patience implements, and the machinery they share.

A game is a stateless :class:`Game` object; all that changes lives in an immutable,
hashable :class:`State`::

    game = registry.get("crescent")
    state = game.deal(seed)
    for move in game.legal_moves(state): ...
    state = game.apply(state, move)          # IllegalMove(reason) if it is not legal
    game.status(state), game.score(state), game.view(state)
    game.loads(game.dumps(state)) == state

Exceptions::

    PatienceError
     ├── UnknownGame       registry.get() of a slug nobody registered
     ├── InvalidMove       a wire move of the wrong shape (protocol: bad_request)
     ├── IllegalMove       a well-formed move the rules forbid now (protocol: illegal_move)
     └── CorruptState      loads() of bytes that are not a state of this game

A game module declares its piles (:class:`Pile`), deals, lists its legal moves and
plays a move it knows is legal; legality is checked once, here, against the very
list ``legal_moves`` returns, so the two can never disagree.
"""

from __future__ import annotations

import contextlib
from collections import Counter, OrderedDict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeAlias, TypeVar

import msgpack

from protocol.i18n import action_key
from protocol.objects import Fan, PileKind
from protocol.status import GameStatus

from . import cards as C
from .names import pile_names
from .rng import check_seed, shuffle

#: a pile's kind and how its cards are drawn: the wire's words (the pile object)
Kind = PileKind
Show = Literal["up", "top", "down"]
#: a game's status: the protocol's enum (it compares equal to the plain strings)
Status = GameStatus
Param = str | int | None
Piles = tuple[tuple[int, ...], ...]

MOVE_CAP = 5000
#: positions whose legal moves each game keeps (see :meth:`Game.legal_moves`): enough
#: for one player's next move. A server raises it (:func:`keep_legal_moves`) to the games
#: in play at once between two moves of one; kept small, random play and search (which
#: keep nothing for long) spend less on garbage collection
#: (docs/history/performance-rounds.md)
LEGAL_CACHE = 256
#: ``bytes.translate`` table mapping a card id of either deck to its first-deck id
_MOD52 = bytes(c % 52 for c in range(256))
FORMAT = 1
CODES: tuple[str, ...] = tuple(C.code(c) for c in range(52 * 2))
_FROZENSET = 1


class PatienceError(Exception):
    """Root of every error the rules engine raises."""


class UnknownGame(PatienceError):
    def __init__(self, slug: str) -> None:
        super().__init__(f"no patience is called {slug!r}")
        self.slug = slug


class InvalidMove(PatienceError, ValueError):
    """A move whose wire form is malformed (wrong keys or types)."""


class IllegalMove(PatienceError):
    """A well-formed move that the rules forbid in this position; ``reason`` says why."""

    def __init__(self, move: Move, reason: str) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason


class CorruptState(PatienceError, ValueError):
    """Bytes given to ``loads`` that are not a state of this game."""


def keep_legal_moves(positions: int) -> None:
    """Let each game keep the legal moves of this many positions (at least the default)."""
    global LEGAL_CACHE
    LEGAL_CACHE = max(LEGAL_CACHE, positions)


class Move(NamedTuple):
    """A card move (``src`` → ``dst``) or an action with parameters.

    Build them with :meth:`card` and :meth:`act`; compare and hash them freely.
    """

    src: str | None = None
    dst: str | None = None
    index: int | None = None  # type: ignore[assignment]  # shadows tuple.index on purpose
    action: str | None = None
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def card(cls, src: str, dst: str, *, index: int | None = None) -> Move:
        return cls(src, dst, index)

    @classmethod
    def act(cls, action: str, **params: Param) -> Move:
        return cls(None, None, None, action, tuple(sorted(params.items())))

    def param(self, name: str) -> Param:
        for key, value in self.params:
            if key == name:
                return value
        return None

    def to_wire(self) -> dict[str, Any]:
        """The wire form (docs/protocol.md): ``{"from", "to"[, "index"]}`` or
        ``{"action", ...}``."""
        if self.action is not None:
            wire: dict[str, Any] = {"action": self.action}
            wire.update(self.params)
            return wire
        wire = {"from": self.src, "to": self.dst}
        if self.index is not None:
            wire["index"] = self.index
        return wire

    def __repr__(self) -> str:
        if self.action is not None:
            args = "".join(f", {k}={v!r}" for k, v in self.params)
            return f"Move.act({self.action!r}{args})"
        extra = "" if self.index is None else f", index={self.index}"
        return f"Move.card({self.src!r}, {self.dst!r}{extra})"

    def __str__(self) -> str:
        if self.action is not None:
            return " ".join([self.action, *(f"{k}={v}" for k, v in self.params)])
        at = "" if self.index is None else f"[{self.index}]"
        return f"{self.src}{at}>{self.dst}"


class Pile(NamedTuple):
    """How a pile looks: its id, kind and place, and how much of it a player sees.

    ``show``: ``"up"`` every card visible, ``"top"`` only the top card (a squared
    pile), ``"down"`` nothing (the stock).
    """

    id: str
    kind: Kind
    x: int
    y: int
    label: str = ""
    fan: Fan = "none"
    show: Show = "up"
    orient: str | None = None
    #: what players call the pile: a keyed message of the catalogues (``pile.hand``);
    #: "" names it by its kind (:data:`KIND_NAMES`)
    name: str = ""


#: a game's own variables: a NamedTuple of the game (:attr:`Game.Vars`), hashable
V = TypeVar("V", bound=tuple[Hashable, ...])


class State(NamedTuple, Generic[V]):
    """A position: the piles (bottom→top, in the game's pile order), the game's own
    variables (its :attr:`Game.Vars`), the generator state and the move count."""

    piles: Piles
    vars: V
    rng: int
    moves: int = 0


class NoVars(NamedTuple):
    """The variables of a game that has none besides its piles."""


def shuffled(
    decks: int, seed: int, *, set_aside: Iterable[tuple[int, int]] = ()
) -> tuple[list[int], list[int], int]:
    """The deal (docs/architecture.md, Deals): set aside the listed ``(rank, suit)``
    cards (lowest ids, in order), shuffle the rest with SplitMix64 from ``seed``.

    Returns ``(aside, pack, rng)`` where ``pack[0]`` is the top of the pack (dealt
    first) and ``rng`` the generator state to continue from.
    """
    cards = C.pack(decks)
    aside = C.take_out(cards, set_aside)
    rng = shuffle(cards, check_seed(seed))
    return aside, cards, rng


def rows(cards: Sequence[int], piles: int) -> list[list[int]]:
    """Row-wise deal: card k goes to pile ``k mod piles`` (bottom first)."""
    out: list[list[int]] = [[] for _ in range(piles)]
    for k, c in enumerate(cards):
        out[k % piles].append(c)
    return out


def as_stock(cards: Sequence[int]) -> tuple[int, ...]:
    """A face-down stock whose top (last element) is ``cards[0]``, dealt first."""
    return tuple(reversed(cards))


class Game(Generic[V]):
    """Base of every patience, generic in the game's own variables ``V`` (its
    :attr:`Vars`): ``class Crescent(Game[Vars])`` makes ``state.vars.shifts_left``
    type-check in that game. Subclasses set the class attributes and implement
    :meth:`deal`, :meth:`moves` and :meth:`play`; the rest is shared."""

    slug: ClassVar[str]
    title_en: ClassVar[str]
    title_ru: ClassVar[str]
    decks: ClassVar[int]
    summary: ClassVar[str] = ""
    layout: ClassVar[tuple[Pile, ...]]
    #: names of the actions the game knows (for parse_move)
    actions: ClassVar[frozenset[str]] = frozenset()
    #: the parameters each action takes (one left out means null); actions not listed
    #: take none
    action_params: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: actions with no alternative: a client may play them for the player
    forced_actions: ClassVar[frozenset[str]] = frozenset()
    #: cards that must reach the foundations to win (default: every card)
    target: ClassVar[int] = 0
    #: the NamedTuple of the game's own variables (:class:`NoVars` if it has none)
    Vars: type[V]
    #: fields of ``Vars`` that record the way to a position (e.g. the positions seen at
    #: earlier redeals), not the position itself: :meth:`position_key` leaves them out
    history: ClassVar[frozenset[str]] = frozenset()
    #: groups of piles a player may rename among themselves without changing the
    #: position; None: every kind is one group, except grid cells (their place
    #: matters). Piles left out of every group keep their place.
    alike: ClassVar[tuple[tuple[str, ...], ...] | None] = None
    #: cards can go round without end by the rules (a hand that takes and gives cards at
    #: any time): only the player's resigning, or the move cap, ends a blocked game
    endless: ClassVar[bool] = False

    def __init__(self) -> None:
        self.ids: tuple[str, ...] = tuple(p.id for p in self.layout)
        self.at: dict[str, int] = {p.id: i for i, p in enumerate(self.layout)}
        self.total = self.target or 52 * self.decks
        self._foundations = tuple(i for i, p in enumerate(self.layout) if p.kind == "foundation")
        self._stocks = tuple(i for i, p in enumerate(self.layout) if p.kind == "stock")
        #: the legal moves of recently seen positions, by identity: ``id(state)`` ->
        #: ``(state, moves)``. The one legal-move cache: an entry is an immutable tuple
        #: and each access one dict operation, so the tasks (and solver threads) sharing
        #: this object never see another position's moves. (No set of the moves: a
        #: position's list is searched once, by the move played from it, and a search
        #: of a few dozen moves costs less than building the set.)
        self._legal_cache: OrderedDict[int, tuple[State[V], tuple[Move, ...]]]
        self._legal_cache = OrderedDict()
        if self.alike is None:
            kinds: dict[str, list[int]] = {}
            for i, p in enumerate(self.layout):
                if p.kind != "grid":
                    kinds.setdefault(p.kind, []).append(i)
            groups = [tuple(ix) for ix in kinds.values()]
        else:
            groups = [tuple(self.at[pid] for pid in group) for group in self.alike]
        grouped = {i for group in groups for i in group}
        #: piles that may be renamed among themselves, and the piles whose place matters
        self._alike = tuple(groups)
        self._placed = tuple(i for i in range(len(self.layout)) if i not in grouped)
        self._kept_vars = tuple(
            i for i, name in enumerate(_fields(self.Vars)) if name not in self.history
        )
        #: what players call each pile (protocol: the pile's ``name`` and ``n``)
        self.names = pile_names(self.layout)
        #: per pile, the view's fields before and after ``cards`` (built once)
        self._view_parts = tuple(
            (
                {"id": p.id, "kind": p.kind, "label": p.label, "name": self.names[i][0]}
                | ({"n": self.names[i][1]} if self.names[i][1] is not None else {}),
                {"x": p.x, "y": p.y, "fan": p.fan}
                | ({"orient": p.orient} if p.orient is not None else {}),
            )
            for i, p in enumerate(self.layout)
        )

    def __repr__(self) -> str:
        return f"registry.get({self.slug!r})"

    def word_keys(self) -> set[str]:
        """The keyed messages a client says this game's piles and actions with (every
        one is in every catalogue: tests/i18n)."""
        keys = {name for name, _ in self.names}
        keys |= {f"info.{key}" for key in self.info(self.deal(1))}  # the view's counters
        for action in self.actions:
            declared = sorted(self.action_params.get(action, ()))
            for size in range(1 if declared else 0, len(declared) + 1):
                for given in combinations(declared, size):
                    keys.add(action_key(action, dict.fromkeys(given, "x"), declared))
        return keys

    # -- what a game implements -------------------------------------------------

    def deal(self, seed: int) -> State[V]:
        """The opening position of ``seed`` (an int in ``[0, 2**64)``)."""
        raise NotImplementedError

    def moves(self, state: State[V]) -> list[Move]:
        """Every legal move of a position still in play, in a deterministic order."""
        raise NotImplementedError

    def play(self, state: State[V], move: Move) -> State[V]:
        """Play a move known to be legal, then any forced steps that follow it."""
        raise NotImplementedError

    def is_lost(self, state: State[V]) -> bool:
        """A game-specific loss besides "no legal move" (e.g. a repeated position)."""
        return False

    def info(self, state: State[V]) -> dict[str, Any]:
        """Public game-specific counters for the view (e.g. redeals left)."""
        return {}

    def pile_view(self, state: State[V], i: int) -> dict[str, Any]:
        """Per-position overrides of a pile's view (``label``, ``base``, ``show``)."""
        return {}

    def explain(self, state: State[V], move: Move) -> str:
        """Why ``move`` is not legal now (called only for illegal moves, in play, and
        only for the game's own actions): an action's reason is
        :meth:`explain_action`'s, a card move's between two of the game's piles
        :meth:`explain_card`'s; a move naming a pile the game has not is refused by
        :meth:`generic_reason`."""
        if move.action is not None:
            return self.explain_action(state, move)
        src, dst = self.at.get(move.src or ""), self.at.get(move.dst or "")
        if src is None or dst is None:
            return self.generic_reason(state, move)
        return self.explain_card(state, move, src, dst)

    def explain_action(self, state: State[V], move: Move) -> str:
        """Why the action ``move`` (one of :attr:`actions`) is not allowed now."""
        return self.generic_reason(state, move)

    def explain_card(self, state: State[V], move: Move, src: int, dst: int) -> str:
        """Why the card move ``move`` from pile ``src`` to pile ``dst`` (their indices)
        is not legal now. A game says what its rules forbid and leaves the rest to
        :meth:`generic_reason`."""
        return self.generic_reason(state, move)

    def heuristic(self, state: State[V]) -> float:
        """Optional guidance for the solver: an estimate of the work left to win
        (lower is closer). Default: the cards not yet on the foundations."""
        return self.total - self.score(state)[0]

    def beam_estimate(self, state: State[V]) -> float:
        """Optional guidance for the solver's beam (a game's tuning sets ``beam``): how
        it ranks positions that made the same number of steps (deals), lower better.
        Default: :meth:`heuristic`."""
        return self.heuristic(state)

    def safe_moves(self, state: State[V]) -> list[Move]:
        """Legal moves that can never hurt: after any of them, the position can still
        be won whenever it could before (so a solver may play one and search no
        sibling, and a client may play them for the player). Each game states its own
        reading, with the reason it is safe; the default is none, the honest answer
        where nothing is provably safe. Every move listed is in :meth:`legal_moves`."""
        return []

    def trivial_line(self, state: State[V]) -> tuple[Move, ...] | None:
        """The rest of a game that is *trivially won*: each step the first of its
        :meth:`safe_moves` (what ``auto`` plays), or, with nothing left hidden, its
        only legal move, until the game is won; None when such steps do not win. No
        search and no choice: the one finish a ranked game accepts (docs/protocol.md,
        "Safe moves and auto-complete")."""
        line: list[Move] = []
        while True:
            status = self.status(state)
            if status != GameStatus.PLAYING:
                return tuple(line) if status == GameStatus.WON else None
            safe = self.safe_moves(state)
            if safe:
                move = safe[0]
            else:
                legal = self.legal_moves(state)
                if len(legal) != 1 or self.hidden(state):
                    return None
                move = legal[0]
            state = self.apply(state, move)
            line.append(move)

    def canonical(self, move: Move) -> Move:
        """The one spelling of ``move`` that ``legal_moves`` lists: parameters left out
        are null. A game whose moves have several spellings extends this."""
        names = self.action_params.get(move.action or "")
        if names and len(move.params) < len(names):
            given = dict(move.params)
            return Move.act(move.action or "", **{n: given.get(n) for n in names})
        return move

    # -- the shared contract ----------------------------------------------------

    def new_state(
        self, piles: Mapping[str, Iterable[int]], vars: V | None = None, rng: int = 0
    ) -> State[V]:
        """A state from a mapping of pile id → cards (bottom first); others empty."""
        unknown = set(piles) - set(self.at)
        if unknown:
            raise ValueError(f"unknown piles {sorted(unknown)}")
        return State(
            tuple(tuple(piles.get(pid, ())) for pid in self.ids),
            self.Vars() if vars is None else vars,
            rng,
        )

    def position_key(self, state: State[V]) -> Hashable:
        """The position as a player would describe it, as a hashable key: the piles of
        each :attr:`alike` group as a multiset (renaming piles of one kind changes
        nothing; grid cells keep their place), the two decks' copies of a card alike,
        and the game's variables less its :attr:`history`. No legal move may keep this
        key unchanged.
        """
        # Each pile as bytes (card ids are below 104): mapping the second deck onto the
        # first and comparing piles then run in C, which search spends most time on.
        if self.decks > 1:
            piles = [bytes(p).translate(_MOD52) for p in state.piles]
        else:
            piles = [bytes(p) for p in state.piles]
        vars_ = state.vars
        return (
            tuple(tuple(sorted(piles[i] for i in ix)) for ix in self._alike),
            tuple(piles[i] for i in self._placed),
            tuple(vars_[i] for i in self._kept_vars),
        )

    @staticmethod
    def card_moves(sources: Sequence[str], targets: Sequence[str]) -> dict[str, dict[str, Move]]:
        """``table[src][dst]``: the move of the top card of pile ``src`` onto pile
        ``dst``, built once for a game whose legal moves are such moves (a legal-move
        list is built for every position, and a lookup costs a seventh of building a
        :class:`Move`)."""
        return {src: {dst: Move(src, dst) for dst in targets if dst != src} for src in sources}

    def pile(self, state: State[V], pid: str) -> tuple[int, ...]:
        return state.piles[self.at[pid]]

    def legal_moves(self, state: State[V]) -> list[Move]:
        """Every move ``apply`` accepts now; empty once the game is over."""
        return list(self._legal_entry(state)[1])

    def _legal_entry(self, state: State[V]) -> tuple[State[V], tuple[Move, ...]]:
        cache = self._legal_cache
        entry = cache.get(id(state))
        if entry is not None and entry[0] is state:
            return entry
        entry = (state, tuple(self._legal(state)))
        if len(cache) >= LEGAL_CACHE:
            with contextlib.suppress(KeyError):  # another thread emptied it first
                cache.popitem(last=False)  # the oldest
        cache[id(state)] = entry
        return entry

    def successors(self, state: State[V]) -> Iterator[tuple[Move, State[V]]]:
        """For search: every legal move and the position after it, without the
        legality re-check (and the legal-move cache) of :meth:`apply`. A line found this
        way is replayed through ``apply`` before anyone trusts it."""
        moves = state.moves + 1
        for move in self._legal(state):
            after = self.play(state, move)
            yield move, State(after.piles, after.vars, after.rng, moves)

    def _legal(self, state: State[V]) -> list[Move]:
        if self.score(state)[0] == self.total or state.moves >= MOVE_CAP or self.is_lost(state):
            return []
        return self.moves(state)

    def apply(self, state: State[V], move: Move) -> State[V]:
        """The position after ``move``; raises :class:`IllegalMove` with a reason."""
        move = self.canonical(move)
        if move not in self._legal_entry(state)[1]:
            raise IllegalMove(move, self._reason(state, move))
        after = self.play(state, move)
        return State(after.piles, after.vars, after.rng, state.moves + 1)

    def _reason(self, state: State[V], move: Move) -> str:
        status = self.status(state)
        if status != GameStatus.PLAYING:
            return f"the game is over ({status})"
        if move.action is not None and move.action not in self.actions:
            return f"this game has no action {move.action!r}"
        return self.explain(state, move)

    def generic_reason(self, state: State[V], move: Move) -> str:
        """The reason any game gives, from the move's shape alone: an unknown pile,
        an empty one, a missing index, else "card from A cannot go to B now"."""
        if move.action is not None:
            return f"{move.action!r} is not allowed now"
        for pid in (move.src, move.dst):
            if pid not in self.at:
                return f"there is no pile {pid!r}"
        src = self.pile(state, move.src or "")
        if not src:
            return f"pile {move.src} is empty"
        if move.index is not None:
            if not 0 <= move.index < len(src):
                return f"pile {move.src} has no card at index {move.index}"
            card = src[move.index]
        else:
            card = src[-1]
        return f"{C.pretty(card)} from {move.src} cannot go to {move.dst} now"

    def status(self, state: State[V]) -> Status:
        if self.score(state)[0] == self.total:
            return GameStatus.WON
        return GameStatus.PLAYING if self._legal_entry(state)[1] else GameStatus.LOST

    def score(self, state: State[V]) -> tuple[int, int]:
        """``(cards on foundations, cards needed to win)``."""
        piles = state.piles
        return sum(len(piles[i]) for i in self._foundations), self.total

    def forced_move(self, state: State[V]) -> Move | None:
        """The only legal move when it is a forced action (deal, travel…), else None."""
        legal = self.legal_moves(state)
        if len(legal) == 1 and legal[0].action in self.forced_actions:
            return legal[0]
        return None

    def reveals(self, before: State[V], after: State[V]) -> bool:
        """Whether the move from ``before`` to ``after`` showed the player something
        they could not know before: a card that was not in sight (turned from the
        stock, uncovered under a squared pile's top), an order the generator chose (a
        shuffled redeal), or cards turned back into the stock (a redeal: the next
        deals come from it). A ranked or compared game never takes such a move back
        (docs/protocol.md, "Undo on ranked games")."""
        if after.rng != before.rng:
            return True
        stocks = self._stocks
        if any(len(after.piles[i]) > len(before.piles[i]) for i in stocks):
            return True
        seen = Counter(self.visible(before))
        return any(n > seen[card] for card, n in Counter(self.visible(after)).items())

    def visible(self, state: State[V]) -> list[str]:
        """The codes of the cards a player sees in :meth:`view` (face-down ones left
        out)."""
        return [
            code
            for i in range(len(self.layout))
            for code in self.view_pile(state, i)["cards"]
            if code is not None
        ]

    def hidden(self, state: State[V]) -> int:
        """How many cards of the position the player cannot see (face down)."""
        return sum(len(p) for p in state.piles) - len(self.visible(state))

    def show(self, state: State[V], i: int) -> Show:
        show: Show = self.pile_view(state, i).get("show", self.layout[i].show)
        return show

    def view(self, state: State[V]) -> dict[str, Any]:
        """What a player may see: face-down cards are None; no stock order, no rng."""
        pile = self.view_pile
        return {
            "piles": [pile(state, i) for i in range(len(self.layout))],
            "info": self.info(state),
        }

    def view_pile(self, state: State[V], i: int) -> dict[str, Any]:
        """Pile ``i`` of :meth:`view`. Unless a game overrides :meth:`pile_view`, it
        depends on the pile's cards alone (the server reuses its encoding)."""
        extra = self.pile_view(state, i)
        show = extra.pop("show", self.layout[i].show) if extra else self.layout[i].show
        before, after = self._view_parts[i]
        pile: dict[str, Any] = {**before, "cards": _shown(state.piles[i], show), **after}
        if extra:
            pile.update(extra)
        return pile

    def shown_cards(self, state: State[V], i: int) -> list[str | None]:
        """The ``cards`` of :meth:`view_pile` alone, for a game that does not override
        :meth:`pile_view` (its piles' other fields never change: a move's delta
        compares only these): one entry per card, None for a face-down one."""
        return _shown(state.piles[i], self.layout[i].show)

    # -- wire and persistence -----------------------------------------------------

    def parse_move(self, wire: Any) -> Move:
        """A :class:`Move` from its wire form (docs/protocol.md); raises
        :class:`InvalidMove`."""
        if not isinstance(wire, dict) or not all(isinstance(k, str) for k in wire):
            raise InvalidMove("a move is a map with string keys")
        if "action" in wire:
            action = wire["action"]
            if not isinstance(action, str):
                raise InvalidMove("'action' must be a string")
            if action not in self.actions:
                raise InvalidMove(f"{self.slug} has no action {action!r}")
            params = {k: v for k, v in wire.items() if k != "action"}
            extra = set(params) - self.action_params.get(action, frozenset())
            if extra:
                raise InvalidMove(f"{action!r} takes no parameter {sorted(extra)}")
            for key, value in params.items():
                if value is not None and (
                    isinstance(value, bool) or not isinstance(value, int | str)
                ):
                    raise InvalidMove(f"parameter {key!r} must be a string, an int or null")
            return self.canonical(Move.act(action, **params))
        extra = set(wire) - {"from", "to", "index", "n"}
        if extra:
            raise InvalidMove(f"unknown move fields {sorted(extra)}")
        src, dst = wire.get("from"), wire.get("to")
        if not isinstance(src, str) or not isinstance(dst, str):
            raise InvalidMove("a card move needs string 'from' and 'to'")
        index = wire.get("index")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
            raise InvalidMove("'index' must be an int")
        n = wire.get("n", 1)
        if n != 1 or isinstance(n, bool):
            raise InvalidMove("this game moves one card at a time ('n' must be 1)")
        return Move.card(src, dst, index=index)

    def dumps(self, state: State[V]) -> bytes:
        """Versioned bytes of ``state`` (msgpack; no pickles)."""
        data = [FORMAT, self.slug, state.piles, tuple(state.vars), state.rng, state.moves]
        packed: bytes = msgpack.packb(data, default=_encode)
        return packed

    def loads(self, data: bytes) -> State[V]:
        try:
            fmt, slug, piles, vars_, rng, moves = msgpack.unpackb(
                data, use_list=False, ext_hook=_decode, strict_map_key=False
            )
            if fmt != FORMAT or slug != self.slug or len(piles) != len(self.layout):
                raise CorruptState(f"not a {self.slug} state of format {FORMAT}")
            return State(piles, self.Vars(*vars_), rng, moves)
        except CorruptState:
            raise
        except Exception as exc:
            raise CorruptState(f"cannot read a {self.slug} state: {exc}") from exc


#: a game of any patience, as code serving every game sees it (the registry, the solver,
#: the services): its variables are the game's own, of a type unknown there
AnyGame: TypeAlias = "Game[Any]"
AnyState: TypeAlias = "State[Any]"


def _shown(cards: tuple[int, ...], show: Show) -> list[str | None]:
    """A pile's cards as a player sees them: codes, None for a face-down card."""
    if show == "up":
        return [CODES[c] for c in cards]
    if show == "top" and cards:
        return [None] * (len(cards) - 1) + [CODES[cards[-1]]]
    return [None] * len(cards)


def _fields(vars_type: type[tuple[Hashable, ...]]) -> tuple[str, ...]:
    """The field names of a game's :attr:`Game.Vars` (which must be a NamedTuple)."""
    names = getattr(vars_type, "_fields", None)
    if not isinstance(names, tuple) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"{vars_type.__name__} is not a NamedTuple")
    return names


def _encode(obj: object) -> msgpack.ExtType:
    if isinstance(obj, frozenset):
        return msgpack.ExtType(_FROZENSET, msgpack.packb(sorted(obj), default=_encode))
    raise TypeError(f"cannot persist {type(obj).__name__}")


def _decode(code: int, data: bytes) -> object:
    if code == _FROZENSET:
        return frozenset(msgpack.unpackb(data, use_list=False, ext_hook=_decode))
    raise CorruptState(f"unknown extension type {code}")
