"""Finished games kept compact (issue 50, "Memory of a year").

- **At its end** a game is packed (:meth:`Compaction.finished`, a listener of finished
  games, after its statistics, boards and news): its hash loses its state and becomes
  a small listpack, its state and log go into one packed string
  (:mod:`server.store.packing`). Every reader gets the same fields and the same log
  as before (the store unpacks them): a replay, the last board, an export, the
  history, statistics and leaderboards are unchanged.
- **After ``retention_days``** a finished practice game is summarised to its result
  (:meth:`Compaction.sweep`, every ``interval`` seconds on every instance): its hash
  keeps its history line; its state, log and packed string go. It still shows in the
  player's games and was counted in their statistics when it ended; opening it says
  it was summarised. ``retention_days`` 0 keeps every practice game whole.

Both steps are single Lua scripts that do nothing to a game done before, so two
instances (or a listener run again after a crash, on a resumed game) packing or
summarising the same game at once do it once; the sweep takes a bounded batch from
the list of finished practice games (oldest first) and takes off what it has done,
so instances sweeping at the same time only repeat each other's no-ops.
"""

from __future__ import annotations

import asyncio
import logging

from protocol import GameStatus, Mode

from ..store import Store
from ..store.errors import OUTAGE
from .clock import Clock
from .records import Record

log = logging.getLogger(__name__)

DAY_MS = 86_400_000


class Compaction:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        retention_days: float = 30.0,
        interval: float = 3600.0,
        batch: int = 500,
    ) -> None:
        self.store = store
        self.clock = clock
        self.retention_days = retention_days
        self.interval = interval
        self.batch = batch
        #: pack each game as it ends (off only to measure or test a game unpacked)
        self.at_finish = True

    async def finished(self, rec: Record) -> None:
        """As a game ends: :meth:`pack` it, when :attr:`at_finish`."""
        if self.at_finish:
            await self.pack(rec)

    async def compact(self, gid: str) -> int:
        """:meth:`pack` the game ``gid`` as Redis has it (-1: no such game)."""
        raw = await self.store.game(gid)
        if raw is None:
            return -1
        if raw.get("packed") == b"1" or "state" not in raw:
            return 0
        return await self.pack(Record.load(gid, raw))

    async def pack(self, rec: Record) -> int:
        """Pack the finished game ``rec`` (1 packed now, 0 before, negative: left as
        it was); a practice game goes on the retention sweep's list."""
        if rec.status == GameStatus.PLAYING:
            return -2
        entries = await self.store.game_log(rec.gid)
        state = rec.game.dumps(rec.state)
        done = await self.store.compact_game(rec.gid, rec.seq, state, entries)
        if done >= 0 and rec.mode is Mode.PRACTICE and self.retention_days > 0:
            await self.store.note_practice_done(rec.gid, rec.finished or rec.updated)
        return done

    async def sweep(self) -> int:
        """Summarise the finished practice games past the retention, a batch at a
        time until none is left: how many were summarised by this call."""
        if self.retention_days <= 0:
            return 0
        before = self.clock.now_ms() - int(self.retention_days * DAY_MS)
        count = 0
        while gids := await self.store.practice_due(before, self.batch):
            for gid in gids:
                count += await self.store.summarise_game(gid) == 1
            await self.store.practice_forget(gids)
            if len(gids) < self.batch:
                break
        return count

    async def keep(self) -> None:
        """:meth:`sweep` every ``interval`` seconds, for the life of the instance."""
        while True:
            try:
                done = await self.sweep()
                if done:
                    log.info("summarised %d practice games past their retention", done)
            except OUTAGE:
                log.warning("the practice games' sweep could not reach storage")
            await asyncio.sleep(self.interval)
