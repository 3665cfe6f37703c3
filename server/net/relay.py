"""Events for the spectators of a race (``race_watch``): every instance passes on, to
the spectators connected to it, a race's ``race`` events and each member's board
(``race_board``, from the race's watch channel: ``News``), after ``watch_delay``
seconds.

Which spectators watch from here is kept here (race → names); each beat
(``presence_interval``) the instance notes in Redis that they still watch, and that
those no longer connected stopped (the members then see the new count).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import protocol as P

from ..services.news import WatchBoard
from ..services.race_news import RaceNews
from ..services.watch import Watch
from .session import Hub

log = logging.getLogger("pasyans.server")


class Relay:
    def __init__(
        self,
        hub: Hub,
        watch: Watch,
        *,
        delay: float = 0.0,
        follow: Callable[[str, bool], None] | None = None,
    ) -> None:
        self.hub = hub
        self.watch = watch
        self.delay = delay
        #: told whether a race is watched from here at all (``News.spectating``:
        #: under sharded pub/sub, its channels are followed while it is)
        self.follow = follow
        #: race id → the spectators connected here
        self.watching: dict[str, set[str]] = {}
        #: races whose spectators here went on to watch their rematch
        self._carried: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- who watches from here ------------------------------------------------------------

    def add(self, rid: str, player: str) -> None:
        if rid not in self.watching and self.follow is not None:
            self.follow(rid, True)
        self.watching.setdefault(rid, set()).add(player)

    def remove(self, rid: str, player: str) -> bool:
        names = self.watching.get(rid)
        if names is None or player not in names:
            return False
        names.discard(player)
        if not names:
            del self.watching[rid]
            if self.follow is not None:
                self.follow(rid, False)
        return True

    async def beat(self) -> None:
        """Note who still watches from here; those who left stop watching."""
        for rid, names in list(self.watching.items()):
            gone = [n for n in names if not self.hub.online(n)]
            for name in gone:
                self.remove(rid, name)
            if gone:
                await self.watch.unwatch(rid, gone)
            await self.watch.still_watching(rid, sorted(self.watching.get(rid, ())))

    async def keep(self, interval: float) -> None:
        """:meth:`beat` every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception:  # a storage outage: the next beat tries again
                log.exception("spectators' beat failed")

    # -- what comes in --------------------------------------------------------------------

    async def board(self, item: WatchBoard) -> None:
        """A member's board: to the race's spectators here."""
        await self._to_spectators(item.race_id, P.event(P.Event.RACE_BOARD, **item.fields))

    async def race_news(self, news: RaceNews) -> None:
        """A race's news: its spectators here get the ``race`` event too; once it names
        a rematch, they watch the rematch (a rematch keeps the race's spectators)."""
        if news.race_id not in self.watching:
            return
        await self._to_spectators(news.race_id, P.event(P.Event.RACE, **news.race))
        rematch = news.race.get("rematch")
        if rematch and news.race_id not in self._carried:
            self._carried.add(news.race_id)
            await self._carry(sorted(self.watching[news.race_id]), str(rematch["code"]))

    async def _carry(self, names: list[str], code: str) -> None:
        """``names`` watch the race of ``code`` too (each gets its ``race`` event)."""
        for name in names:
            try:
                watched = await self.watch.watch(name, code)
            except Exception:  # refused (full, or gone): they keep the old race
                log.info("spectator %s could not follow the rematch %s", name, code)
                continue
            race = watched["race"]
            self.add(str(race["race_id"]), name)
            self.hub.send_to(name, P.event(P.Event.RACE, **race))

    async def _to_spectators(self, rid: str, ev: dict[str, Any]) -> None:
        names = sorted(self.watching.get(rid, ()))
        if not names:
            return
        if self.delay <= 0:
            for name in names:
                self.hub.send_to(name, ev)
            return
        task = asyncio.create_task(self._later(names, ev), name=f"watch-{rid}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _later(self, names: list[str], ev: dict[str, Any]) -> None:
        await asyncio.sleep(self.delay)
        for name in names:
            self.hub.send_to(name, ev)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self._tasks.clear()
