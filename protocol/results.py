"""What each op answers: the fields of a successful reply beside ``re`` and ``ok``, as
types (the objects they carry are in ``protocol.objects``), and a failed reply's
``error`` object.

The contract, not the server's code: the services build plain dicts; ``RESULTS`` is
what the AsyncAPI document (``protocol.schema``) and the suite's frame checks read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from .checks import Shape
from .errors import ErrorCode
from .objects import (
    Block,
    CalendarCount,
    CalendarDay,
    Challenge,
    ChallengeRow,
    Count,
    Daily,
    DailyPreparing,
    Day,
    DayCount,
    Delta,
    Entry,
    FriendDay,
    GameInfo,
    Id,
    InboxItem,
    Limits,
    MemberBoard,
    Move,
    Player,
    Position,
    Progress,
    Race,
    Rating,
    RatingEntry,
    Replay,
    Slug,
    State,
    Summary,
    Tournament,
    TournamentRow,
)
from .ops import Board, Lang, Op


class Signed(TypedDict):
    """``auth``: you are signed in."""

    player: Player
    limits: Limits
    deployment: Annotated[str, "the deployment this server belongs to: key accounts by it"]
    renamed_from: NotRequired[
        Annotated[
            Player,
            "the operators renamed you from this name: `player` is yours now (said once)",
        ]
    ]


class Registered(Signed):
    """``register``: a new player, signed in."""

    token: Annotated[str, "shown once: keep it (`auth` takes it)"]


class Games(TypedDict):
    games: list[GameInfo]
    deployment: str


class Rules(TypedDict):
    game: Slug
    text: Annotated[str, "the rules page, Markdown"]
    html: Annotated[str, "the same page rendered to HTML (no raw HTML of its own): show it"]
    lang: Annotated[Lang, "the page's language: the one asked for, else English"]


class GameState(TypedDict):
    """A game's state (``start``, ``resume``, ``resign``, ``move``, ``undo``)."""

    state: State


class GameDelta(TypedDict):
    """What a ``move`` or ``undo`` sent with ``"reply": "delta"`` changed."""

    delta: Delta


class Played(TypedDict):
    """``auto`` and ``finish``: the moves played, and the new state."""

    played: Annotated[list[Move], "in order; empty when nothing was played"]
    state: State


class PlayedDelta(TypedDict):
    """``auto`` and ``finish`` with ``"reply": "delta"``: the moves played, and what
    they changed together (the delta carries ``from_seq``)."""

    played: list[Move]
    delta: Delta


class FinishCheck(TypedDict):
    """``finish`` with ``check: true``: whether a certain win is found; nothing played."""

    certain: bool
    moves: Annotated[Count | None, "the line's length, or null"]


class Hint(TypedDict):
    move: Annotated[Move | None, "one move of a winning line, or null"]
    assisted: Literal[True]
    message: Annotated[str, "`no win found from here` when `move` is null"]


class MyGames(TypedDict):
    games: Annotated[list[Summary], "newest first"]
    cursor: Annotated[str | None, "send it back for the next page; null at the end"]


class Dailies(TypedDict):
    date: Day
    games: Annotated[dict[str, Daily | DailyPreparing], "slug → that game's daily"]
    streak: Annotated[Count, "UTC days in a row with a ranked daily finished by the rules"]


class RatingBoard(TypedDict):
    """``leaderboard`` with ``board: rating``: the players past provisional, highest
    rating first (issue 51)."""

    game: Slug
    board: Literal["rating"]
    date: None
    entries: list[RatingEntry]
    me: Annotated[RatingEntry | None, "your own row (null while provisional)"]
    cursor: str | None
    total: Annotated[Count, "players on the board (among friends: theirs)"]
    friends: bool


class Leaderboard(TypedDict):
    game: Slug
    board: Board
    date: Annotated[Day | None, "the daily board's day; null for alltime"]
    entries: list[Entry]
    me: Annotated[Entry | None, "your own entry"]
    cursor: str | None
    total: Annotated[Count, "entries on the board (among friends: theirs)"]
    friends: bool


class RaceOnly(TypedDict):
    """The race (``race_create``, ``race_start``, ``race_rematch``, ``race_end``,
    ``race_drop``)."""

    race: Race


class RaceJoined(TypedDict):
    race: Race
    state: NotRequired[Annotated[State, "your game, once the race runs"]]


class RaceWatched(TypedDict):
    race: Race
    boards: Annotated[list[MemberBoard], "each dealt member's board, `view` null until finished"]


class Empty(TypedDict):
    """Nothing besides ``re`` and ``ok`` (``race_leave``, ``race_unwatch``)."""


class ReplayResult(TypedDict):
    replay: Replay
    position: NotRequired[Annotated[Position, "with `step`"]]


class Stats(TypedDict):
    player: Player
    overall: Block
    games: Annotated[dict[str, Block], "slug → the games played (or the one asked)"]
    days: Annotated[list[DayCount], "the last 30 UTC days, oldest first"]
    ratings: Annotated[dict[str, Rating], "slug → the player's rating, at the games they have one"]
    tournaments: NotRequired[Annotated[TournamentStats, "the player's tournaments (issue 51)"]]


class FriendAdded(TypedDict):
    friend: Annotated[Player, "their registered name"]
    added: Annotated[bool, "false: you followed them already"]


class FriendRemoved(TypedDict):
    friend: Player
    removed: Annotated[bool, "false: you did not follow them"]


class Friends(TypedDict):
    date: Annotated[Day, "today (UTC)"]
    friends: list[FriendDay]
    blocked: Annotated[list[Player], "the players you block"]
    hidden: Annotated[bool, "your presence is hidden (you show as offline)"]


class Invited(TypedDict):
    invited: Annotated[Player, "their registered name (also when they block you: silently)"]


class Inbox(TypedDict):
    items: Annotated[
        list[InboxItem],
        "newest first: the last 30 days, at most 100 from players one follows and 50 from others",
    ]
    unread: Annotated[Count, "items not read yet"]


class InboxRead(TypedDict):
    unread: Annotated[Count, "items not read yet, after this"]


class Blocked(TypedDict):
    player: Player
    blocked: Annotated[bool, "false: you blocked them already"]


class Unblocked(TypedDict):
    player: Player
    unblocked: Annotated[bool, "false: you did not block them"]


class Presence(TypedDict):
    hidden: Annotated[bool, "your presence is hidden from friends (you show as offline)"]


class Reported(TypedDict):
    """``report``: the operators have it (issue 49)."""

    player: Player


class Calendar(TypedDict):
    month: Annotated[str, "YYYY-MM"]
    game: Annotated[Slug | None, "the game asked, or null: every game, counted"]
    days: Annotated[
        list[CalendarDay] | list[CalendarCount],
        "the month's days from the deployment's first day to today, in order: with "
        "`game` each one's status, par and difficulty, else counts across games",
    ]


class ChallengeOnly(TypedDict):
    challenge: Challenge


class ChallengeAccepted(TypedDict):
    challenge: Challenge
    state: Annotated[State, "your game on its deal (mode `challenge`)"]


class Challenges(TypedDict):
    challenges: Annotated[list[ChallengeRow], "made or accepted, newest first"]
    unread: Annotated[Count, "their `unread` summed"]


# -- accounts that last (issue 49) --------------------------------------------------


class LinkCode(TypedDict):
    """``link_code``: a code for another device's ``link``."""

    code: Annotated[str, "8 letters and digits; one use"]
    expires_in: Annotated[int, "seconds it works for"]


class Linked(Registered):
    """``link``: this device signed in to the account the code was made by."""


class TokenRotated(TypedDict):
    """``token_rotate``: the account's new token (the old one is refused now)."""

    token: Annotated[str, "shown once: keep it (`auth` takes it)"]


class AccountExport(TypedDict):
    """``account_export``: everything the server holds about you."""

    account: Annotated[
        dict[str, Any],
        "profile, games with their moves, results, follows, blocks, inbox, challenges, "
        "races (docs/protocol.md, `account_export`); after the first page only `player` "
        "and more `games`",
    ]
    cursor: Annotated[str | None, "the next page's (`account_export {cursor}`); null: the last"]


class AccountDeleted(TypedDict):
    """``account_delete``: the account is gone; this connection is signed out."""

    held_days: Annotated[int, "days the name is held back from registration"]


# -- tournaments (issue 51) ---------------------------------------------------------


class TournamentOnly(TypedDict):
    """The tournament (``tournament_create``, ``tournament_join``, ``tournament_watch``,
    ``tournament``)."""

    tournament: Tournament
    state: NotRequired[
        Annotated[State, "to an entrant with a deal in play (`tournament`, `tournament_join`)"]
    ]


class Tournaments(TypedDict):
    """``tournaments``: the lobby."""

    tournaments: Annotated[
        list[TournamentRow],
        "running first, then upcoming by `starts_at`, then yours finished in the last 7 "
        "days (newest first)",
    ]


class TournamentDealt(TypedDict):
    """``tournament_play``: your deal (mode `tournament`)."""

    tournament_id: Id
    deal: Annotated[int, Shape(minimum=1), "its number in the sequence (1 first)"]
    state: State


class TournamentStats(TypedDict):
    """A player's tournaments, in ``stats``."""

    played: Annotated[Count, "tournaments finished with at least one deal played"]
    won: Annotated[Count, "finished first"]
    podiums: Annotated[Count, "finished in the first three"]
    best: Annotated[int | None, Shape(minimum=1), "the best place; null before any"]


#: what a successful reply of each op holds, beside ``re`` and ``ok``: one type, or the
#: types it may be (``move``: a state, or a delta when asked)
RESULTS: dict[Op, tuple[type, ...]] = {
    Op.REGISTER: (Registered,),
    Op.AUTH: (Signed,),
    Op.GAMES: (Games,),
    Op.RULES: (Rules,),
    Op.START: (GameState,),
    Op.RESUME: (GameState,),
    Op.MOVE: (GameState, GameDelta),
    Op.UNDO: (GameState, GameDelta),
    Op.RESIGN: (GameState,),
    Op.HINT: (Hint,),
    Op.MY_GAMES: (MyGames,),
    Op.DAILY: (Dailies,),
    Op.LEADERBOARD: (Leaderboard, RatingBoard),
    Op.RACE_CREATE: (RaceOnly,),
    Op.RACE_JOIN: (RaceJoined,),
    Op.RACE_START: (RaceOnly,),
    Op.RACE_LEAVE: (Empty,),
    Op.RACE_REMATCH: (RaceOnly,),
    Op.RACE_END: (RaceOnly,),
    Op.RACE_DROP: (RaceOnly,),
    Op.REPLAY: (ReplayResult,),
    Op.STATS: (Stats,),
    Op.FRIEND_ADD: (FriendAdded,),
    Op.FRIEND_REMOVE: (FriendRemoved,),
    Op.FRIENDS: (Friends,),
    Op.AUTO: (Played, PlayedDelta),
    Op.FINISH: (Played, PlayedDelta, FinishCheck),
    Op.CHALLENGE_CREATE: (ChallengeOnly,),
    Op.CHALLENGE_ACCEPT: (ChallengeAccepted,),
    Op.CHALLENGE: (ChallengeOnly,),
    Op.CHALLENGES: (Challenges,),
    Op.CHALLENGE_CLOSE: (ChallengeOnly,),
    Op.RACE_WATCH: (RaceWatched,),
    Op.RACE_UNWATCH: (Empty,),
    Op.INVITE: (Invited,),
    Op.INBOX: (Inbox,),
    Op.INBOX_READ: (InboxRead,),
    Op.BLOCK: (Blocked,),
    Op.UNBLOCK: (Unblocked,),
    Op.PRESENCE: (Presence,),
    Op.CALENDAR: (Calendar,),
    Op.LINK_CODE: (LinkCode,),
    Op.LINK: (Linked,),
    Op.TOKEN_ROTATE: (TokenRotated,),
    Op.ACCOUNT_EXPORT: (AccountExport,),
    Op.ACCOUNT_DELETE: (AccountDeleted,),
    Op.REPORT: (Reported,),
    Op.TOURNAMENT_CREATE: (TournamentOnly,),
    Op.TOURNAMENT_JOIN: (TournamentOnly,),
    Op.TOURNAMENT_LEAVE: (Empty,),
    Op.TOURNAMENT: (TournamentOnly,),
    Op.TOURNAMENTS: (Tournaments,),
    Op.TOURNAMENT_PLAY: (TournamentDealt,),
    Op.TOURNAMENT_WATCH: (TournamentOnly,),
    Op.TOURNAMENT_UNWATCH: (Empty,),
}
assert set(RESULTS) == set(Op), "every op has its result type"


class Error(TypedDict):
    """A failed reply's ``error``."""

    code: Annotated[ErrorCode, "for programs: what to do (never shown to a player)"]
    message: Annotated[
        str, "the same in English words: show it only when `key` is a key the client lacks"
    ]
    key: Annotated[
        str,
        "the message a client says to its player in the player's language: a key of the "
        "catalogues (`error.rate_limited`; docs/i18n.md), the code's own `error.CODE` or "
        "a more precise one",
    ]
    params: Annotated[
        dict[str, str | int | float | None],
        "the key's parameters (`seconds`: a duration, say it in words; `name`, `code`, …)",
    ]
    state: NotRequired[
        Annotated[State, "`stale_seq`, and a refused `finish`: the game as it is now"]
    ]
    retry_after: NotRequired[
        Annotated[
            float,
            "`rate_limited` and `unavailable`: seconds until asking again may succeed (a "
            "msgpack float, possibly fractional: 0.5, 1234.567)",
        ]
    ]
    preparing: NotRequired[
        Annotated[Progress, "`unavailable` of a daily still being certified: its progress"]
    ]
