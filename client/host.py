"""What a screen may ask of the app that shows it: the :class:`Host` protocol.

Screens depend on this, never on the app itself, so imports flow one way
(connection → launch, host → screens → app). :func:`host` finds the host of a
screen (the :class:`~client.app.PasyansApp` in use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from textual.message import Message
from textual.message_pump import MessagePump

from protocol.messages import Mode, Push

from .connection import ClientError, Connection
from .launch import Launch
from .text import Titles


@runtime_checkable
class Host(Protocol):
    """The app, as its screens see it."""

    @property
    def conn(self) -> Connection:
        """The connection to the server (a new one after :meth:`reconnect`)."""

    @property
    def titles(self) -> Titles:
        """The games' catalogue by slug, for titles."""

    #: the race screen's handler of ``race``/``race_started`` events
    race_listener: Callable[[Push], None] | None
    #: the tournament screen's handler of ``tournament`` events
    tournament_listener: Callable[[Push], None] | None

    async def reconnect(self, dropped: Connection | None = None) -> None:
        """A new connection in place of a dropped one, logged in again: the one
        under way when the app is already reconnecting; nothing when ``dropped`` (the
        connection a request failed on) was replaced already by an open one."""

    async def register(self, name: str) -> str | None:
        """Register ``name`` and carry on; an error message for the name screen, else None."""

    async def open_game(
        self,
        slug: str,
        mode: Mode,
        *,
        seed: int | None = None,
        resume: str | None = None,
        date: str = "",
        challenge: str = "",
    ) -> None:
        """Start (or resume) a game and show its board: ``date``, a past day's daily
        deal (unranked); ``challenge``, your game on that challenge's deal. Errors go
        to a notification."""

    async def open_race(self, launch: Launch) -> ClientError | None:
        """Make or join the race ``launch`` names and show it; the server's refusal."""

    def leave_board(self) -> None:
        """Back to the home screen, or quit when the board was the command."""

    @property
    def quits_on_leave(self) -> bool:
        """Whether leaving the board or the race quits pasyans (the command opened
        it) rather than going back to the home screen."""

    def leave_race(self, reminder: str = "") -> None:
        """Close the race's screens and go back home, or quit when the race was the
        command; ``reminder`` (how to come back) is said at home, or printed on quitting."""


class ConnectionLost(Message, bubble=False):
    """Told to every screen when the connection dropped by itself: the app is
    reconnecting in the background (:class:`Reconnected` follows)."""

    def __init__(self, why: str) -> None:
        super().__init__()
        self.why = why


class Reconnected(Message, bubble=False):
    """Told to every screen when the app's reconnecting ended: a new connection,
    logged in (``error`` None), or why it gave up (the very exception that those who
    waited for it got, so they can tell that they have said it already)."""

    def __init__(self, error: BaseException | None = None) -> None:
        super().__init__()
        self.error = error


class GameChanged(Message, bubble=False):
    """Told to every screen when the server's ``game`` event says that one of the
    player's games changed through another of their connections (a second terminal, a
    browser tab): ``game_id`` is at ``seq`` now, its ``status`` as said."""

    def __init__(self, game_id: str, seq: int, status: str) -> None:
        super().__init__()
        self.game_id = game_id
        self.seq = seq
        self.status = status


class InboxChanged(Message, bubble=False):
    """Told to every screen when an item came to the inbox (an ``invited`` event):
    the home screen shows the new unread count."""


def host(node: MessagePump) -> Host:
    """The host of a screen (or any widget): the app it is shown in."""
    app = node.app
    assert isinstance(app, Host), type(app).__name__  # a screen shown outside pasyans
    return app
