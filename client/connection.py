"""One WebSocket connection to a pasyans server, with a method per operation.

Every frame goes through the ``protocol`` package (codec, op names, error codes).
Requests carry increasing ids; a reader task matches replies to their waiting
callers and hands unasked events to ``on_event``. Replies may come in any order.

Exceptions (all :class:`ClientError`, whose ``str`` is a message for people)::

    ClientError
     ├── ServerUnavailable   cannot connect, or the connection dropped
     ├── ServerError         the server refused a request (``code``, ``extra``)
     └── UsageError          the command asks for something that cannot be
                             (an unknown game, an account you do not have…)
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import http
import itertools
import random
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.typing import Subprotocol

from protocol import SUBPROTOCOL
from protocol.codec import MAX_FRAME, decode, encode
from protocol.delta import DeltaGap, apply_delta
from protocol.errors import CLOSE_NO_SIGN_IN, CLOSE_TOO_SLOW, ErrorCode, ProtocolError
from protocol.i18n import know_titles
from protocol.messages import Board, Mode, Op, Push, Reply, ReplyForm, parse_reply, request
from protocol.status import GameStatus

from .errors import DETAILED as DETAILED
from .errors import ClientError as ClientError
from .errors import ServerError as ServerError
from .errors import ServerUnavailable as ServerUnavailable
from .errors import UsageError as UsageError
from .errors import http_server, not_websocket, unreachable
from .lang import _, current

#: seconds to wait for the handshake and for each reply
OPEN_TIMEOUT = 5.0
REPLY_TIMEOUT = 15.0
#: events kept for a listener not set yet (the newest; older ones are dropped)
UNHEARD = 64
#: replies (a state with its view) may be larger than requests; accept some slack
MAX_REPLY = 4 * MAX_FRAME
#: times a request refused with ``rate_limited`` is sent again (after its ``retry_after``)
RATE_RETRIES = 20
#: the longest ``retry_after`` waited out: a longer one (a limit per address, counted
#: by the hour) is the player's to read, not a pause
RATE_WAIT_MOST = 10.0
#: a request answered ``unavailable`` (the server's storage is down, restarting or
#: failing over) is sent again after growing pauses, from the server's ``retry_after``
#: up to UNAVAILABLE_MAX_PAUSE s, for at most UNAVAILABLE_PATIENCE s in all
UNAVAILABLE_PATIENCE = 20.0
UNAVAILABLE_MAX_PAUSE = 4.0
#: a dropped connection is opened again after growing pauses for at most this many s
RECONNECT_PATIENCE = 15.0
#: keep-alive: a ping every PING_INTERVAL s, answered within PING_TIMEOUT s, or the
#: connection counts as lost (a server that froze or a network that went away, which
#: close no socket); closing it then waits at most CLOSE_TIMEOUT s for the server's
#: side. Their sum bounds how long an idle client takes to notice (under 5 s).
PING_INTERVAL = 1.5
PING_TIMEOUT = 2.0
CLOSE_TIMEOUT = 0.5

Message = dict[str, Any]
#: told of every frame of every connection: ``(connection, "out", request)`` before a
#: request is sent, ``(connection, "in", frame)`` for each frame read (decoded). None
#: but in the tests, which check each frame against the protocol's schema
#: (tests/client/conftest.py); it must not raise.
watch_frames: Callable[[Connection, str, Message], None] | None = None


def reason(exc: BaseException) -> str:
    """An exception in words, never empty (a reset connection has no message)."""
    text = str(exc).strip()
    if text:
        return text
    if isinstance(exc, ConnectionResetError):
        return _("the server reset the connection")
    return type(exc).__name__


def _ws_url(url: str) -> bool:
    return url.lower().startswith(("ws://", "wss://"))


def backoff(attempt: int, base: float, *, cap: float, jitter: float = 0.0) -> float:
    """Seconds to pause before try ``attempt + 1`` (``attempt`` from 0): ``base``
    doubled at each attempt, at most ``cap``, stretched by ``jitter`` (0..1, a random
    draw by the caller) by up to a quarter so that many clients do not come back in
    step. Never less than ``base``, never more than ``cap``."""
    pause = min(cap, base * 2.0 ** min(attempt, 30))
    return min(cap, max(base, pause * (1.0 + 0.25 * jitter)))


def _retry_after(exc: ServerError) -> float:
    retry = exc.extra.get("retry_after")
    return float(retry) if isinstance(retry, int | float) and retry > 0 else 0.0


class Pacer:
    """The server's token bucket mirrored on this side, so requests are sent no
    faster than the server takes them: ``rate`` a second, ``burst`` at once.

    The server tells its ``limits`` in the ``register`` and ``auth`` results; until
    then requests go out unpaced, but are counted against the bucket. Taking a token
    never waits inside the bucket: a request books the next free slot (tokens may go
    below zero) and sleeps until it, so requests sent at once keep their order.
    One token is kept in reserve for the jitter between sending and arriving.
    """

    def __init__(self) -> None:
        self.rate = 0.0
        self.capacity = 0.0
        self.tokens = 0.0
        self.stamp = 0.0
        self.sent = 0

    @property
    def known(self) -> bool:
        return self.rate > 0

    def configure(self, limits: object, now: float) -> None:
        """Pace by ``limits`` (``{"rate": …, "burst": …}``); anything else leaves it unpaced."""
        if not isinstance(limits, dict):
            return
        rate, burst = limits.get("rate"), limits.get("burst")
        if not isinstance(rate, int | float) or not isinstance(burst, int | float) or rate <= 0:
            return
        self.rate = float(rate)
        self.capacity = max(1.0, float(burst) - 1)
        self.tokens = self.capacity - self.sent  # what was sent before we knew
        self.stamp = now

    def book(self, now: float) -> float:
        """Take a token for a request about to go; the seconds to wait before sending it."""
        self.sent += 1
        if not self.known:
            return 0.0
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate) - 1
        self.stamp = now
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


class Connection:
    """A connected client. Use ``async with Connection(url) as conn:``;
    :meth:`reopen` for a new connection in place of a dropped one."""

    @property
    def on_event(self) -> Callable[[Push], None] | None:
        """Who hears the server's events. Events that come while nobody listens
        (say, a race's countdown between ``race_join`` and the screen that shows it)
        are kept, the last :data:`UNHEARD`, and handed to the next listener set."""
        return self._on_event

    @on_event.setter
    def on_event(self, listener: Callable[[Push], None] | None) -> None:
        self._on_event = listener
        while listener is not None and self._unheard:
            listener(self._unheard.popleft())

    def __init__(
        self,
        url: str,
        *,
        on_event: Callable[[Push], None] | None = None,
        on_lost: Callable[[Connection], None] | None = None,
        reply_timeout: float = REPLY_TIMEOUT,
        unavailable_patience: float = UNAVAILABLE_PATIENCE,
    ) -> None:
        self.url = url
        #: told (once, with this connection) when it drops by itself: the server
        #: closed it, the network failed or a keep-alive ping went unanswered; never
        #: after :meth:`close`. ``closed_why`` then says why.
        self.on_lost = on_lost
        #: events that came while nobody listened, handed to the next listener
        self._unheard: collections.deque[Push] = collections.deque(maxlen=UNHEARD)
        self.on_event = on_event
        self.reply_timeout = reply_timeout
        self.unavailable_patience = unavailable_patience
        self.player: str | None = None
        #: the deployment the server named (``games``, ``auth``, ``register``), if any
        self.deployment: str | None = None
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Reply]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._closed_why: str | None = None
        #: dropped for staying unsigned too long (4001): reconnect without a word
        self.quiet = False
        self._closing = False
        self.pacer = Pacer()

    @property
    def lost(self) -> bool:
        """Whether this connection is gone (dropped, or closed): requests fail at once."""
        return self._closed_why is not None

    @property
    def closed_why(self) -> str | None:
        """Why the connection is gone, in words; None while it is open."""
        return self._closed_why

    async def open(self) -> Connection:
        try:
            self._ws = await connect(
                self.url,
                subprotocols=[Subprotocol(SUBPROTOCOL)],
                compression=None,
                max_size=MAX_REPLY,
                open_timeout=OPEN_TIMEOUT,
                ping_interval=PING_INTERVAL,
                ping_timeout=PING_TIMEOUT,
                close_timeout=CLOSE_TIMEOUT,
                proxy=None,
            )
        except InvalidURI:
            raise not_websocket(self.url) from None
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (http.HTTPStatus.OK, http.HTTPStatus.NOT_FOUND):
                raise http_server(self.url, status) from None
            if status == http.HTTPStatus.TOO_MANY_REQUESTS:
                why = _("your address has too many connections open to this server")
                raise unreachable(self.url, why) from None
            raise unreachable(self.url, reason(exc)) from None
        except ConnectionRefusedError:
            raise unreachable(self.url, _("connection refused")) from None
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            why = reason(exc)
            if self.url.lower().startswith("wss:") and isinstance(exc, OSError):
                plain = "ws:" + self.url[4:]
                why = _(
                    "the TLS handshake failed ({why}); a plain server is {plain}",
                    why=why,
                    plain=plain,
                )
            raise unreachable(self.url, why) from None
        self._reader = asyncio.create_task(self._read(), name="pasyans-reader")
        return self

    @classmethod
    async def reopen(
        cls,
        url: str,
        *,
        on_event: Callable[[Push], None] | None = None,
        on_lost: Callable[[Connection], None] | None = None,
        patience: float | None = None,
    ) -> Connection:
        """A new open connection to ``url``, tried again after growing pauses
        (:func:`backoff`, 0.1 s up to 2 s) while the server is out of reach — a server
        restarting, or a load balancer moving us to another instance — for at most
        ``patience`` seconds (by default RECONNECT_PATIENCE, read at the call); then
        the last :class:`ServerUnavailable` is raised. A URL that is no WebSocket URL
        fails at once."""
        give_up = time.monotonic() + (RECONNECT_PATIENCE if patience is None else patience)
        attempt = 0
        while True:
            conn = cls(url, on_event=on_event, on_lost=on_lost)
            try:
                return await conn.open()
            except ServerUnavailable:
                pause = backoff(attempt, 0.1, cap=2.0, jitter=random.random())
                if time.monotonic() + pause > give_up or not _ws_url(url):
                    raise
                attempt += 1
                await asyncio.sleep(pause)

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._fail_all(_("the connection is closed"))

    async def __aenter__(self) -> Connection:
        return self if self._ws is not None else await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _read(self) -> None:
        assert self._ws is not None
        why = _("the server closed the connection")
        try:
            async for frame in self._ws:
                try:
                    raw = decode(frame, max_size=MAX_REPLY)
                    if watch_frames is not None:
                        watch_frames(self, "in", raw)
                    msg = parse_reply(raw)
                except ProtocolError:
                    continue  # a frame we cannot read is dropped, not fatal
                if isinstance(msg, Push):
                    if self.on_event is not None:
                        self.on_event(msg)
                    else:
                        self._unheard.append(msg)
                elif msg.re is not None and msg.re in self._waiting:
                    future = self._waiting.pop(msg.re)
                    if not future.done():
                        future.set_result(msg)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code == CLOSE_TOO_SLOW:  # a drop like any other: reconnect and resume
                why = _("the server closed the connection: it fell behind reading")
            elif code == CLOSE_NO_SIGN_IN:
                why = _("the server closed the connection: it was not signed in")
                self.quiet = True
            elif exc.rcvd is not None and exc.rcvd.reason:
                why = _("the server closed the connection: {why}", why=exc.rcvd.reason)
            elif exc.sent is not None and exc.sent.reason.startswith("keepalive"):
                # websockets' "keepalive ping timeout": no pong in time
                silent = PING_INTERVAL + PING_TIMEOUT
                why = _("the server did not answer for {seconds}", seconds=silent)
        except OSError as exc:
            why = _("the connection was lost: {why}", why=reason(exc))
        finally:
            self._closed_why = why
            self._fail_all(why)
            if not self._closing and self.on_lost is not None:
                self.on_lost(self)

    def _fail_all(self, why: str) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ServerUnavailable(why))
        self._waiting.clear()

    async def call(self, op: Op, **params: Any) -> Message:
        """Send one request and wait for its reply; the result fields on success,
        :class:`ServerError` on a failed reply.

        Requests are paced by the server's limits (:class:`Pacer`); one the server
        still refuses as ``rate_limited`` was not carried out, so it is sent again
        after the ``retry_after`` the server gives (at most RATE_RETRIES times), unless
        that is over RATE_WAIT_MOST seconds (a limit per address): then it is raised.

        One answered ``unavailable`` (the server's storage is down or failing over,
        the solver busy) is sent again after growing pauses (:func:`backoff`, from
        its ``retry_after``) for up to ``unavailable_patience`` seconds, then raised.
        Sending it again is safe: a move or undo names its ``seq``, so one that was
        written after all comes back ``stale_seq`` with the game as it is, never
        played twice. A daily still being certified (``unavailable`` with
        ``preparing``) is raised at once: :func:`client.launch.open_game` waits for
        it, showing its progress.
        """
        rate_retries = outages = 0
        give_up = 0.0
        while True:
            try:
                return await self._call_once(op, params)
            except ServerError as exc:
                retry = _retry_after(exc)
                if (
                    exc.code == ErrorCode.RATE_LIMITED
                    and rate_retries < RATE_RETRIES
                    and retry <= RATE_WAIT_MOST
                ):
                    rate_retries += 1
                    await asyncio.sleep(retry or 0.1)
                    continue
                if exc.code != ErrorCode.UNAVAILABLE or "preparing" in exc.extra:
                    raise  # a daily being certified: the caller shows its progress
                now = time.monotonic()
                give_up = give_up or now + self.unavailable_patience
                pause = backoff(
                    outages, retry or 0.25, cap=UNAVAILABLE_MAX_PAUSE, jitter=random.random()
                )
                if now + pause > give_up:
                    raise
                outages += 1
                await asyncio.sleep(pause)

    async def _call_once(self, op: Op, params: dict[str, Any]) -> Message:
        if self._ws is None or self._closed_why is not None:
            raise ServerUnavailable(self._closed_why or _("not connected"))
        wait = self.pacer.book(time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
        rid = next(self._ids)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        msg = request(rid, op, **params)
        if watch_frames is not None:
            watch_frames(self, "out", msg)
        try:
            await self._ws.send(encode(msg))
        except ConnectionClosed:
            self._waiting.pop(rid, None)
            raise ServerUnavailable(_("the server closed the connection")) from None
        try:
            reply = await asyncio.wait_for(future, self.reply_timeout)
        except TimeoutError:
            self._waiting.pop(rid, None)
            raise ServerUnavailable(
                _(
                    "the server did not answer within {seconds} (request {op})",
                    seconds=self.reply_timeout,
                    op=op,
                )
            ) from None
        if reply.error is not None:
            err = reply.error
            raise ServerError(err.code, err.message, err.extra, key=err.key, params=err.params)
        return reply.result

    # -- one method per operation (docs/protocol.md) -----------------------------

    async def deployment_id(self) -> str | None:
        """The deployment the server belongs to (docs/protocol.md, "deployment"):
        asked once with ``games``; None from a server that names none."""
        if self.deployment is None:
            await self.games()
        return self.deployment

    async def register(self, name: str) -> Message:
        result = await self.call(Op.REGISTER, name=name)
        self.deployment = result.get("deployment") or self.deployment
        self.player = result.get("player")
        self.pacer.configure(result.get("limits"), time.monotonic())
        return result

    async def auth(self, token: str) -> Message:
        result = await self.call(Op.AUTH, token=token)
        self.deployment = result.get("deployment") or self.deployment
        self.player = result.get("player")
        self.pacer.configure(result.get("limits"), time.monotonic())
        return result

    async def games(self) -> list[Message]:
        result = await self.call(Op.GAMES)
        self.deployment = result.get("deployment") or self.deployment
        games = list(result["games"])
        know_titles(games)  # a refusal naming a game says its title
        return games

    async def titles(self) -> dict[str, Message]:
        """The catalogue of :meth:`games` by slug (what :func:`client.text.title` reads)."""
        return {str(g["slug"]): g for g in await self.games()}

    async def rules(self, game: str) -> str:
        """A game's rules page (Markdown) in the player's language when the server has
        it written so, else in English."""
        lang = current().lang
        return str((await self.call(Op.RULES, game=game, lang=lang))["text"])

    async def start(
        self, game: str, mode: Mode, seed: int | None = None, date: str | None = None
    ) -> Message:
        """A new game (``date``: a past day's daily deal, unranked)."""
        reply = await self.call(Op.START, game=game, mode=mode, seed=seed, date=date)
        return dict(reply["state"])

    async def resume(self, game_id: str) -> Message:
        return dict((await self.call(Op.RESUME, game_id=game_id))["state"])

    async def move(self, game_id: str, seq: int, move: Message) -> Message:
        return dict((await self.call(Op.MOVE, game_id=game_id, seq=seq, move=move))["state"])

    async def undo(self, game_id: str, seq: int) -> Message:
        return dict((await self.call(Op.UNDO, game_id=game_id, seq=seq))["state"])

    async def play(self, state: Message, move: Message) -> Message:
        """Play ``move`` in the game ``state`` holds: the new state, built from a delta
        reply (:func:`protocol.delta.apply_delta`). ``state`` is left as it was."""
        return await self._by_delta(state, Op.MOVE, move=move)

    async def take_back(self, state: Message) -> Message:
        """Undo the last move of the game ``state`` holds: the new state, from a delta."""
        return await self._by_delta(state, Op.UNDO)

    async def play_safe(self, state: Message) -> tuple[Message, list[Message]]:
        """Let the server play the game's safe moves (op ``auto``) until none is left:
        the new state and the moves it played (none: nothing is provably safe now)."""
        new, result = await self._delta_call(state, Op.AUTO)
        return new, list(result.get("played") or [])

    async def finish(self, state: Message) -> tuple[Message, list[Message]]:
        """Let the server play the rest of the game along a line its solver certifies
        (auto-complete): the new state (won) and the moves it played; the server's
        ``illegal_move`` when it finds no certain win from here."""
        new, result = await self._delta_call(state, Op.FINISH)
        return new, list(result.get("played") or [])

    async def finish_check(self, state: Message) -> Message:
        """Whether the server can finish the game from here: ``{certain, moves}``."""
        gid, seq = str(state["game_id"]), int(state["seq"])
        return await self.call(Op.FINISH, game_id=gid, seq=seq, check=True)

    async def _by_delta(self, state: Message, op: Op, **params: Any) -> Message:
        return (await self._delta_call(state, op, **params))[0]

    async def _delta_call(self, state: Message, op: Op, **params: Any) -> tuple[Message, Message]:
        """Send ``op`` asking for a delta and apply it to ``state``: the new state and
        the reply's result. When the delta does
        not follow ``state`` (a gap in ``seq``), the state is fetched whole with
        ``resume``. A refusal is raised as :class:`ServerError` with the game as the
        server now has it in ``state`` (the ``stale_seq`` error's own state, else a
        ``resume``), so the caller never keeps a board the server does not have.
        A move that ends the game is followed by a ``resume`` too: the end may show
        what a delta does not carry (a race's deal, hidden while it is played)."""
        gid = str(state["game_id"])
        try:
            result = await self.call(
                op, game_id=gid, seq=int(state["seq"]), reply=ReplyForm.DELTA, **params
            )
        except ServerError as exc:
            fresh = exc.extra.get("state")
            if isinstance(fresh, dict):
                exc.state = fresh
            else:
                with contextlib.suppress(ServerError):
                    exc.state = await self.resume(gid)
            raise
        delta = result.get("delta")
        if isinstance(delta, dict) and delta.get("status") == GameStatus.PLAYING:
            with contextlib.suppress(DeltaGap):
                return apply_delta(state, delta), result
        elif isinstance(result.get("state"), dict):
            return dict(result["state"]), result  # a server that answers whole states anyway
        return await self.resume(gid), result

    async def resign(self, game_id: str) -> Message:
        return dict((await self.call(Op.RESIGN, game_id=game_id))["state"])

    async def hint(self, game_id: str) -> Message:
        """One move of a winning line from here (``move``, or None) and the server's
        words; the game is assisted from now on."""
        return await self.call(Op.HINT, game_id=game_id)

    async def my_games(self, limit: int = 20, cursor: str | None = None) -> Message:
        return await self.call(Op.MY_GAMES, limit=limit, cursor=cursor)

    async def daily(self, date: str | None = None) -> Message:
        return await self.call(Op.DAILY, date=date)

    async def leaderboard(
        self,
        game: str,
        *,
        board: Board = Board.DAILY,
        date: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
        around_me: bool = False,
        friends: bool = False,
    ) -> Message:
        return await self.call(
            Op.LEADERBOARD,
            game=game,
            board=board,
            date=date,
            limit=limit,
            cursor=cursor,
            around_me=around_me or None,
            friends=friends or None,
        )

    # -- races: the replies carry the race; ``race``/``race_started`` events follow

    async def race_create(
        self, game: str, seed: int | None = None, *, daily: bool = False
    ) -> Message:
        """A new race on a fresh deal, on ``seed``, or on today's daily deal."""
        extra = {"daily": True} if daily else {}
        return dict((await self.call(Op.RACE_CREATE, game=game, seed=seed, **extra))["race"])

    async def race_join(self, code: str) -> Message:
        """``{"race": …}``, plus ``"state"`` (your game) when you rejoin a running race."""
        return await self.call(Op.RACE_JOIN, code=code)

    async def race_start(self, race_id: str) -> Message:
        return dict((await self.call(Op.RACE_START, race_id=race_id))["race"])

    async def race_leave(self, race_id: str) -> None:
        await self.call(Op.RACE_LEAVE, race_id=race_id)

    async def race_rematch(self, race_id: str) -> Message:
        """The rematch of a finished race (made now, or the one a member made first)."""
        return dict((await self.call(Op.RACE_REMATCH, race_id=race_id))["race"])

    async def race_end(self, race_id: str) -> Message:
        """End a running race you made: every game still in play is given up."""
        return dict((await self.call(Op.RACE_END, race_id=race_id))["race"])

    async def race_drop(self, race_id: str, player: str) -> Message:
        """Drop a member of your race who is away."""
        return dict((await self.call(Op.RACE_DROP, race_id=race_id, player=player))["race"])

    async def race_watch(self, code: str) -> Message:
        """Watch a race as a spectator: ``{"race": …, "boards": […]}``; ``race`` and
        ``race_board`` events follow."""
        return await self.call(Op.RACE_WATCH, code=code)

    async def race_unwatch(self, race_id: str) -> None:
        await self.call(Op.RACE_UNWATCH, race_id=race_id)

    # -- challenges: a deal and a mark to beat, played by each when they like

    async def challenge_create(
        self, game_id: str | None = None, *, game: str | None = None, seed: int | None = None
    ) -> Message:
        """A challenge on your finished game ``game_id`` (its result the mark), or on
        ``game`` (``seed``, or a fresh deal) with no mark."""
        reply = await self.call(Op.CHALLENGE_CREATE, game_id=game_id, game=game, seed=seed)
        return dict(reply["challenge"])

    async def challenge_accept(self, code: str) -> Message:
        """``{"challenge": …, "state": …}``: your game on the challenge's deal."""
        return await self.call(Op.CHALLENGE_ACCEPT, code=code)

    async def challenge(self, code: str) -> Message:
        return dict((await self.call(Op.CHALLENGE, code=code))["challenge"])

    async def invite(self, name: str, *, race: str = "", challenge: str = "") -> Message:
        """Send ``name`` a race's lobby or a challenge: ``{"invited": name}``."""
        return await self.call(Op.INVITE, name=name, race=race or None, challenge=challenge or None)

    async def inbox(self) -> Message:
        """``{"items": […], "unread": int}``: invites and news, newest first."""
        return await self.call(Op.INBOX)

    async def inbox_read(self, item: str | None = None) -> Message:
        """Mark one item read (or every item): ``{"unread": int}``."""
        return await self.call(Op.INBOX_READ, item=item)

    async def block(self, name: str, *, add: bool = True) -> Message:
        return await self.call(Op.BLOCK if add else Op.UNBLOCK, name=name)

    async def presence(self, hidden: bool | None = None) -> Message:
        """``{"hidden": bool}``: whether you show as offline (set with ``hidden``)."""
        return await self.call(Op.PRESENCE, hidden=hidden)

    async def calendar(self, month: str, game: str | None = None) -> Message:
        """A month of dailies: ``{"month", "game", "days"}``."""
        return await self.call(Op.CALENDAR, month=month, game=game)

    async def challenges(self, limit: int = 20) -> Message:
        """``{"challenges": […], "unread": int}``: yours, made or accepted."""
        return await self.call(Op.CHALLENGES, limit=limit)

    async def challenge_close(self, code: str) -> Message:
        """Close your challenge: no more players, its results final, its deal shown."""
        return dict((await self.call(Op.CHALLENGE_CLOSE, code=code))["challenge"])
