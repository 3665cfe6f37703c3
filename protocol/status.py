"""Status names on the wire, each written once: a game's and a race's.

They are ``StrEnum`` members, so each compares equal to its plain string (a game
module returning ``"won"`` matches :attr:`GameStatus.WON`) and goes on the wire as it.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """``state.status``: a game is in play until it is won or lost."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class RaceStatus(StrEnum):
    """``race.status``: lobby → countdown → running → finished."""

    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    RUNNING = "running"
    FINISHED = "finished"


class Out(StrEnum):
    """``out``: why a ``lost`` game ended other than with no move left — its player
    resigned, or the server gave it up for them."""

    RESIGNED = "resigned"
    #: a race member away past the race's ``absent_limit_ms``
    TIMED_OUT = "timed_out"
    #: the race's creator dropped the member (``race_drop``)
    DROPPED = "dropped"
    #: the race's creator ended the race (``race_end``)
    ENDED = "ended"
    #: a race on a daily deal still running when its day closed (midnight UTC)
    DAY_OVER = "day_over"
