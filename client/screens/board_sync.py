"""A board's requests to the server, one at a time, and how it stays in step with the
game as the server has it: through a lost connection (reconnect, fetch the game,
send again what was not carried out) and through changes made elsewhere (the
``game`` event: another connection of the same account played)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from textual import on

from protocol.errors import ErrorCode

from ..connection import ClientError, Connection, ServerError, ServerUnavailable
from ..host import ConnectionLost, GameChanged, Reconnected
from ..lang import N_, _, current
from ..notation import WireMove
from .board_state import ShownBoard

T = TypeVar("T")

#: seconds between two tries to reach the server after reconnecting gave up
RETRY_SECONDS = 5.0

#: what the board asks the server, said in a sentence ("… not sent")
ASKED = {"undo": N_("undo"), "resign": N_("resign")}
#: …and what the status line says once it is done
DONE = {"undo": N_("move undone"), "resign": N_("game resigned")}


class SyncedBoard(ShownBoard):
    """The board's round trips: :meth:`round_trip` (one at a time, again after a
    reconnect), :meth:`request` (move, undo, resign), and the news that bring the board
    up to date (:class:`ConnectionLost`, :class:`Reconnected`, :class:`GameChanged`)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        #: a request of this board is under way (nothing else is sent meanwhile)
        self.busy = False
        #: the connection the board's state was last had from (a new one after a
        #: reconnect means: fetch the game again before trusting the board)
        self.synced: Connection | None = None
        #: the failed reconnecting a request of this board reported already
        self.reported: BaseException | None = None
        #: the highest ``seq`` of this game that the ``game`` event told of
        self.heard_seq = 0

    async def round_trip(self, call: Callable[[], Awaitable[T]], what: str = "") -> T | None:
        """One request to the server for this game, one at a time: its answer, or
        None when it was refused (the board shows the game as the server has it, and
        the server's words).

        When the connection is gone (a server restart, a network blip) the board
        reconnects (:meth:`recover`) and, if the game is where it was, sends ``call``
        again on the new connection: a move typed while the server was away is played
        once it is back, or refused with the reason, never dropped in silence.
        ``call`` reads ``self.host.conn`` and ``self.state`` when it runs; ``what`` is
        what was asked, in the player's words."""
        what = what or _("the request")
        if self.busy:
            self.say(_("{what} not sent: the last request is still under way", what=what))
            return None
        self.busy = True
        try:
            for attempt in range(2):
                conn = self.host.conn
                try:
                    answer = await call()
                except ServerUnavailable as exc:
                    if attempt:  # lost again at once, on the new connection
                        self.say(self.not_sent(exc, what))
                        return None
                    # still busy: nothing else is sent while it reconnects
                    if not await self.recover(exc, conn, what):
                        return None
                    continue
                self.synced = conn
                return answer
        except ServerError as exc:
            if exc.state is not None:  # the game as the server has it after the refusal
                self.set_state(exc.state)
            if exc.code == ErrorCode.STALE_SEQ and exc.state is not None:
                self.say(_("the game moved on elsewhere: the board is up to date again"))
            else:
                self.say(_("error: {error}", error=exc))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
        finally:
            self.busy = False
            self.catch_up()  # a change heard meanwhile, if the answer is older
        return None

    async def request(self, what: str, move: WireMove | None = None) -> bool:
        """Move, undo or resign; the new state on success, the server's words otherwise."""
        gid = str(self.state["game_id"])

        async def call() -> dict[str, Any]:
            conn = self.host.conn  # a new one after a reconnect
            if what == "move":
                assert move is not None
                return await conn.play(self.state, move)
            if what == "undo":
                return await conn.take_back(self.state)
            self.resigned_game = gid
            return await conn.resign(gid)

        if move is not None:
            asked = current().move(move, self.piles)
        else:
            asked = _(ASKED[what]) if what in ASKED else what
        state = await self.round_trip(call, asked)
        if state is None:
            return False
        self.set_state(state)
        self.say(_(DONE[what]) if what in DONE else asked)
        return True

    async def recover(self, lost: ServerUnavailable, dropped: Connection, what: str) -> bool:
        """The connection ``dropped`` is gone while ``what`` was asked: connect again
        (or wait for the app's reconnecting under way), log in and fetch the game as
        the server has it. True when the game is where it was (the same ``seq``: what
        was asked was not carried out), so the caller sends it again; otherwise the
        board shows the fresh game and says why ``what`` is not sent."""
        seq = self.state.get("seq")
        self.say(_("{why} — reconnecting…", why=lost))
        try:
            await self.host.reconnect(dropped)
            conn = self.host.conn
            state = await conn.resume(str(self.state["game_id"]))
        except ClientError as exc:
            self.reported = exc  # the app's Reconnected(exc) has nothing to add
            self.source = self.source_index = None  # a try again starts afresh
            self.redraw()
            self.say(self.not_sent(exc, what))
            self.keep_trying()
            return False
        self.synced = conn
        self.set_state(state)
        if state.get("seq") == seq:
            self.say(_("reconnected: sending {what} again…", what=what))
            return True
        self.say(
            _(
                "reconnected, but the game changed while the connection was down (what "
                "you asked may have reached the server just before it dropped, or the game "
                "was played elsewhere): {what} is not sent again — the board is as the "
                "server has it",
                what=what,
            )
        )
        return False

    @on(ConnectionLost)
    def connection_lost(self, message: ConnectionLost) -> None:
        """The app noticed the connection drop and is reconnecting: say so (a request
        under way says it itself)."""
        if not self.busy:
            self.say(_("{why} — reconnecting…", why=message.why))

    @on(Reconnected)
    async def reconnected(self, message: Reconnected) -> None:
        """The app's reconnecting ended: fetch the game again on the new connection
        (unless a request did already), keeping a chosen source pile when the game is
        where it was; or say that it gave up (the next request tries again)."""
        if self.busy or (message.error is not None and message.error is self.reported):
            return
        if message.error is not None:
            self.say(self.play_on(message.error))
            self.keep_trying()
            return
        if self.synced is self.host.conn:
            return
        conn = self.host.conn
        chosen = self.source, self.source_index
        self.busy = True
        try:
            state = await conn.resume(str(self.state["game_id"]))
        except ClientError as exc:
            self.say(self.play_on(exc))
            return
        finally:
            self.busy = False
        self.synced = conn
        same = state.get("seq") == self.state.get("seq")
        self.set_state(state)
        if same and chosen[0] in self.sources():
            self.source, self.source_index = chosen
            self.redraw()
        if same:
            self.say(_("reconnected: play on"))
        else:
            self.say(
                _("reconnected: the game changed meanwhile: the board is as the server has it")
            )

    @on(GameChanged)
    def game_changed(self, message: GameChanged) -> None:
        """One of the player's games changed through another of their connections (a
        second terminal, a browser tab): when it is this board's and the board is
        behind it, fetch the game again — now, or once the request under way is
        answered (:meth:`catch_up`)."""
        if message.game_id != self.state.get("game_id"):
            return
        self.heard_seq = max(self.heard_seq, message.seq)
        self.catch_up()

    def catch_up(self) -> None:
        """Fetch the game in the background if a change was heard past the board's."""
        if not self.busy and self.heard_seq > int(self.state.get("seq") or 0):
            self.run_latest(self._resume_heard, group="catch-up")

    async def _resume_heard(self) -> None:
        if self.busy or self.heard_seq <= int(self.state.get("seq") or 0):
            return  # a request's answer brought the board this far already
        conn = self.host.conn
        self.busy = True
        try:
            state = await conn.resume(str(self.state["game_id"]))
        except ClientError:
            return  # the next request finds the game as it is (stale_seq), or reconnects
        finally:
            self.busy = False
        self.synced = conn
        self.set_state(state)
        self.say(_("played elsewhere (another window of yours): the board is up to date"))

    def keep_trying(self) -> None:
        """Reconnecting gave up: try again now and then in the background, so that a
        server that is back is found before the next move and the board says so
        (after a restart it kept "cannot reach … not sent" until a move, issue 47)."""
        self.set_timer(RETRY_SECONDS, self._try_again)

    def _try_again(self) -> None:
        conn = self.host.conn
        if self.busy or (self.synced is conn and not conn.lost):
            return
        self.run_latest(functools.partial(self._reach, conn), group="reach")

    async def _reach(self, conn: Connection) -> None:
        with contextlib.suppress(ClientError):  # said by Reconnected(error): tried again
            await self.host.reconnect(conn)

    @staticmethod
    def not_sent(error: BaseException, what: str) -> str:
        """A request that could not reach the server, and what the player can do."""
        return _(
            "error: {error} — {what} not sent: press q to leave, or try again",
            error=error,
            what=what,
        )

    @staticmethod
    def play_on(error: BaseException) -> str:
        """Reconnecting gave up: what the player can do."""
        return _("error: {error} — press q to leave, or play on to try again", error=error)
