"""The checks of request fields, and the types that name them once.

A request field's type is ``Annotated[T, check]``: :class:`Check` holds both the
function ``parse_request`` runs on the value (the value to use, or a
``ProtocolError``) and the JSON Schema of the values it accepts, so the machine-read
contract (``protocol.schema``) comes from the very check the server runs. A result's
or event's field may carry :class:`Shape` (JSON Schema keywords its type adds) or a
plain string (its description) in its ``Annotated``.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

from .codec import MAX_ID
from .errors import ErrorCode, ProtocolError

#: a JSON Schema (a JSON object)
JSON = dict[str, Any]

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
#: a code that links a device to an account (``link``): 8 of :data:`LINK_ALPHABET`,
#: taken in either case
LINK_CODE_RE = re.compile(r"[A-Za-z0-9]{8}")
#: the letters and digits a link code is made of: none that reads as another (no 0/O,
#: 1/I/L, 5/S, 8/B, 2/Z, U/V)
LINK_ALPHABET = "34679ACDEFGHJKMNPQRTWXY"
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
MOVE_FIELDS = 8
MOVE_TEXT = 64


class Check:
    """A request field's check: ``run(field, value)`` returns the value to use or
    raises ``ProtocolError``; ``schema`` is the JSON Schema of the values it accepts
    (what it refuses as ``not_found`` rather than ``bad_request`` included: a slug of
    no game is well formed)."""

    __slots__ = ("run", "schema")

    def __init__(self, run: Callable[[str, Any], Any], schema: JSON) -> None:
        self.run = run
        self.schema = schema

    def __call__(self, field: str, value: Any) -> Any:
        return self.run(field, value)

    def __repr__(self) -> str:
        return f"Check({getattr(self.run, '__qualname__', self.run)!r}, {self.schema!r})"


class Shape:
    """JSON Schema keywords a field's type adds (``Annotated[int, Shape(minimum=0)]``)."""

    __slots__ = ("keywords",)

    def __init__(self, **keywords: Any) -> None:
        self.keywords: JSON = keywords

    def __repr__(self) -> str:
        return f"Shape(**{self.keywords!r})"


def pattern(regex: re.Pattern[str]) -> str:
    """A ``fullmatch`` regex as a JSON Schema pattern (which searches: anchored)."""
    return f"^{regex.pattern}$"


def _fail(field: str, what: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_REQUEST, f"{field!r} must be {what}")


def integer(lo: int, hi: int) -> Check:
    def check(field: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _fail(field, f"an integer in [{lo}, {hi}]")
        return value

    return Check(check, {"type": "integer", "minimum": lo, "maximum": hi})


def text(regex: re.Pattern[str], what: str) -> Check:
    def check(field: str, value: Any) -> str:
        if not isinstance(value, str) or not regex.fullmatch(value):
            raise _fail(field, what)
        return value

    return Check(check, {"type": "string", "pattern": pattern(regex), "description": what})


def choice(enum: type[StrEnum]) -> Check:
    # the members by value: a dict lookup, where ``enum(value)`` costs a microsecond
    members: dict[str, StrEnum] = {str(m): m for m in enum}

    def check(field: str, value: Any) -> StrEnum:
        member = members.get(value) if isinstance(value, str) else None
        if member is None:
            options = " | ".join(repr(str(m)) for m in enum)
            raise _fail(field, f"one of {options}")
        return member

    return Check(check, {"type": "string", "enum": list(members)})


def _bool(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, "true or false")
    return value


boolean = Check(_bool, {"type": "boolean"})


def _date(field: str, value: Any) -> str:
    if isinstance(value, str) and DATE_RE.fullmatch(value):
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            return value
    raise _fail(field, "a date YYYY-MM-DD")


MONTH_RE = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


def _month(field: str, value: Any) -> str:
    if isinstance(value, str) and MONTH_RE.fullmatch(value) and value >= "1970-01":
        return value
    raise _fail(field, "a month YYYY-MM")


month = Check(
    _month, {"type": "string", "pattern": pattern(MONTH_RE), "description": "a month YYYY-MM (UTC)"}
)

DATE_SCHEMA: JSON = {"type": "string", "pattern": pattern(DATE_RE), "format": "date"}
date = Check(_date, {**DATE_SCHEMA, "description": "a day YYYY-MM-DD (UTC)"})


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


move = Check(
    _move,
    {
        "type": "object",
        "description": "a move as the state's `legal` lists it: its shape is checked here, "
        "its legality by the game",
        "minProperties": 1,
        "maxProperties": MOVE_FIELDS,
        "propertyNames": {"maxLength": MOVE_TEXT},
        "additionalProperties": {
            "anyOf": [
                {"type": "null"},
                {"type": "string", "maxLength": MOVE_TEXT},
                {"type": "integer", "minimum": -MAX_ID, "maximum": MAX_ID},
            ]
        },
    },
)


def _game(field: str, value: Any) -> str:
    """A game slug, in any case (``Crescent`` is ``crescent``). A string that is no
    slug names no game: ``not_found``, as an unknown slug is (one answer for both)."""
    if not isinstance(value, str) or not 1 <= len(value) <= SLUG_MAX:
        raise _fail(field, "a game slug such as 'crescent'")
    slug = value.lower()
    if not SLUG_RE.fullmatch(slug):
        raise ProtocolError(
            ErrorCode.NOT_FOUND,
            f"no patience is called {value!r}",
            key="error.no_patience",
            params={"name": value},
        )
    return slug


game = Check(
    _game,
    {
        "type": "string",
        "minLength": 1,
        "maxLength": SLUG_MAX,
        "description": "a game's slug as `games` lists it, in any case; a string that "
        "names no game is `not_found`",
    },
)


def player_name(value: Any) -> str:
    """A player's name as names are stored, NFKC-normalised (``Вася``, ``anna_k``; a
    fullwidth ``ａｎｎａ`` is ``anna``), or ``bad_request`` saying :data:`NAME_RULE`.

    Letters may come from any one script: mixing scripts (a Latin ``a`` among Cyrillic
    letters) would let look-alike names pass as one. NFKC, not NFC, so that the
    compatibility forms of a letter (fullwidth, ligatures, mathematical letters) are
    that letter. The rule of every name looked up (``friend_add``, ``stats``, …); a new
    name must also pass :func:`new_player_name`."""
    if not isinstance(value, str):
        raise _bad_name()
    name = unicodedata.normalize("NFKC", value)
    ok = 3 <= len(name) <= 20 and all(ch.isalpha() or ch in "0123456789_-" for ch in name)
    scripts = {unicodedata.name(ch, "?").split(" ")[0] for ch in name if ch.isalpha()}
    if not ok or len(scripts) > 1:
        raise _bad_name()
    return name


def _bad_name() -> ProtocolError:
    """A name that breaks :data:`NAME_RULE`, said so in the player's words."""
    return ProtocolError(
        ErrorCode.BAD_REQUEST, f"'name' must be {NAME_RULE}", key="error.name_invalid"
    )


def new_player_name(value: Any) -> str:
    """The name of a player to ``register``: :func:`player_name`, with at least one
    letter (``___``, ``---`` or ``123`` name nobody: they tell players apart by no
    letter). Names registered before this rule may lack one: they are still looked up
    by :func:`player_name`. Whether it looks like an existing player's name is the
    server's to say (``server.services.names``)."""
    name = player_name(value)
    if not any(ch.isalpha() for ch in name):
        raise _bad_name()
    return name


def _player(field: str, value: Any) -> str:
    """A player's name to look up (the rule of :func:`player_name`)."""
    try:
        return player_name(value)
    except ProtocolError:
        raise _fail(field, "a player's name") from None


#: what a JSON Schema can say of a name (NFKC and one script are the server's to check)
_NAME: JSON = {"type": "string", "minLength": 1, "description": NAME_RULE + " (NFKC)"}

# -- the types of request fields: each names its check once (``Annotated``) ----------

GameSlug = Annotated[str, game]
GameId = Annotated[str, text(ID_RE, "a game id (1–64 of [A-Za-z0-9_-])")]
RaceId = Annotated[str, text(ID_RE, "a race id")]
Seq = Annotated[int, integer(0, MAX_SEQ)]
Seed = Annotated[int, integer(0, MAX_SEED)]
Limit = Annotated[int, integer(1, MAX_LIMIT)]
Step = Annotated[int, integer(0, MAX_SEQ)]
Cursor = Annotated[str, text(CURSOR_RE, "a cursor from an earlier reply")]
Date = Annotated[str, date]
Month = Annotated[str, month]
#: a report's own words: 1–280 characters, no control characters (issue 49)
ReportText = Annotated[
    str,
    text(re.compile(r"[^\x00-\x1f\x7f-\x9f]{1,280}"), "1–280 characters, no control characters"),
]
InboxId = Annotated[str, text(ID_RE, "an inbox item's id")]
PlayerName = Annotated[str, Check(_player, _NAME)]
NewPlayerName = Annotated[str, Check(lambda field, value: new_player_name(value), _NAME)]
Token = Annotated[str, text(TOKEN_RE, "a token from register")]
RaceCode = Annotated[str, text(RACE_CODE_RE, "a race code (4–12 letters and digits)")]
TournamentCode = Annotated[str, text(RACE_CODE_RE, "a tournament code (4–12 letters and digits)")]
TournamentId = Annotated[str, text(ID_RE, "a tournament id")]
#: a tournament's start, ms since the epoch (the server says how far ahead it may be)
StartsAt = Annotated[int, integer(0, 2**53)]
#: a tournament's length in minutes
TournamentMinutes = Annotated[int, integer(5, 180)]
ChallengeCode = Annotated[
    str, text(CHALLENGE_CODE_RE, "a challenge code (4–16 letters and digits)")
]
LinkCode = Annotated[str, text(LINK_CODE_RE, "a link code (8 letters and digits)")]
WireMove = Annotated[dict[str, Any], move]
