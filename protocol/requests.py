"""Requests: one frozen dataclass per op, and ``parse_request``, the server's edge.

``parse_request`` turns a decoded map into a typed, frozen request or raises
:class:`~protocol.errors.ProtocolError`. It checks the envelope, refuses unknown fields
and checks every parameter's type, range and length (``protocol.checks``). It does not
know which games exist or whether a move is legal: those are the server's business.
A request type's annotated fields are its schema: its checks, its JSON Schema
(``protocol.schema``) and the server's dispatch (``REQUESTS``) derive from them.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from .checks import (
    DEFAULT_LIMIT,
    ChallengeCode,
    Check,
    Cursor,
    Date,
    GameId,
    GameSlug,
    InboxId,
    Limit,
    LinkCode,
    Month,
    NewPlayerName,
    PlayerName,
    RaceCode,
    RaceId,
    ReportText,
    Seed,
    Seq,
    StartsAt,
    Step,
    Token,
    TournamentCode,
    TournamentId,
    TournamentMinutes,
    WireMove,
    boolean,
    choice,
)
from .codec import MAX_ID, usable_id
from .errors import ErrorCode, ProtocolError
from .ops import Board, Lang, Mode, Op, ReplyForm, ReportReason

#: field -> its check
Fields = Mapping[str, Check]


def optional(check: Check) -> Check:
    """``check``, where null counts as absent (None: the field's default)."""
    run = check.run

    def wrapped(field: str, value: Any) -> Any:
        return None if value is None else run(field, value)

    return Check(wrapped, check.schema)


def check_of(hint: Any) -> Check:
    """The check of a field from its annotation: ``Annotated[T, check]``, a bool, a
    ``StrEnum`` (one of its values), or ``X | None`` (null or absent: None)."""
    if get_origin(hint) in (Union, types.UnionType):
        (inner,) = [a for a in get_args(hint) if a is not type(None)]
        return optional(check_of(inner))
    if get_origin(hint) is Annotated:
        check = next(m for m in hint.__metadata__ if isinstance(m, Check))
        return check
    if hint is bool:
        return boolean
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return choice(hint)
    raise TypeError(f"no check for a request field of type {hint!r}")


# -- requests: one frozen dataclass each, whose annotations are its schema -----------


@dataclass(frozen=True, slots=True)
class Request:
    """Base of every parsed request; ``id`` is echoed as ``re`` in the reply. A
    request type declares its op with :func:`_op` and its fields as annotated
    dataclass fields (a field without a default is required)."""

    id: int
    op: ClassVar[Op]
    #: field -> check, derived from the annotations by :func:`_op`
    fields: ClassVar[Fields] = {}


#: the request type of each op, in the order declared
REQUESTS: dict[Op, type[Request]] = {}
R = TypeVar("R", bound=type[Request])


def _op(op: Op) -> Callable[[R], R]:
    """Register a request type for ``op``, its schema derived from its annotations."""

    def register(cls: R) -> R:
        hints = get_type_hints(cls, include_extras=True)
        cls.op = op
        cls.fields = {
            f.name: check_of(hints[f.name]) for f in dataclasses.fields(cls) if f.name != "id"
        }
        REQUESTS[op] = cls
        return cls

    return register


@_op(Op.REGISTER)
@dataclass(frozen=True, slots=True)
class RegisterRequest(Request):
    name: NewPlayerName


@_op(Op.AUTH)
@dataclass(frozen=True, slots=True)
class AuthRequest(Request):
    token: Token


@_op(Op.GAMES)
@dataclass(frozen=True, slots=True)
class GamesRequest(Request):
    pass


@_op(Op.RULES)
@dataclass(frozen=True, slots=True)
class RulesRequest(Request):
    game: GameSlug
    lang: Lang | None = None


@_op(Op.START)
@dataclass(frozen=True, slots=True)
class StartRequest(Request):
    game: GameSlug
    mode: Mode
    seed: Seed | None = None
    #: mode ``daily`` only: a past day's deal, played unranked (its seed is public)
    date: Date | None = None

    def __post_init__(self) -> None:
        if self.date is not None and self.mode is not Mode.DAILY:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'date' is only for mode 'daily'")
        if self.mode is Mode.RACE:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "race games are dealt by a race: see race_create"
            )
        if self.mode is Mode.CHALLENGE:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "challenge games are dealt by a challenge: see challenge_accept",
            )
        if self.mode is Mode.TOURNAMENT:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "tournament games are dealt by a tournament: see tournament_play",
            )
        if self.mode is Mode.DEAL and self.seed is None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "mode 'deal' needs a 'seed'")
        if self.mode is not Mode.DEAL and self.seed is not None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'seed' is only for mode 'deal'")


@_op(Op.RESUME)
@dataclass(frozen=True, slots=True)
class ResumeRequest(Request):
    game_id: GameId


@dataclass(frozen=True, slots=True)
class _AtSeq(Request):
    """A change of game ``game_id`` at its ``seq``, answered with the new state or,
    with ``reply: delta``, what changed."""

    game_id: GameId
    seq: Seq
    reply: ReplyForm = ReplyForm.STATE


@_op(Op.MOVE)
@dataclass(frozen=True, slots=True)
class MoveRequest(_AtSeq):
    """Play ``move``, one of the state's ``legal`` moves, at ``seq``."""

    #: required, after ``reply``'s default: given by name (``MoveRequest(..., move=m)``)
    move: WireMove = dataclasses.field(kw_only=True)


@_op(Op.UNDO)
@dataclass(frozen=True, slots=True)
class UndoRequest(_AtSeq):
    pass


@_op(Op.RESIGN)
@dataclass(frozen=True, slots=True)
class ResignRequest(Request):
    game_id: GameId


@_op(Op.HINT)
@dataclass(frozen=True, slots=True)
class HintRequest(Request):
    game_id: GameId


@_op(Op.MY_GAMES)
@dataclass(frozen=True, slots=True)
class MyGamesRequest(Request):
    limit: Limit = DEFAULT_LIMIT
    cursor: Cursor | None = None


@_op(Op.DAILY)
@dataclass(frozen=True, slots=True)
class DailyRequest(Request):
    date: Date | None = None


@_op(Op.LEADERBOARD)
@dataclass(frozen=True, slots=True)
class LeaderboardRequest(Request):
    game: GameSlug
    board: Board = Board.DAILY
    date: Date | None = None
    limit: Limit = DEFAULT_LIMIT
    cursor: Cursor | None = None
    around_me: bool = False
    friends: bool = False


@_op(Op.RACE_CREATE)
@dataclass(frozen=True, slots=True)
class RaceCreateRequest(Request):
    """A race on a fresh deal, on ``seed``, or (``daily``) on today's daily deal."""

    game: GameSlug
    seed: Seed | None = None
    daily: bool = False

    def __post_init__(self) -> None:
        if self.daily and self.seed is not None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "give a seed or daily, not both")


@_op(Op.RACE_JOIN)
@dataclass(frozen=True, slots=True)
class RaceJoinRequest(Request):
    code: RaceCode


@_op(Op.RACE_START)
@dataclass(frozen=True, slots=True)
class RaceStartRequest(Request):
    race_id: RaceId


@_op(Op.RACE_LEAVE)
@dataclass(frozen=True, slots=True)
class RaceLeaveRequest(Request):
    race_id: RaceId


@_op(Op.RACE_REMATCH)
@dataclass(frozen=True, slots=True)
class RaceRematchRequest(Request):
    race_id: RaceId


@_op(Op.RACE_END)
@dataclass(frozen=True, slots=True)
class RaceEndRequest(Request):
    """The creator ends a running race: every game still in play is given up."""

    race_id: RaceId


@_op(Op.RACE_DROP)
@dataclass(frozen=True, slots=True)
class RaceDropRequest(Request):
    """The creator drops ``player``, a member who is away."""

    race_id: RaceId
    player: PlayerName


@_op(Op.REPLAY)
@dataclass(frozen=True, slots=True)
class ReplayRequest(Request):
    """A finished game (``game_id``), a player's ranked daily (``game``, ``date``,
    ``player``) or a past daily's par line (``game``, ``date``); with ``step``, also
    the position after that many moves."""

    game_id: GameId | None = None
    game: GameSlug | None = None
    date: Date | None = None
    player: PlayerName | None = None
    step: Step | None = None

    def __post_init__(self) -> None:
        by_day = self.game is not None or self.date is not None or self.player is not None
        if self.game_id is not None and by_day:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "give a 'game_id', or a 'game' and a 'date', not both"
            )
        if self.game_id is None and (self.game is None or self.date is None):
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "replay needs a 'game_id', or a 'game' and a 'date'"
            )


@_op(Op.STATS)
@dataclass(frozen=True, slots=True)
class StatsRequest(Request):
    """A player's statistics (yours without ``player``), of every game or one."""

    player: PlayerName | None = None
    game: GameSlug | None = None


@_op(Op.FRIEND_ADD)
@dataclass(frozen=True, slots=True)
class FriendAddRequest(Request):
    """Follow the player ``name`` (one-way)."""

    name: PlayerName


@_op(Op.FRIEND_REMOVE)
@dataclass(frozen=True, slots=True)
class FriendRemoveRequest(Request):
    name: PlayerName


@_op(Op.FRIENDS)
@dataclass(frozen=True, slots=True)
class FriendsRequest(Request):
    pass


@_op(Op.AUTO)
@dataclass(frozen=True, slots=True)
class AutoRequest(_AtSeq):
    """Play the game's safe moves one by one until none is left (each is a move)."""


@_op(Op.FINISH)
@dataclass(frozen=True, slots=True)
class FinishRequest(_AtSeq):
    """Play the rest of the game along a winning line the solver certifies from here
    (auto-complete); with ``check``, only say whether there is one."""

    check: bool = False
    #: on a ranked game not trivially won: let the solver play it (it stops ranking)
    assist: bool = False


@_op(Op.CHALLENGE_CREATE)
@dataclass(frozen=True, slots=True)
class ChallengeCreateRequest(Request):
    """A challenge on the deal of my finished game (``game_id``: its result is the
    mark to beat), or on a deal of ``game`` with no mark (``seed``, or a fresh one)."""

    game_id: GameId | None = None
    game: GameSlug | None = None
    seed: Seed | None = None

    def __post_init__(self) -> None:
        if (self.game_id is None) == (self.game is None):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "give a 'game_id' or a 'game', one of them")
        if self.game_id is not None and self.seed is not None:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "'seed' goes with 'game': a game_id has its deal"
            )


@_op(Op.CHALLENGE_ACCEPT)
@dataclass(frozen=True, slots=True)
class ChallengeAcceptRequest(Request):
    """Play a challenge's deal (once; again: the same game)."""

    code: ChallengeCode


@_op(Op.CHALLENGE)
@dataclass(frozen=True, slots=True)
class ChallengeRequest(Request):
    code: ChallengeCode


@_op(Op.CHALLENGES)
@dataclass(frozen=True, slots=True)
class ChallengesRequest(Request):
    """The challenges I created or accepted, newest first."""

    limit: Limit = DEFAULT_LIMIT


@_op(Op.CHALLENGE_CLOSE)
@dataclass(frozen=True, slots=True)
class ChallengeCloseRequest(Request):
    """Close my challenge (its creator): no more accepts, its results final, its seed
    shown to its players."""

    code: ChallengeCode


@_op(Op.RACE_WATCH)
@dataclass(frozen=True, slots=True)
class RaceWatchRequest(Request):
    """Watch a race as a spectator (never a member)."""

    code: RaceCode


@_op(Op.RACE_UNWATCH)
@dataclass(frozen=True, slots=True)
class RaceUnwatchRequest(Request):
    race_id: RaceId


@_op(Op.INVITE)
@dataclass(frozen=True, slots=True)
class InviteRequest(Request):
    """Send the player ``name`` a race's lobby (``race``), a challenge (``challenge``)
    or a tournament not over (``tournament``)."""

    name: PlayerName
    race: RaceCode | None = None
    challenge: ChallengeCode | None = None
    tournament: TournamentCode | None = None

    def __post_init__(self) -> None:
        given = [c for c in (self.race, self.challenge, self.tournament) if c is not None]
        if len(given) != 1:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "give a 'race', a 'challenge' or a 'tournament' code, one of them",
            )


@_op(Op.INBOX)
@dataclass(frozen=True, slots=True)
class InboxRequest(Request):
    """My inbox: invites and news, newest first."""


@_op(Op.INBOX_READ)
@dataclass(frozen=True, slots=True)
class InboxReadRequest(Request):
    """Mark one item of my inbox read (``item``: its id), or every item."""

    item: InboxId | None = None


@_op(Op.BLOCK)
@dataclass(frozen=True, slots=True)
class BlockRequest(Request):
    """Drop the player ``name``'s invites and show them nothing of you, silently."""

    name: PlayerName


@_op(Op.UNBLOCK)
@dataclass(frozen=True, slots=True)
class UnblockRequest(Request):
    name: PlayerName


@_op(Op.PRESENCE)
@dataclass(frozen=True, slots=True)
class PresenceRequest(Request):
    """Read (and with ``hidden``, set) whether my presence is hidden from friends."""

    hidden: bool | None = None


@_op(Op.CALENDAR)
@dataclass(frozen=True, slots=True)
class CalendarRequest(Request):
    """A month of dailies: each day's status for me, of one game or of all."""

    month: Month
    game: GameSlug | None = None


# -- accounts that last (issue 49): link a device, sign out everywhere, export, leave --


@_op(Op.LINK_CODE)
@dataclass(frozen=True, slots=True)
class LinkCodeRequest(Request):
    """A one-use code that signs another device in to my account for 5 minutes."""


@_op(Op.LINK)
@dataclass(frozen=True, slots=True)
class LinkRequest(Request):
    """Sign this device in with a code from ``link_code`` (case does not matter)."""

    code: LinkCode


@_op(Op.TOKEN_ROTATE)
@dataclass(frozen=True, slots=True)
class TokenRotateRequest(Request):
    """A new token for this connection; every other one of mine is closed."""


@_op(Op.ACCOUNT_EXPORT)
@dataclass(frozen=True, slots=True)
class AccountExportRequest(Request):
    """Everything the server holds about me: a page, then the next (``cursor``)."""

    cursor: Cursor | None = None


@_op(Op.ACCOUNT_DELETE)
@dataclass(frozen=True, slots=True)
class AccountDeleteRequest(Request):
    """Delete my account; ``name``: my name typed again, as a confirmation."""

    name: PlayerName


# -- issue 49, operators' half ---------------------------------------------------------


@_op(Op.REPORT)
@dataclass(frozen=True, slots=True)
class ReportRequest(Request):
    """Report the player ``name`` to the operators: ``reason``, perhaps a few words
    (``text``) and the game it is about (``game_id``); a few an hour per account."""

    name: PlayerName
    reason: ReportReason
    text: ReportText | None = None
    game_id: GameId | None = None


# -- tournaments (issue 51) ------------------------------------------------------------


@_op(Op.TOURNAMENT_CREATE)
@dataclass(frozen=True, slots=True)
class TournamentCreateRequest(Request):
    """A tournament of mine on ``game``, from ``starts_at`` for ``minutes``: a code
    and a ``url`` to share (a few an account a day)."""

    game: GameSlug
    starts_at: StartsAt
    minutes: TournamentMinutes = 30


@_op(Op.TOURNAMENT_JOIN)
@dataclass(frozen=True, slots=True)
class TournamentJoinRequest(Request):
    """Enter a tournament before its end (again: come back to it, its events resumed)."""

    code: TournamentCode


@_op(Op.TOURNAMENT_LEAVE)
@dataclass(frozen=True, slots=True)
class TournamentLeaveRequest(Request):
    """Before the start: out of it. Running: stop (a deal in play is given up; the
    points stay on the standings)."""

    tournament_id: TournamentId


@_op(Op.TOURNAMENT)
@dataclass(frozen=True, slots=True)
class TournamentRequest(Request):
    """A tournament with its standings (and, to an entrant, their deal in play)."""

    code: TournamentCode


@_op(Op.TOURNAMENTS)
@dataclass(frozen=True, slots=True)
class TournamentsRequest(Request):
    """The lobby: tournaments upcoming and running (public ones, mine, those I am
    invited to), and mine finished lately."""


@_op(Op.TOURNAMENT_PLAY)
@dataclass(frozen=True, slots=True)
class TournamentPlayRequest(Request):
    """My deal of a running tournament: the one in play, else the next."""

    tournament_id: TournamentId


@_op(Op.TOURNAMENT_WATCH)
@dataclass(frozen=True, slots=True)
class TournamentWatchRequest(Request):
    """Get a tournament's ``tournament`` events without entering it."""

    code: TournamentCode


@_op(Op.TOURNAMENT_UNWATCH)
@dataclass(frozen=True, slots=True)
class TournamentUnwatchRequest(Request):
    tournament_id: TournamentId


assert set(REQUESTS) == set(Op), "every op has its request type"

#: request classes by op name (a dict lookup; ``Op(name)`` costs several times more)
_BY_NAME: dict[str, type[Request]] = {str(op): cls for op, cls in REQUESTS.items()}
#: the keys a request of each type may have
_ALLOWED: dict[type[Request], frozenset[str]] = {
    cls: frozenset({"id", "op", *cls.fields}) for cls in REQUESTS.values()
}
#: a field left out of a message
_ABSENT = object()


def _plan(
    cls: type[Request],
) -> tuple[tuple[str, Callable[[str, Any], Any], Any, Callable[[Any, Any], None]], ...]:
    """How :func:`parse_request` fills a request of type ``cls``: each field's name,
    check, default (``dataclasses.MISSING``: required) and slot setter. A request is
    built through its slots, as its frozen ``__init__`` would (whose
    ``object.__setattr__`` per field was a third of a ``move``'s parsing)."""
    plan = []
    for f in dataclasses.fields(cls):
        if f.name == "id":
            continue
        assert f.default_factory is dataclasses.MISSING, "a request field has a plain default"
        plan.append((f.name, cls.fields[f.name].run, f.default, getattr(cls, f.name).__set__))
    return tuple(plan)


_PLANS = {cls: _plan(cls) for cls in REQUESTS.values()}
#: the checks across fields some request types make once their fields are set
_POST_INIT: dict[type[Request], Callable[[Any], None]] = {
    cls: cls.__post_init__ for cls in REQUESTS.values() if hasattr(cls, "__post_init__")
}
_SET_ID: Callable[[Any, Any], None] = getattr(Request, "id").__set__  # noqa: B009 (a slot)


def parse_id(msg: Mapping[str, Any]) -> int:
    """The request id of ``msg``; raises ``bad_request`` when it is missing or wrong."""
    rid = usable_id(msg.get("id"))
    if rid is None:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"'id' must be an integer in [0, {MAX_ID}]")
    return rid


def parse_request(msg: Mapping[str, Any]) -> Request:
    """The typed request of a decoded frame; raises ``ProtocolError`` with
    ``bad_request`` (envelope, types, ranges, lengths, unknown or missing fields) or
    ``unknown_op``."""
    rid = parse_id(msg)
    op_name = msg.get("op")
    if not isinstance(op_name, str):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "'op' must be a string")
    cls = _BY_NAME.get(op_name)
    if cls is None:
        raise ProtocolError(ErrorCode.UNKNOWN_OP, f"no op is called {op_name[:40]!r}")
    if not msg.keys() <= _ALLOWED[cls]:
        unknown = set(msg) - _ALLOWED[cls]
        names = ", ".join(sorted(repr(k[:40]) for k in unknown)[:8])
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"{op_name} takes no field {names}")
    req = object.__new__(cls)
    _SET_ID(req, rid)
    for name, check, default, put in _PLANS[cls]:
        value = msg.get(name, _ABSENT)
        if value is _ABSENT or (value is None and default is not dataclasses.MISSING):
            if default is dataclasses.MISSING:
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"{op_name} needs {name!r}")
            put(req, default)
        else:
            put(req, check(name, value))
    post_init = _POST_INIT.get(cls)
    if post_init is not None:
        post_init(req)
    return req
