"""Messages of the wire protocol: op and event names, strict request parsing, and
builders of requests, replies and events.

``parse_request`` is the server's edge: it turns a decoded map into a typed, frozen
request (one dataclass per op) or raises :class:`~protocol.errors.ProtocolError`.
It checks the envelope, refuses unknown fields and checks every parameter's type,
range and length. It does not know which games exist or whether a move is legal:
those are the server's business.

Clients use :func:`request` to build frames and :func:`parse_reply` to read them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import types
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from .codec import MAX_ID, usable_id
from .errors import ErrorCode, ProtocolError

MAX_SEED = 2**64 - 1
MAX_SEQ = 2**31 - 1
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
#: a new player's name, in words: the rule :func:`new_player_name` checks
NAME_RULE = (
    "3 to 20 characters: letters of one alphabet (Latin, Cyrillic, …), digits 0-9, '_' or "
    "'-', at least one of them a letter"
)
SLUG_MAX = 40
SLUG_RE = re.compile(r"[a-z0-9_]{1,40}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,128}")
CURSOR_RE = re.compile(r"[A-Za-z0-9_:.-]{1,64}")
RACE_CODE_RE = re.compile(r"[A-Za-z0-9]{4,12}")
CHALLENGE_CODE_RE = re.compile(r"[A-Za-z0-9]{4,16}")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
MOVE_FIELDS = 8
MOVE_TEXT = 64


class Op(StrEnum):
    REGISTER = "register"
    AUTH = "auth"
    GAMES = "games"
    RULES = "rules"
    START = "start"
    RESUME = "resume"
    MOVE = "move"
    UNDO = "undo"
    RESIGN = "resign"
    HINT = "hint"
    MY_GAMES = "my_games"
    DAILY = "daily"
    LEADERBOARD = "leaderboard"
    RACE_CREATE = "race_create"
    RACE_JOIN = "race_join"
    RACE_START = "race_start"
    RACE_LEAVE = "race_leave"
    RACE_REMATCH = "race_rematch"
    RACE_END = "race_end"
    RACE_DROP = "race_drop"
    REPLAY = "replay"
    STATS = "stats"
    FRIEND_ADD = "friend_add"
    FRIEND_REMOVE = "friend_remove"
    FRIENDS = "friends"
    AUTO = "auto"
    FINISH = "finish"
    CHALLENGE_CREATE = "challenge_create"
    CHALLENGE_ACCEPT = "challenge_accept"
    CHALLENGE = "challenge"
    CHALLENGES = "challenges"
    CHALLENGE_CLOSE = "challenge_close"
    RACE_WATCH = "race_watch"
    RACE_UNWATCH = "race_unwatch"


class Event(StrEnum):
    RACE = "race"
    RACE_STARTED = "race_started"
    #: a member's board, to a race's spectators
    RACE_BOARD = "race_board"
    #: someone finished a challenge: to its creator
    CHALLENGE_RESULT = "challenge_result"
    #: a game of the player's changed: to their other connections
    GAME = "game"
    BYE = "bye"


class ReplyForm(StrEnum):
    """What a ``move`` or ``undo`` answers: the whole state, or only what changed."""

    STATE = "state"
    DELTA = "delta"


class Mode(StrEnum):
    """How a game was dealt. ``start`` takes the first three; a race deals ``race``,
    ``challenge_accept`` deals ``challenge``."""

    DAILY = "daily"
    PRACTICE = "practice"
    DEAL = "deal"
    RACE = "race"
    CHALLENGE = "challenge"


class Board(StrEnum):
    DAILY = "daily"
    ALLTIME = "alltime"


#: Ops a connection may send before ``register`` or ``auth``.
PUBLIC_OPS: frozenset[Op] = frozenset(
    {Op.REGISTER, Op.AUTH, Op.GAMES, Op.RULES, Op.DAILY, Op.LEADERBOARD, Op.REPLAY, Op.STATS}
)


# -- field checks --------------------------------------------------------------------

Check = Callable[[str, Any], Any]
Schema = Mapping[str, Check]


def _fail(field: str, what: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_REQUEST, f"{field!r} must be {what}")


def _int(lo: int, hi: int) -> Check:
    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _fail(field, f"an integer in [{lo}, {hi}]")
        return value

    return check


def _text(pattern: re.Pattern[str], what: str) -> Check:
    def check(field: str, value: Any) -> str:
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise _fail(field, what)
        return value

    return check


def _choice(enum: type[StrEnum]) -> Check:
    # the members by value: a dict lookup, where ``enum(value)`` costs a microsecond
    members: dict[str, StrEnum] = {str(m): m for m in enum}

    def check(field: str, value: Any) -> StrEnum:
        member = members.get(value) if isinstance(value, str) else None
        if member is None:
            options = " | ".join(repr(str(m)) for m in enum)
            raise _fail(field, f"one of {options}")
        return member

    return check


def _bool(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, "true or false")
    return value


def _date(field: str, value: Any) -> str:
    if isinstance(value, str) and DATE_RE.fullmatch(value):
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            return value
    raise _fail(field, "a date YYYY-MM-DD")


def _move(field: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not value:
        raise _fail(field, 'a map such as {"from": "T1", "to": "T2"} or {"action": "deal"}')
    if len(value) > MOVE_FIELDS:
        raise _fail(field, f"a map of at most {MOVE_FIELDS} fields")
    for key, item in value.items():
        if not isinstance(key, str) or len(key) > MOVE_TEXT:
            raise _fail(field, "a map with short string keys")
        ok = (
            item is None
            or (isinstance(item, str) and len(item) <= MOVE_TEXT)
            or (isinstance(item, int) and not isinstance(item, bool) and abs(item) <= MAX_ID)
        )
        if not ok:
            raise _fail(f"{field}.{key}", "a short string, an integer or null")
    return dict(value)


def _game(field: str, value: Any) -> str:
    """A game slug, in any case (``Crescent`` is ``crescent``). A string that is no
    slug names no game: ``not_found``, as an unknown slug is (one answer for both)."""
    if not isinstance(value, str) or not 1 <= len(value) <= SLUG_MAX:
        raise _fail(field, "a game slug such as 'crescent'")
    slug = value.lower()
    if not SLUG_RE.fullmatch(slug):
        raise ProtocolError(ErrorCode.NOT_FOUND, f"no patience is called {value!r}")
    return slug


_game_id = _text(ID_RE, "a game id (1–64 of [A-Za-z0-9_-])")
_seq = _int(0, MAX_SEQ)
_cursor = _text(CURSOR_RE, "a cursor from an earlier reply")


def player_name(value: Any) -> str:
    """A player's name as names are stored, NFKC-normalised (``Вася``, ``anna_k``; a
    fullwidth ``ａｎｎａ`` is ``anna``), or ``bad_request`` saying :data:`NAME_RULE`.

    Letters may come from any one script: mixing scripts (a Latin ``a`` among Cyrillic
    letters) would let look-alike names pass as one. NFKC, not NFC, so that the
    compatibility forms of a letter (fullwidth, ligatures, mathematical letters) are
    that letter. The rule of every name looked up (``friend_add``, ``stats``, …); a new
    name must also pass :func:`new_player_name`."""
    if not isinstance(value, str):
        raise _fail("name", NAME_RULE)
    name = unicodedata.normalize("NFKC", value)
    ok = 3 <= len(name) <= 20 and all(ch.isalpha() or ch in "0123456789_-" for ch in name)
    scripts = {unicodedata.name(ch, "?").split(" ")[0] for ch in name if ch.isalpha()}
    if not ok or len(scripts) > 1:
        raise _fail("name", NAME_RULE)
    return name


def new_player_name(value: Any) -> str:
    """The name of a player to ``register``: :func:`player_name`, with at least one
    letter (``___``, ``---`` or ``123`` name nobody: they tell players apart by no
    letter). Names registered before this rule may lack one: they are still looked up
    by :func:`player_name`. Whether it looks like an existing player's name is the
    server's to say (``server.services.names``)."""
    name = player_name(value)
    if not any(ch.isalpha() for ch in name):
        raise _fail("name", NAME_RULE)
    return name


def _player(field: str, value: Any) -> str:
    """A player's name to look up (the rule of :func:`player_name`)."""
    try:
        return player_name(value)
    except ProtocolError:
        raise _fail(field, "a player's name") from None


def _optional(check: Check) -> Check:
    def wrapped(field: str, value: Any) -> Any:
        return None if value is None else check(field, value)

    return wrapped


# -- the types of request fields: each names its check once (``Annotated``) ----------

GameSlug = Annotated[str, _game]
GameId = Annotated[str, _game_id]
RaceId = Annotated[str, _text(ID_RE, "a race id")]
Seq = Annotated[int, _seq]
Seed = Annotated[int, _int(0, MAX_SEED)]
Limit = Annotated[int, _int(1, MAX_LIMIT)]
Step = Annotated[int, _int(0, MAX_SEQ)]
Cursor = Annotated[str, _cursor]
Date = Annotated[str, _date]
PlayerName = Annotated[str, _player]
NewPlayerName = Annotated[str, lambda field, value: new_player_name(value)]
Token = Annotated[str, _text(TOKEN_RE, "a token from register")]
RaceCode = Annotated[str, _text(RACE_CODE_RE, "a race code (4–12 letters and digits)")]
ChallengeCode = Annotated[
    str, _text(CHALLENGE_CODE_RE, "a challenge code (4–16 letters and digits)")
]
WireMove = Annotated[dict[str, Any], _move]


def _check_of(hint: Any) -> Check:
    """The check of a field from its annotation: ``Annotated[T, check]``, a bool, a
    ``StrEnum`` (one of its values), or ``X | None`` (null or absent: None)."""
    if get_origin(hint) in (Union, types.UnionType):
        (inner,) = [a for a in get_args(hint) if a is not type(None)]
        return _optional(_check_of(inner))
    if get_origin(hint) is Annotated:
        check: Check = hint.__metadata__[0]
        return check
    if hint is bool:
        return _bool
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return _choice(hint)
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
    fields: ClassVar[Schema] = {}


#: the request type of each op, in the order declared
REQUESTS: dict[Op, type[Request]] = {}
R = TypeVar("R", bound=type[Request])


def _op(op: Op) -> Callable[[R], R]:
    """Register a request type for ``op``, its schema derived from its annotations."""

    def register(cls: R) -> R:
        hints = get_type_hints(cls, include_extras=True)
        cls.op = op
        cls.fields = {
            f.name: _check_of(hints[f.name]) for f in dataclasses.fields(cls) if f.name != "id"
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


@_op(Op.START)
@dataclass(frozen=True, slots=True)
class StartRequest(Request):
    game: GameSlug
    mode: Mode
    seed: Seed | None = None

    def __post_init__(self) -> None:
        if self.mode is Mode.RACE:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "race games are dealt by a race: see race_create"
            )
        if self.mode is Mode.CHALLENGE:
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                "challenge games are dealt by a challenge: see challenge_accept",
            )
        if self.mode is Mode.DEAL and self.seed is None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "mode 'deal' needs a 'seed'")
        if self.mode is not Mode.DEAL and self.seed is not None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'seed' is only for mode 'deal'")


@_op(Op.RESUME)
@dataclass(frozen=True, slots=True)
class ResumeRequest(Request):
    game_id: GameId


@_op(Op.MOVE)
@dataclass(frozen=True, slots=True)
class MoveRequest(Request):
    game_id: GameId
    seq: Seq
    move: WireMove
    reply: ReplyForm = ReplyForm.STATE


@dataclass(frozen=True, slots=True)
class _AtSeq(Request):
    """A change of game ``game_id`` at its ``seq``, answered with the new state or,
    with ``reply: delta``, what changed."""

    game_id: GameId
    seq: Seq
    reply: ReplyForm = ReplyForm.STATE


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


assert set(REQUESTS) == set(Op), "every op has its request type"

#: request classes by op name (a dict lookup; ``Op(name)`` costs several times more)
_BY_NAME: dict[str, type[Request]] = {str(op): cls for op, cls in REQUESTS.items()}
#: the keys a request of each type may have
_ALLOWED: dict[type[Request], frozenset[str]] = {
    cls: frozenset({"id", "op", *cls.fields}) for cls in REQUESTS.values()
}
#: a field left out of a message
_ABSENT = object()


def _plan(cls: type[Request]) -> tuple[tuple[str, Check, Any, Callable[[Any, Any], None]], ...]:
    """How :func:`parse_request` fills a request of type ``cls``: each field's name,
    check, default (``dataclasses.MISSING``: required) and slot setter. A request is
    built through its slots, as its frozen ``__init__`` would (whose
    ``object.__setattr__`` per field was a third of a ``move``'s parsing)."""
    plan = []
    for f in dataclasses.fields(cls):
        if f.name == "id":
            continue
        assert f.default_factory is dataclasses.MISSING, "a request field has a plain default"
        plan.append((f.name, cls.fields[f.name], f.default, getattr(cls, f.name).__set__))
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


# -- builders -------------------------------------------------------------------------


def request(id: int, op: Op | str, **params: Any) -> dict[str, Any]:
    """A request frame's map (params that are None are left out)."""
    msg: dict[str, Any] = {"id": id, "op": str(op)}
    msg.update((k, v) for k, v in params.items() if v is not None)
    return msg


def ok(re: int | None, **result: Any) -> dict[str, Any]:
    """A successful reply to request ``re``."""
    msg: dict[str, Any] = {"re": re, "ok": True}
    msg.update(result)
    return msg


def error(re: int | None, code: ErrorCode, message: str, **extra: Any) -> dict[str, Any]:
    """A failed reply; ``extra`` goes into the error object (e.g. ``state``).

    ``re`` is None only when the request's id could not be read (undecodable frame).
    """
    err: dict[str, Any] = {"code": str(code), "message": message}
    err.update(extra)
    return {"re": re, "ok": False, "error": err}


def event(name: Event | str, **fields: Any) -> dict[str, Any]:
    """An unasked server → client message."""
    msg: dict[str, Any] = {"ev": str(name)}
    msg.update(fields)
    return msg


# -- the client's side ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """A reply to request ``re``: ``result`` holds every field but ``re``/``ok``."""

    re: int | None
    ok: bool
    result: dict[str, Any]
    error: ProtocolError | None = None

    def unwrap(self) -> dict[str, Any]:
        """The result of a successful reply; raises its ``ProtocolError`` otherwise."""
        if self.error is not None:
            raise self.error
        return self.result


@dataclass(frozen=True, slots=True)
class Push:
    """An event the server sent unasked."""

    name: str
    fields: dict[str, Any]


def parse_reply(msg: Mapping[str, Any]) -> Reply | Push:
    """A decoded server frame as a :class:`Reply` or a :class:`Push`; raises
    ``ProtocolError(bad_request)`` when it is neither."""
    if "ev" in msg:
        name = msg["ev"]
        if not isinstance(name, str):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "an event's 'ev' is a string")
        return Push(name, {k: v for k, v in msg.items() if k != "ev"})
    re_, ok_ = msg.get("re"), msg.get("ok")
    re_ok = re_ is None or (isinstance(re_, int) and not isinstance(re_, bool))
    if not isinstance(ok_, bool) or not re_ok:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a reply has an integer 're' and a boolean 'ok'")
    result = {k: v for k, v in msg.items() if k not in ("re", "ok")}
    if ok_:
        return Reply(re_, True, result)
    err = msg.get("error")
    if not isinstance(err, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a failed reply has an 'error' map")
    try:
        code = ErrorCode(str(err.get("code")))
    except ValueError:
        code = ErrorCode.INTERNAL
    message = err.get("message")
    extra = {k: v for k, v in err.items() if k not in ("code", "message")}
    exc = ProtocolError(code, message if isinstance(message, str) else "", **extra)
    return Reply(re_, False, result, exc)
