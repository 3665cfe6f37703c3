"""A game as the server keeps it: the record stored in Redis (a hash: seed, player,
mode, seq, status, the state bytes, timestamps, score; and a log of its moves), and
what is decided from a record alone: a change of its position (:func:`step`), its
time, whether its result is compared with others', whether it ended by the rules,
the moves in force after its undos.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError, pack, unpack

from ..patience import registry
from ..patience.engine import AnyGame, AnyState, Move, UnknownGame

UNDO = pack({"undo": 1})
RESIGN = pack({"resign": 1})
SUMMARY_FIELDS = [
    "slug",
    "mode",
    "status",
    "seq",
    "moves",
    "foundation",
    "total",
    "created",
    "updated",
    "date",
    "ranked",
    "clean",
    "auto",
    "out",
    "active",
    "assisted",
]
#: why a game ended other than by its rules (a game ``lost`` with no ``out`` had no
#: move left): the player resigned, or the server gave it up for them
RESIGNED, DAY_OVER = "resigned", "day_over"


_WIRE_MOVES: dict[Move, bytes] = {}
_WIRE_MOVES_MAX = 1 << 16


def packed_move(move: Move) -> bytes:
    """``pack(move.to_wire())``, encoded once per process (a game's moves
    come from its fixed piles and actions, so there are few of them)."""
    packed = _WIRE_MOVES.get(move)
    if packed is None:
        if len(_WIRE_MOVES) >= _WIRE_MOVES_MAX:
            _WIRE_MOVES.clear()
        packed = _WIRE_MOVES[move] = pack(move.to_wire())
    return packed


def packed_moves(moves: Sequence[Move]) -> list[bytes]:
    """:func:`packed_move` of each of ``moves`` (a legal list: one call, not one a move)."""
    out = []
    for move in moves:
        packed = _WIRE_MOVES.get(move)
        out.append(packed if packed is not None else packed_move(move))
    return out


def find_game(slug: str) -> AnyGame:
    try:
        return registry.get(slug)
    except UnknownGame:
        raise ProtocolError(
            ErrorCode.NOT_FOUND,
            f"no patience is called {slug!r}",
            key="error.no_patience",
            params={"name": slug},
        ) from None


@dataclass(slots=True)
class Record:
    """One game as stored in Redis, with its state decoded. Treat it as frozen: a
    change makes a new record (plain slots rather than ``frozen=True`` only because a
    frozen dataclass is several times slower to build, and one is built per move)."""

    gid: str
    game: AnyGame
    seed: int
    player: str
    mode: Mode
    seq: int
    status: GameStatus
    state: AnyState
    created: int
    updated: int
    finished: int
    moves: int
    foundation: int
    date: str  # the daily's date for a daily deal, else ""
    ranked: bool
    clean: bool
    commitment: str
    recorded: bool
    race: str = ""  # the race id of a race game
    #: the server played the rest of the game along a certified line (``finish``)
    auto_completed: bool = False
    #: why the game ended other than by its rules ("" if it did not): RESIGNED, or why
    #: the server gave it up (a race's reasons, DAY_OVER)
    out: str = ""
    #: a race game whose race is over for every member (its seed may be shown)
    race_over: bool = False
    #: the player's active time up to ``updated``, in ms (-1: a game stored before it
    #: was kept, whose time runs from ``created``)
    active: int = 0
    #: the player asked the server's solver for help: a hint, or a ``finish`` with
    #: ``assist`` (see :func:`assisted` for what the player is told)
    assisted: bool = False
    #: a challenge game: when its seed may be shown (ms; 0: not stored, a game of
    #: before issue 36 — see ``Views.seed_hidden``), the challenge's closing
    reveal_at: int = 0
    #: the encoded bytes (``pack``) of each pile of ``game.view(state)`` (see ``Views.answer``)
    packed_piles: tuple[bytes, ...] | None = None

    @classmethod
    def load(cls, gid: str, raw: dict[str, bytes]) -> Record:
        def text(name: str) -> str:
            return raw.get(name, b"").decode()

        game = find_game(text("slug"))
        return cls(
            gid=gid,
            game=game,
            seed=int(raw["seed"]),
            player=text("player"),
            mode=Mode(text("mode")),
            seq=int(raw["seq"]),
            status=GameStatus(text("status")),
            state=game.loads(raw["state"]),
            created=int(raw["created"]),
            updated=int(raw.get("updated", raw["created"])),
            finished=int(raw.get("finished", 0)),
            moves=int(raw.get("moves", 0)),
            foundation=int(raw.get("foundation", 0)),
            date=text("date"),
            ranked=raw.get("ranked") == b"1",
            clean=raw.get("clean", b"1") == b"1",
            commitment=text("commitment"),
            recorded=raw.get("recorded") == b"1",
            race=text("race"),
            auto_completed=raw.get("auto") == b"1",
            out=text("out"),
            race_over=raw.get("race_over") == b"1",
            active=int(raw.get("active", -1)),
            assisted=raw.get("assisted") == b"1",
            reveal_at=int(raw.get("reveal_at") or 0),
        )

    def changed(
        self,
        seq: int,
        status: GameStatus,
        state: AnyState,
        updated: int,
        finished: int,
        moves: int,
        foundation: int,
        clean: bool,
        active: int,
        packed_piles: tuple[bytes, ...] | None,
    ) -> Record:
        """This game after a change of its position (a move, an undo, a resignation):
        the fields a change sets, every other one kept. The one place that says what a
        change sets; written out rather than ``dataclasses.replace``, which costs a
        move about 3 µs more (``python -m bench.pieces``;
        tests/server/services/test_records.py checks that no field is left out)."""
        return Record(
            self.gid,
            self.game,
            self.seed,
            self.player,
            self.mode,
            seq,
            status,
            state,
            self.created,
            updated,
            finished,
            moves,
            foundation,
            self.date,
            self.ranked,
            clean,
            self.commitment,
            self.recorded,
            self.race,
            self.auto_completed,
            self.out,
            self.race_over,
            active,
            self.assisted,
            self.reveal_at,
            packed_piles,
        )

    def fields(self) -> dict[str, Any]:
        return {
            "slug": self.game.slug,
            "seed": self.seed,
            "player": self.player,
            "mode": str(self.mode),
            "seq": self.seq,
            "status": self.status,
            "state": self.game.dumps(self.state),
            "created": self.created,
            "updated": self.updated,
            "moves": self.moves,
            "foundation": self.foundation,
            "total": self.game.total,
            "date": self.date,
            "ranked": int(self.ranked),
            "clean": int(self.clean),
            "commitment": self.commitment,
            "race": self.race,
            "active": self.active,
        }


@dataclass(slots=True)
class Change:
    """A change of a game's position, decided: the record before, the record after
    (its ``seq`` the next), and the entry its log gets. :meth:`Games.commit` writes it."""

    before: Record
    after: Record
    entry: bytes


def step(
    rec: Record,
    state: AnyState,
    entry: bytes,
    *,
    now: int,
    gap: int,
    clean: bool,
    status: GameStatus | None = None,
    count: bool = True,
) -> Change:
    """The game after its position became ``state`` at ``now`` (a move, an undo, a
    resignation with ``status`` lost and ``count`` False): its status and score by
    the rules, its moves, its player's active time (pauses counted up to ``gap`` ms).
    Pure: nothing is written."""
    game = rec.game
    if status is None:
        status = game.status(state)
    active = active_time(
        rec.active, created=rec.created, updated=rec.updated, finished=0, now=now, gap=gap
    )
    after = rec.changed(
        seq=rec.seq + 1,
        status=status,
        state=state,
        updated=now,
        finished=now if status != GameStatus.PLAYING else 0,
        moves=rec.moves + 1 if count else rec.moves,
        foundation=game.score(state)[0],
        clean=clean,
        active=active,
        packed_piles=None,
    )
    return Change(rec, after, entry)


def active_time(
    active: int, *, created: int, updated: int, finished: int, now: int, gap: int
) -> int:
    """A game's time in ms: ``active`` (its player's time up to ``updated``), and for a
    game in play (``finished`` 0) the time since, at most ``gap``. A game stored before
    its active time was kept (``active`` -1) counts from ``created`` to its end, or
    ``updated`` plus the same allowance."""
    if active < 0:
        active = max(0, updated - created)
        if finished:
            return max(0, finished - created)
    if finished:
        return active
    return active + min(max(0, now - updated), gap)


def compared(rec: Record) -> bool:
    """Whether the game's result is compared with others' (a ranked daily, a race
    game, a challenge game): what it shows may not be taken back, and the server's
    solver may not play it (docs/protocol.md, "Fair play")."""
    return rec.ranked or bool(rec.race) or rec.mode in (Mode.CHALLENGE, Mode.TOURNAMENT)


def tournament_secret(rec: Record) -> bool:
    """Whether a tournament game's deal is still secret: until its tournament is over
    (``race_over`` is set on its games then: docs/protocol.md, "Tournaments")."""
    return rec.mode is Mode.TOURNAMENT and not rec.race_over


def assisted(rec: Record) -> bool:
    """Whether the game had the solver's help, as every place its result shows says:
    a hint, a ``finish`` with ``assist``, or a ``finish`` of a game not compared (that
    finish is the solver's search; a compared game's plays only a trivially won rest,
    docs/protocol.md "Fair play")."""
    return rec.assisted or (rec.auto_completed and not compared(rec))


def assisted_summary(raw: Mapping[str, bytes | None]) -> bool:
    """:func:`assisted` from a game's stored fields (``SUMMARY_FIELDS``; a race game
    is never finished by the server, so its race does not matter here)."""
    compared_ = raw.get("ranked") == b"1" or raw.get("mode") in (
        str(Mode.CHALLENGE).encode(),
        str(Mode.TOURNAMENT).encode(),
    )
    return raw.get("assisted") == b"1" or (raw.get("auto") == b"1" and not compared_)


def by_the_rules(rec: Record) -> bool:
    """Whether a finished game ended by the rules: won, or lost with no move left. A
    resigned game (a player's, or an absent race member's timed out) is marked lost
    while its position still has moves; it ends no streak day (docs/client.md,
    "Streak")."""
    return rec.status == GameStatus.WON or rec.game.status(rec.state) != GameStatus.PLAYING


def effective_moves(log: list[bytes]) -> list[dict[str, Any]]:
    """The moves in force after a log's undos: "a game is its seed plus its moves".
    Equal entries are read once and are one dict (a game's moves are few different
    ones: a 5,000-move log is read in a fifth of the time): read them, never change
    them."""
    moves: list[dict[str, Any]] = []
    read: dict[bytes, dict[str, Any]] = {}
    for raw in log:
        item = read.get(raw)
        if item is None:
            item = read[raw] = unpack(raw)
        if item.get("undo"):
            if moves:
                moves.pop()
        elif not item.get("resign"):
            moves.append(item)
    return moves
