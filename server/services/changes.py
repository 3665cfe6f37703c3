"""What happens after a write: the listeners told of a game's change once Redis has
it, registered in one place (``Services.build``), in the order they run.

A game written (:meth:`Games.commit`) is told to:

- every ``on_finished`` listener, when it has ended (counting it in the player's
  statistics, noting it in its challenge, ranking a ranked daily) — again, harmlessly,
  when a finished game is resumed, so a crash between the write and a listener loses
  nothing;
- every ``on_race_game`` listener, when it is a race game (the race's news);
- every ``on_written`` listener, whatever it is (the player's other connections).

A race that ends with every member's game over is told to every
``on_race_finished`` listener (its spectators see the boards then).

Each service once set a hook of another in its constructor (``games.on_finished =
…``, wrapping the one set before), so what ran, and in which order, hung on the order
of construction; here it is written down.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from protocol import GameStatus

from .records import Record

Listener = Callable[[Record], Awaitable[None]]
RaceListener = Callable[[str], Awaitable[None]]


class Changes:
    def __init__(self) -> None:
        self._finished: list[Listener] = []
        self._race_game: list[Listener] = []
        self._written: list[Listener] = []
        self._race_finished: list[RaceListener] = []

    def on_finished(self, listener: Listener) -> None:
        self._finished.append(listener)

    def on_race_game(self, listener: Listener) -> None:
        self._race_game.append(listener)

    def on_written(self, listener: Listener) -> None:
        self._written.append(listener)

    def on_race_finished(self, listener: RaceListener) -> None:
        self._race_finished.append(listener)

    async def written(self, rec: Record) -> None:
        """``rec`` was just written: tell whoever listens."""
        if rec.status != GameStatus.PLAYING:
            await self.finished(rec)
        if rec.race:
            for listener in self._race_game:
                await listener(rec)
        for listener in self._written:
            await listener(rec)

    async def finished(self, rec: Record) -> None:
        """``rec`` is over (just ended, or resumed after it ended)."""
        for listener in self._finished:
            await listener(rec)

    async def race_finished(self, rid: str) -> None:
        for listener in self._race_finished:
            await listener(rid)
