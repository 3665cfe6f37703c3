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
