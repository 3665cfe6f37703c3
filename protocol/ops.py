"""The names of the wire protocol, each written once: ops, events, and the few words a
request chooses among (how a game was dealt, which board, what a move answers).

They are ``StrEnum`` members: each compares equal to its plain string and goes on the
wire as it.
"""

from __future__ import annotations

from enum import StrEnum


class Op(StrEnum):
    """A request's ``op`` (docs/protocol.md, "Operations")."""

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
    INVITE = "invite"
    INBOX = "inbox"
    INBOX_READ = "inbox_read"
    BLOCK = "block"
    UNBLOCK = "unblock"
    PRESENCE = "presence"
    CALENDAR = "calendar"
    # accounts that last (issue 49, the players' half)
    LINK_CODE = "link_code"
    LINK = "link"
    TOKEN_ROTATE = "token_rotate"
    ACCOUNT_EXPORT = "account_export"
    ACCOUNT_DELETE = "account_delete"
    # issue 49, operators' half
    REPORT = "report"
    # tournaments (issue 51)
    TOURNAMENT_CREATE = "tournament_create"
    TOURNAMENT_JOIN = "tournament_join"
    TOURNAMENT_LEAVE = "tournament_leave"
    TOURNAMENT = "tournament"
    TOURNAMENTS = "tournaments"
    TOURNAMENT_PLAY = "tournament_play"
    TOURNAMENT_WATCH = "tournament_watch"
    TOURNAMENT_UNWATCH = "tournament_unwatch"


class Event(StrEnum):
    """An unasked message's ``ev`` (docs/protocol.md, "Events")."""

    RACE = "race"
    RACE_STARTED = "race_started"
    #: a member's board, to a race's spectators
    RACE_BOARD = "race_board"
    #: someone finished a challenge: to its creator
    CHALLENGE_RESULT = "challenge_result"
    #: a game of the player's changed: to their other connections
    GAME = "game"
    #: a friend sent you a race or a challenge: to every connection of yours
    INVITED = "invited"
    #: a tournament's standings or status changed: to its entrants and watchers, batched
    TOURNAMENT = "tournament"
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
    #: a deal of a tournament (``tournament_play``)
    TOURNAMENT = "tournament"


class Lang(StrEnum):
    """A language the server has words in (docs/i18n.md)."""

    EN = "en"
    RU = "ru"


class Activity(StrEnum):
    """What a friend online is doing (the ``friends`` rows' ``activity``)."""

    HOME = "home"
    PLAYING = "playing"
    RACING = "racing"
    WATCHING = "watching"


class InboxKind(StrEnum):
    """What an inbox item is."""

    INVITE = "invite"
    CHALLENGE_RESULT = "challenge_result"
    DAILY_BEATEN = "daily_beaten"
    REMATCH = "rematch"
    #: a tournament you played is over: your place (issue 51)
    TOURNAMENT_RESULT = "tournament_result"


class DayStatus(StrEnum):
    """A player's daily of one game on one day, in the ``calendar``."""

    WON = "won"
    LOST = "lost"
    ASSISTED = "assisted"
    PLAYING = "playing"
    NOT_PLAYED = "not_played"


class ReportReason(StrEnum):
    """Why a player reports another (``report``)."""

    CHEATING = "cheating"
    NAME = "name"
    ABUSE = "abuse"
    OTHER = "other"


class TournamentStatus(StrEnum):
    """Where a tournament is: before its window, in it, or after."""

    UPCOMING = "upcoming"
    RUNNING = "running"
    FINISHED = "finished"


class Board(StrEnum):
    """A leaderboard: a day's, or all time's."""

    DAILY = "daily"
    ALLTIME = "alltime"
    #: the game's ratings from races (issue 51)
    RATING = "rating"


#: Ops a connection may send before ``register`` or ``auth``.
PUBLIC_OPS: frozenset[Op] = frozenset(
    {
        Op.REGISTER,
        Op.AUTH,
        Op.LINK,
        Op.GAMES,
        Op.RULES,
        Op.DAILY,
        Op.LEADERBOARD,
        Op.REPLAY,
        Op.STATS,
        Op.CHALLENGE,
        Op.TOURNAMENT,
    }
)
