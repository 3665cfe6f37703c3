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
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

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


class Event(StrEnum):
    RACE = "race"
    RACE_STARTED = "race_started"
    BYE = "bye"


class ReplyForm(StrEnum):
    """What a ``move`` or ``undo`` answers: the whole state, or only what changed."""

    STATE = "state"
    DELTA = "delta"


class Mode(StrEnum):
    DAILY = "daily"
    PRACTICE = "practice"
    DEAL = "deal"


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
    def check(field: str, value: Any) -> StrEnum:
        try:
            return enum(value)
        except ValueError:
            options = " | ".join(repr(str(m)) for m in enum)
            raise _fail(field, f"one of {options}") from None

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


# -- requests -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """Base of every parsed request; ``id`` is echoed as ``re`` in the reply."""

    id: int
    op: ClassVar[Op]
    #: field -> check; a field without a default is required
    fields: ClassVar[Schema] = {}


@dataclass(frozen=True, slots=True)
class Register(Request):
    name: str
    op = Op.REGISTER
    fields: ClassVar[Schema] = {"name": lambda field, value: new_player_name(value)}


@dataclass(frozen=True, slots=True)
class Auth(Request):
    token: str
    op = Op.AUTH
    fields: ClassVar[Schema] = {"token": _text(TOKEN_RE, "a token from register")}


@dataclass(frozen=True, slots=True)
class Games(Request):
    op = Op.GAMES


@dataclass(frozen=True, slots=True)
class Rules(Request):
    game: str
    op = Op.RULES
    fields: ClassVar[Schema] = {"game": _game}


@dataclass(frozen=True, slots=True)
class Start(Request):
    game: str
    mode: Mode
    seed: int | None = None
    op = Op.START
    fields: ClassVar[Schema] = {
        "game": _game,
        "mode": _choice(Mode),
        "seed": _optional(_int(0, MAX_SEED)),
    }

    def __post_init__(self) -> None:
        if self.mode is Mode.DEAL and self.seed is None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "mode 'deal' needs a 'seed'")
        if self.mode is not Mode.DEAL and self.seed is not None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'seed' is only for mode 'deal'")


@dataclass(frozen=True, slots=True)
class Resume(Request):
    game_id: str
    op = Op.RESUME
    fields: ClassVar[Schema] = {"game_id": _game_id}


@dataclass(frozen=True, slots=True)
class Move(Request):
    game_id: str
    seq: int
    move: dict[str, Any]
    reply: ReplyForm = ReplyForm.STATE
    op = Op.MOVE
    fields: ClassVar[Schema] = {
        "game_id": _game_id,
        "seq": _seq,
        "move": _move,
        "reply": _choice(ReplyForm),
    }


@dataclass(frozen=True, slots=True)
class Undo(Request):
    game_id: str
    seq: int
    reply: ReplyForm = ReplyForm.STATE
    op = Op.UNDO
    fields: ClassVar[Schema] = {"game_id": _game_id, "seq": _seq, "reply": _choice(ReplyForm)}


@dataclass(frozen=True, slots=True)
class Resign(Request):
    game_id: str
    op = Op.RESIGN
    fields: ClassVar[Schema] = {"game_id": _game_id}


@dataclass(frozen=True, slots=True)
class Hint(Request):
    game_id: str
    op = Op.HINT
    fields: ClassVar[Schema] = {"game_id": _game_id}


@dataclass(frozen=True, slots=True)
class Auto(Request):
    """Play the game's safe moves one by one until none is left (each is a move)."""

    game_id: str
    seq: int
    reply: ReplyForm = ReplyForm.STATE
    op = Op.AUTO
    fields: ClassVar[Schema] = {"game_id": _game_id, "seq": _seq, "reply": _choice(ReplyForm)}


@dataclass(frozen=True, slots=True)
class Finish(Request):
    """Play the rest of the game along a winning line the solver certifies from here
    (auto-complete); with ``check``, only say whether there is one."""

    game_id: str
    seq: int
    reply: ReplyForm = ReplyForm.STATE
    check: bool = False
    #: on a ranked game not trivially won: let the solver play it (it stops ranking)
    assist: bool = False
    op = Op.FINISH
    fields: ClassVar[Schema] = {
        "game_id": _game_id,
        "seq": _seq,
        "reply": _choice(ReplyForm),
        "check": _bool,
        "assist": _bool,
    }


@dataclass(frozen=True, slots=True)
class MyGames(Request):
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None
    op = Op.MY_GAMES
    fields: ClassVar[Schema] = {"limit": _int(1, MAX_LIMIT), "cursor": _optional(_cursor)}


@dataclass(frozen=True, slots=True)
class Daily(Request):
    date: str | None = None
    op = Op.DAILY
    fields: ClassVar[Schema] = {"date": _optional(_date)}


@dataclass(frozen=True, slots=True)
class Leaderboard(Request):
    game: str
    board: Board = Board.DAILY
    date: str | None = None
    limit: int = DEFAULT_LIMIT
    cursor: str | None = None
    around_me: bool = False
    friends: bool = False
    op = Op.LEADERBOARD
    fields: ClassVar[Schema] = {
        "game": _game,
        "board": _choice(Board),
        "date": _optional(_date),
        "limit": _int(1, MAX_LIMIT),
        "cursor": _optional(_cursor),
        "around_me": _bool,
        "friends": _bool,
    }


@dataclass(frozen=True, slots=True)
class RaceCreate(Request):
    """A race on a fresh deal, on ``seed``, or (``daily``) on today's daily deal."""

    game: str
    seed: int | None = None
    daily: bool = False
    op = Op.RACE_CREATE
    fields: ClassVar[Schema] = {
        "game": _game,
        "seed": _optional(_int(0, MAX_SEED)),
        "daily": _bool,
    }

    def __post_init__(self) -> None:
        if self.daily and self.seed is not None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "give a seed or daily, not both")


@dataclass(frozen=True, slots=True)
class RaceJoin(Request):
    code: str
    op = Op.RACE_JOIN
    fields: ClassVar[Schema] = {
        "code": _text(RACE_CODE_RE, "a race code (4–12 letters and digits)")
    }


@dataclass(frozen=True, slots=True)
class RaceStart(Request):
    race_id: str
    op = Op.RACE_START
    fields: ClassVar[Schema] = {"race_id": _text(ID_RE, "a race id")}


@dataclass(frozen=True, slots=True)
class RaceLeave(Request):
    race_id: str
    op = Op.RACE_LEAVE
    fields: ClassVar[Schema] = {"race_id": _text(ID_RE, "a race id")}


@dataclass(frozen=True, slots=True)
class RaceRematch(Request):
    race_id: str
    op = Op.RACE_REMATCH
    fields: ClassVar[Schema] = {"race_id": _text(ID_RE, "a race id")}


@dataclass(frozen=True, slots=True)
class RaceEnd(Request):
    """The creator ends a running race: every game still in play is given up."""

    race_id: str
    op = Op.RACE_END
    fields: ClassVar[Schema] = {"race_id": _text(ID_RE, "a race id")}


def _member(field: str, value: Any) -> str:
    """A race member's name (the rule of :func:`player_name`)."""
    try:
        return player_name(value)
    except ProtocolError:
        raise _fail(field, "a player's name") from None


@dataclass(frozen=True, slots=True)
class RaceDrop(Request):
    """The creator drops ``player``, a member who is away."""

    race_id: str
    player: str
    op = Op.RACE_DROP
    fields: ClassVar[Schema] = {"race_id": _text(ID_RE, "a race id"), "player": _member}


@dataclass(frozen=True, slots=True)
class Replay(Request):
    """A finished game (``game_id``), a player's ranked daily (``game``, ``date``,
    ``player``) or a past daily's par line (``game``, ``date``); with ``step``, also
    the position after that many moves."""

    game_id: str | None = None
    game: str | None = None
    date: str | None = None
    player: str | None = None
    step: int | None = None
    op = Op.REPLAY
    fields: ClassVar[Schema] = {
        "game_id": _optional(_game_id),
        "game": _optional(_game),
        "date": _optional(_date),
        "player": _optional(_player),
        "step": _optional(_int(0, MAX_SEQ)),
    }

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


@dataclass(frozen=True, slots=True)
class Stats(Request):
    """A player's statistics (yours without ``player``), of every game or one."""

    player: str | None = None
    game: str | None = None
    op = Op.STATS
    fields: ClassVar[Schema] = {"player": _optional(_player), "game": _optional(_game)}


@dataclass(frozen=True, slots=True)
class FriendAdd(Request):
    """Follow the player ``name`` (one-way)."""

    name: str
    op = Op.FRIEND_ADD
    fields: ClassVar[Schema] = {"name": _player}


@dataclass(frozen=True, slots=True)
class FriendRemove(Request):
    name: str
    op = Op.FRIEND_REMOVE
    fields: ClassVar[Schema] = {"name": _player}


@dataclass(frozen=True, slots=True)
class Friends(Request):
    op = Op.FRIENDS


REQUESTS: dict[Op, type[Request]] = {
    cls.op: cls
    for cls in (
        Register,
        Auth,
        Games,
        Rules,
        Start,
        Resume,
        Move,
        Undo,
        Resign,
        Hint,
        MyGames,
        Daily,
        Leaderboard,
        RaceCreate,
        RaceJoin,
        RaceStart,
        RaceLeave,
        RaceRematch,
        RaceEnd,
        RaceDrop,
        Replay,
        Stats,
        FriendAdd,
        FriendRemove,
        Friends,
        Auto,
        Finish,
    )
}


#: request classes by op name (a dict lookup; ``Op(name)`` costs several times more)
_BY_NAME: dict[str, type[Request]] = {str(op): cls for op, cls in REQUESTS.items()}
_OPTIONAL: dict[type[Request], frozenset[str]] = {
    cls: frozenset(f.name for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING)
    for cls in REQUESTS.values()
}


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
    unknown = set(msg) - {"id", "op"} - set(cls.fields)
    if unknown:
        names = ", ".join(sorted(repr(k[:40]) for k in unknown)[:8])
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"{op_name} takes no field {names}")
    params: dict[str, Any] = {}
    defaults = _OPTIONAL[cls]
    for name, check in cls.fields.items():
        if name in msg:
            if msg[name] is None and name in defaults:
                continue
            params[name] = check(name, msg[name])
        elif name not in defaults:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"{op_name} needs {name!r}")
    return cls(id=rid, **params)


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
