"""Script mode: moves from a text stream, the board as plain text after each one.

For terminals without a TTY, for pipes and for tests::

    printf 'T3 FA-H\\nundo\\nshift\\n' | pasyans play crescent --deal 0 --script

Lines: a move in :mod:`client.notation`, or one of ``undo``, ``resign``,
``auto`` (play forced moves until a choice), ``safe`` (the server plays the safe
moves), ``finish`` (the server plays out a certain win), ``board`` (print it again),
``legal`` (list the legal moves), ``help``; ``#`` starts a comment. A move that the
server's ``legal`` list does not hold is still sent, so the server says why it is
illegal. Errors are printed as ``error: …`` and the script goes on; the exit
status is 1 when any line was refused.

Given ``reconnect``, a line that finds the connection gone (a server restart)
connects again, fetches the game and is sent again when the game is where it was;
else it is refused, saying why. No line is dropped in silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from .connection import Connection, ServerError, ServerUnavailable
from .lang import N_, _
from .notation import AUTO_LIMIT, NotationError, forced, format_move, parse, resolve
from .text import Titles, legal_line, state_text

HELP = N_(
    "moves: 'T3 FA-H' (from to), 'R[2] F3' (card 2 of a spread pile), 'deal', "
    "'swap a=P1 b=P2'\n"
    "commands: undo, resign, auto (play forced moves), safe (the server plays safe moves),\n"
    "finish (the server plays out a certain win), board, legal, help; '#' comments"
)

Line = Callable[[], Awaitable[str]]


def stdin_reader(stream: TextIO) -> Line:
    """Read lines off the event loop, so the connection's keep-alive keeps running."""

    async def read() -> str:
        return await asyncio.to_thread(stream.readline)

    return read


class Script:
    def __init__(
        self,
        conn: Connection,
        state: dict[str, Any],
        out: TextIO,
        titles: Titles | None,
        *,
        reconnect: Callable[[], Awaitable[Connection]] | None = None,
    ) -> None:
        self.conn = conn
        #: a new connection, logged in, in place of a dropped one (None: a dropped
        #: connection ends the script)
        self.reconnect = reconnect
        self.state = state
        self.out = out
        self.titles = titles
        self.refused = 0
        #: the game this script resigned (the server's state says only "lost")
        self.resigned_game: str | None = None

    @property
    def resigned(self) -> bool:
        return self.resigned_game is not None and self.resigned_game == self.state.get("game_id")

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def board(self) -> None:
        self.say(state_text(self.state, self.titles, resigned=self.resigned))

    def piles(self) -> list[str]:
        return [str(p["id"]) for p in self.state["view"]["piles"]]

    def intro(self) -> None:
        self.board()

    async def run(self, read: Line) -> int:
        self.intro()
        while True:
            raw = await read()
            if not raw:
                break
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            self.say(f"> {line}")
            try:
                await self.attempt(line)
            except NotationError as exc:
                self.refused += 1
                self.say(_("error: {error}", error=exc))
            except ServerError as exc:
                self.refused += 1
                if exc.state is not None:  # the game as the server has it now
                    self.state = exc.state
                self.say(_("error: {error}", error=exc))
        return 1 if self.refused else 0

    async def attempt(self, line: str) -> None:
        """Run ``line``; when the connection is gone, reconnect and run it again if the
        game is where it was (a second loss in a row ends the script)."""
        try:
            await self.command(line)
        except ServerUnavailable as exc:
            if self.reconnect is None or not self.state.get("game_id"):
                raise
            if await self.recover(exc, line):
                await self.command(line)

    async def recover(self, lost: ServerUnavailable, line: str) -> bool:
        """A new connection and the game as the server has it: True when its ``seq`` is
        the one ``line`` was meant for (it was not carried out: send it again)."""
        assert self.reconnect is not None
        seq = self.state.get("seq")
        self.say(_("{why} — reconnecting…", why=lost))
        conn = await self.reconnect()
        old, self.conn = self.conn, conn
        await old.close()
        self.state = await conn.resume(str(self.state["game_id"]))
        if self.state.get("seq") == seq:
            self.say(_("reconnected: sending it again"))
            return True
        self.refused += 1
        self.say(
            _(
                "error: reconnected, but the game changed while the connection was down (the "
                "line may have reached the server just before it dropped, or the game was "
                "played elsewhere): {line} is not sent again — the board as the server has it:",
                line=repr(line),
            )
        )
        self.board()
        return False

    async def command(self, line: str) -> None:
        word = line.lower()
        gid = str(self.state["game_id"])
        if word == "help":
            self.say(_(HELP))
        elif word == "board":
            self.board()
        elif word == "legal":
            self.say(legal_line(self.state.get("legal") or []))
        elif word == "undo":
            self.state = await self.conn.take_back(self.state)
            self.board()
        elif word == "resign":
            self.state = await self.conn.resign(gid)
            self.resigned_game = gid
            self.board()
        elif word == "auto":
            played = await self.auto()
            if not played:
                self.say(_("nothing forced: the next move is yours"))
            self.board()
        elif word in ("safe", "finish"):
            ask = self.conn.play_safe if word == "safe" else self.conn.finish
            self.state, moves = await ask(self.state)
            for move in moves:
                self.say(f"{word}: {format_move(move)}")
            if not moves:
                self.say(_("no safe move now"))
            self.board()
        else:
            move = parse(line, self.piles())
            legal = self.state.get("legal") or []
            move = resolve(move, legal) or move
            self.state = await self.conn.play(self.state, move)
            self.board()

    async def auto(self) -> int:
        played = 0
        while self.state.get("status") == "playing" and played < AUTO_LIMIT:
            move = forced(self.state.get("legal") or [])
            if move is None:
                break
            self.say(f"auto: {format_move(move)}")
            self.state = await self.conn.play(self.state, move)
            played += 1
        return played
