"""A tournament's events to the connections here (issue 51): the ``tournament`` event,
batched.

Any instance's change of a tournament (a join, a leave, a deal over, its deals
certified, its end) is published on its channel; each instance marks the tournament
changed and, at most ``rate`` times a second, reads its standings once from Redis and
queues every local subscriber (an entrant who joined, came back or plays from here; a
watcher) the tournament object as that player sees it (``me``, ``joined``, ``deal``).
Each frame goes to the connection's own outbox (``conn.send``): a slow reader never
holds up anyone else's events. Its start and its end are events too: the relay looks
at the clock for the tournaments it serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import protocol as P

from ..services import OUTAGE
from ..services.tournament import Info, Tournaments
from ..services.tournament_rules import TOP
from .session import Hub

log = logging.getLogger("pasyans.server")


class TournamentRelay:
    def __init__(self, hub: Hub, tournaments: Tournaments, *, rate: float = 2.0) -> None:
        self.hub = hub
        self.tournaments = tournaments
        self.period = 1.0 / max(rate, 0.01)
        #: tournament → players here who get its events (casefolded) → watching
        self.subscribers: dict[str, dict[str, bool]] = {}
        self.names: dict[str, str] = {}
        self.dirty: set[str] = set()
        #: tournament → the status last sent (", ended" once its end was written)
        self.sent: dict[str, str] = {}
        self.wake = asyncio.Event()
        #: events sent (a benchmark's count)
        self.events = 0

    def add(self, tid: str, player: str, *, watching: bool = False) -> None:
        key = player.casefold()
        subs = self.subscribers.setdefault(tid, {})
        subs[key] = subs.get(key, False) or watching
        self.names[key] = player

    def remove(self, tid: str, player: str) -> bool:
        subs = self.subscribers.get(tid, {})
        key = player.casefold()
        if not subs.get(key):
            return False
        del subs[key]
        if not subs:
            self.subscribers.pop(tid, None)
        return True

    def watchers(self, tid: str) -> int:
        return sum(self.subscribers.get(tid, {}).values())

    def changed(self, tid: str) -> None:
        if tid in self.subscribers:
            self.dirty.add(tid)
            self.wake.set()

    async def keep(self) -> None:
        """Send the batched events, until cancelled."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.period)
            self.wake.clear()
            now = self.tournaments.clock.now_ms()
            for tid in list(self.subscribers):
                # the mark goes before the reads: a change published while they wait
                # marks the tournament again, for the next batch (taken after them, its
                # end, written meanwhile, was lost: no event ever showed the seeds)
                changed = tid in self.dirty
                self.dirty.discard(tid)
                try:
                    info = await self.tournaments.info(tid)
                    if info is None:
                        self.subscribers.pop(tid, None)
                        continue
                    status = str(self.tournaments.status(info))
                    # its end written is news too, published or not (the seeds show)
                    stage = f"{status}, ended" if info.ended else status
                    if changed or self.sent.get(tid) != stage:
                        self.sent[tid] = stage
                        await self.send(info)
                    if status == "finished" and info.ended and now > info.ends_at:
                        # the last event went out; nothing changes any more
                        self.subscribers.pop(tid, None)
                except asyncio.CancelledError:
                    raise
                except OUTAGE as exc:  # a storage outage: the next batch tries again
                    self.dirty.add(tid)
                    log.warning("tournament %s's events: %r", tid, exc)
                except Exception:
                    self.dirty.add(tid)
                    log.warning("tournament %s's events", tid, exc_info=True)
            await asyncio.sleep(self.period)  # a batch at most every period

    async def send(self, info: Info) -> None:
        subs = self.subscribers.get(info.tid, {})
        if not subs:
            return
        board = await self.tournaments.ranked(info.tid)
        names = [n for n, _ in board[:TOP]]
        wanted = {n.casefold(): n for n, _ in board if n.casefold() in subs}
        more = [n for k, n in wanted.items() if n not in names]
        rows = dict(
            zip(
                names + more,
                await self.tournaments.store.entrants(info.tid, names + more),
                strict=True,
            )
        )
        watchers = self.watchers(info.tid)
        for key in list(subs):
            player = self.names.get(key, key)
            wire: dict[str, Any] = await self.tournaments.wire(
                info, player, board=board, rows=rows, watchers=watchers
            )
            self.hub.send_to(player, P.event(P.Event.TOURNAMENT, **wire))
            self.events += 1
