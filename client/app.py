"""The Textual application: connect, log in (or register on first run), then the
home screen or straight to a game.

The WebSocket connection runs on the same asyncio loop as Textual; screens await
the server directly, so one player's requests go out strictly in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.message import Message

from protocol.errors import ErrorCode
from protocol.messages import Event, Mode, Push

from . import config, launch
from .challenges import challenge_news
from .connection import ClientError, Connection, ServerError
from .errors import BANNED
from .host import ConnectionLost, GameChanged, InboxChanged, Reconnected
from .inbox import invited_news
from .lang import _, say
from .launch import Launch, check_game
from .renamed import told_renamed
from .screens.board import BoardScreen
from .screens.dialogs import MessageScreen, NameScreen
from .screens.home import DailyScreen
from .screens.race import RaceScreen
from .screens.replay import ReplayScreen
from .screens.watch import WatchScreen
from .status import EXIT_OK, exit_status
from .watch import Watched


class PasyansApp(App[int]):
    """The app; what its screens may ask of it is :class:`client.host.Host`."""

    TITLE = "pasyans"
    CSS = "Screen { background: $background; }"

    def __init__(self, server: str, *, launch: Launch | None = None) -> None:
        super().__init__()
        self.server = server
        self.launch = launch
        self.conn = Connection(server, on_event=self.server_event, on_lost=self.connection_lost)
        #: the reconnecting under way (or the last one), shared by all who wait for it
        self.reconnecting: asyncio.Task[None] | None = None
        self.titles: dict[str, dict[str, Any]] = {}
        self.connected = False
        #: the race screen's handler of ``race``/``race_started`` events
        self.race_listener: Callable[[Push], None] | None = None
        #: the tournament screen's handler of ``tournament`` events
        self.tournament_listener: Callable[[Push], None] | None = None
        #: what stopped the app (printed by the command line once it quit) and the
        #: exit status it quits with (client/status.py)
        self.failure: str | None = None
        self.status = EXIT_OK
        #: said on the terminal once the app quit (e.g. how to come back to a race)
        self.farewell = ""

    async def stop(self, exc: ClientError) -> None:
        """Something that ends this run: say it on a full screen; q quits with the
        exit status it calls for (3 the server out of reach, 2 bad usage, 1 refused)."""
        self.failure = str(exc)
        self.status = exit_status(exc)
        await self.push_screen(MessageScreen(_("{error}\n\nPress q to quit.", error=exc)))

    async def action_quit(self) -> None:
        self.exit(self.status)

    async def on_mount(self) -> None:
        try:
            await self.conn.open()
            self.connected = True
            self.titles = await self.conn.titles()
        except ClientError as exc:
            await self.stop(exc)
            return
        config.note_deployment(self.server, self.conn.deployment)
        creds = config.load(self.server)
        if creds is None:
            await self.push_screen(NameScreen())
            return
        try:
            signed = await self.conn.auth(creds.token)
            renamed = told_renamed(self.server, creds, signed)  # issue 49
            if renamed:
                self.notify(renamed, timeout=30)
        except ServerError as exc:
            if exc.key == BANNED:  # issue 49: said on a full screen, no new account
                await self.stop(exc)
                return
            if exc.code != ErrorCode.UNAUTHORIZED:
                raise
            await self.push_screen(
                NameScreen(
                    _(
                        "The server refused the saved token of {player}. Choose a name "
                        "for a new account, or quit and run `pasyans login TOKEN`.",
                        player=repr(creds.player),
                    )
                )
            )
            return
        except ClientError as exc:
            await self.stop(exc)
            return
        await self.logged_in()

    async def reconnect(self, dropped: Connection | None = None) -> None:
        """A new connection in place of a dropped one (tried again with backoff while
        the server is out of reach: :meth:`Connection.reopen`), logged in again.

        There is one reconnecting at a time: a caller while one is under way waits
        for it (and gets its error). When ``dropped`` — the connection a request
        failed on — was replaced already by an open one, there is nothing to do."""
        task = self.reconnecting
        if task is None or task.done():
            if dropped is not None and dropped is not self.conn and not self.conn.lost:
                return
            task = self.start_reconnecting()
        await asyncio.shield(task)

    def start_reconnecting(self) -> asyncio.Task[None]:
        task = self.reconnecting
        if task is None or task.done():
            task = asyncio.create_task(self._reopen(), name="pasyans-reconnect")
            task.add_done_callback(self._reopened)
            self.reconnecting = task
        return task

    async def _reopen(self) -> None:
        old = self.conn
        conn = await Connection.reopen(
            self.server, on_event=self.server_event, on_lost=self.connection_lost
        )
        creds = config.load(self.server)
        try:
            if creds is not None:
                await conn.auth(creds.token)
        except BaseException:
            await conn.close()
            raise
        self.conn = conn
        await old.close()

    def _reopened(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        self.tell(lambda: Reconnected(error))
        if not self.shows_board:
            if error is None:
                self.notify(_("reconnected to the server"))
            else:
                self.notify(f"{error}", severity="error")

    def connection_lost(self, conn: Connection) -> None:
        """The connection dropped by itself (the server went away, or stopped
        answering the keep-alive pings): tell the screens and reconnect at once, in
        the background, so an idle board says so and the next request finds a new
        connection (or waits for it)."""
        if conn is not self.conn or not self.is_running:
            return
        why = conn.closed_why or _("the connection dropped")
        if conn.quiet:  # open too long before signing in: nothing the player did
            self.start_reconnecting()
            return
        self.tell(lambda: ConnectionLost(why))
        if not self.shows_board:
            self.notify(_("{why} — reconnecting…", why=why), severity="warning")
        self.start_reconnecting()

    @property
    def shows_board(self) -> bool:
        """Whether the screen in front is a board (it tells connection news itself)."""
        return isinstance(self.screen_stack[-1] if self.screen_stack else None, BoardScreen)

    def tell(self, message: Callable[[], Message]) -> None:
        """Post a ``message()`` to every screen of the stack (each decides what it means)."""
        for screen in self.screen_stack:
            screen.post_message(message())

    async def on_unmount(self) -> None:
        if self.reconnecting is not None and not self.reconnecting.done():
            self.reconnecting.cancel()
        if self.connected:
            await self.conn.close()

    async def register(self, name: str) -> str | None:
        """Register ``name`` and carry on; an error message for the name screen, else None."""
        try:
            result = await self.conn.register(name)
        except ServerError as exc:
            if exc.code == ErrorCode.NAME_TAKEN:
                return _("{name} is taken: try another name", name=repr(name))
            return str(exc)
        except ClientError as exc:
            return str(exc)
        config.save(self.server, config.Credentials(result["player"], result["token"]))
        self.pop_screen()
        self.notify(
            _(
                "Welcome, {player}! Your token is saved in your config folder.",
                player=result["player"],
            )
        )
        await self.logged_in()
        return None

    async def logged_in(self) -> None:
        if self.launch is None:
            await self.push_screen(DailyScreen())
            return
        if self.launch.replay is not None:
            await self.push_screen(ReplayScreen(self.launch.replay))
            return
        if self.launch.watch:
            try:
                watched = Watched.of(await self.conn.race_watch(self.launch.watch))
            except ClientError as exc:
                await self.stop(exc)
                return
            await self.push_screen(WatchScreen(watched))
            return
        if self.launch.race:
            error = await self.open_race(self.launch)
            if error is not None:
                await self.stop(error)
            return
        try:
            if self.launch.game:
                check_game(self.launch.game, self.titles)
            state = await launch.open_game(self.conn, self.launch, self.certifying)
        except ClientError as exc:
            await self.stop(exc)
            return
        await self.push_screen(BoardScreen(state))

    async def open_race(self, wanted: Launch) -> ClientError | None:
        """Make the race ``wanted`` asks for (``race="new"``: on ``game``, ``seed``, or
        today's daily deal with ``mode`` daily) or join it by its code, and open its
        screen (the lobby, or your game when you come back to a running race).

        The server's refusal (``not_found``, ``forbidden``…) is returned and nothing
        opens: ``pasyans race`` shows it and quits, the home screen's dialogs show it
        and let you try again.
        """
        try:
            if wanted.game:
                check_game(wanted.game, self.titles)
            race, state = await launch.open_race(self.conn, wanted)
        except ClientError as exc:
            return exc
        await self.push_screen(RaceScreen(race, state))
        return None

    def certifying(self, progress: str) -> None:
        """``pasyans play GAME --daily`` of a daily still being certified: say how far
        it got while the game waits for it."""
        self.notify(
            _("{progress}; the game opens when it is ready", progress=progress), timeout=5.5
        )

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
        """Start (or resume) a game from the home screen; errors go to a notification."""
        wanted = Launch(
            game=slug,
            mode=mode,
            seed=seed,
            game_id=resume or "",
            resume=bool(resume),
            date=date,
            challenge=challenge,
        )
        try:
            state = await launch.open_game(self.conn, wanted)
        except ClientError as exc:
            self.notify(str(exc), severity="error")
            return
        await self.push_screen(BoardScreen(state))

    def leave_board(self) -> None:
        """Back to the home screen, or quit when the board was the command."""
        if self.launch is not None:
            self.exit(0)
        else:
            self.pop_screen()

    @property
    def quits_on_leave(self) -> bool:
        return self.launch is not None

    def leave_race(self, reminder: str = "") -> None:
        """Close the race's screens (its board, result, lobby) and go back home, or
        quit when the race was the command. Your game in a running race goes on:
        joining with the code again brings it back (``reminder`` says how: printed
        once the terminal is back, or a notification at home)."""
        if self.launch is not None:
            self.farewell = reminder
            self.exit(0)
            return
        while len(self.screen_stack) > 1 and any(
            isinstance(s, RaceScreen) for s in self.screen_stack
        ):
            self.pop_screen()
        if reminder:
            self.notify(reminder, timeout=10)

    def server_event(self, push: Push) -> None:
        races = (Event.RACE, Event.RACE_STARTED, Event.RACE_BOARD)
        if push.name in races and self.race_listener is not None:
            self.race_listener(push)
        if push.name == Event.TOURNAMENT and self.tournament_listener is not None:
            self.tournament_listener(push)
        if push.name == Event.GAME:  # a board showing that game fetches it if behind
            game = push.fields
            seq, status = int(game.get("seq") or 0), str(game.get("status") or "")
            self.tell(lambda: GameChanged(str(game.get("game_id") or ""), seq, status))
        if push.name == Event.CHALLENGE_RESULT:
            self.notify(challenge_news(push.fields), timeout=10)
        if push.name == Event.INVITED:
            self.notify(invited_news(push.fields, self.titles), timeout=15)
            self.tell(InboxChanged)
        if push.name == Event.BYE:
            reason = push.fields.get("reason")
            key = push.fields.get("key")
            if reason and key:  # an older server's has no key: its English reason
                reason = say(str(key), push.fields.get("params"), reason)
            said = (
                _("the server is closing the connection: {why}", why=reason)
                if reason
                else _("the server is closing the connection")
            )
            self.notify(said, severity="warning")
