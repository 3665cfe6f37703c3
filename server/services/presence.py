"""Who is online, doing what, across instances (the ``friends`` rows' ``online`` and
``activity``).

Each instance notes in Redis the players connected to it (``pl:{name}:presence``,
instance → ``expires_ms|activity|race_id``): at once when a player arrives or their
activity changes (an op: ``start`` is playing, ``race_join`` racing, …), again every
:data:`REFRESH` seconds, and it removes its field when the player's last connection
here closes. A field not refreshed for :data:`TTL_MS` (an instance that died) counts
for nothing. A player online on several instances shows the activity noted last.

A player who hides their presence (``presence {hidden: true}``) shows as offline to
everyone, and so does a player to those they block. What it says is coarse on
purpose: ``playing`` never says which game or how far, and ``racing`` names the race's
code only while its lobby is open to join.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from protocol import Activity, RaceStatus

from ..store import Store
from ..store.errors import OUTAGE
from .clock import Clock

log = logging.getLogger(__name__)

#: seconds between two refreshes of the players connected here
REFRESH = 10.0
#: ms a noted presence counts without a refresh
TTL_MS = int(REFRESH * 3 * 1000)


class Presence:
    def __init__(self, store: Store, clock: Clock, instance: str) -> None:
        self.store = store
        self.clock = clock
        self.instance = instance
        #: players connected here: casefolded name → (name, activity, race id)
        self.local: dict[str, tuple[str, Activity, str]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _value(self, activity: Activity, race_id: str) -> str:
        return f"{self.clock.now_ms() + TTL_MS}|{activity}|{race_id}"

    async def note(
        self, player: str, activity: Activity, race_id: str = "", *, soft: bool = False
    ) -> None:
        """``player`` (connected here) is doing ``activity`` now; written when it
        changed. A ``soft`` one (home, from a look at a list) does not end racing or
        watching: a racer looks at friends from the lobby."""
        key = player.casefold()
        now = self.local.get(key)
        if now == (player, activity, race_id):
            return
        if soft and now is not None and now[1] in (Activity.RACING, Activity.WATCHING):
            return
        self.local[key] = (player, activity, race_id)
        await self.store.put_presence(
            {player: self._value(activity, race_id)}, self.instance, TTL_MS
        )

    def gone(self, player: str) -> None:
        """``player``'s last connection here closed (``Hub.left``)."""
        if self.local.pop(player.casefold(), None) is None:
            return
        task = asyncio.ensure_future(self._drop(player))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drop(self, player: str) -> None:
        try:
            await self.store.drop_presence(player, self.instance)
        except OUTAGE as exc:  # an outage: the field expires anyway
            log.warning("could not note %s gone: %r", player, exc)
        except Exception:
            log.warning("could not note %s gone", player, exc_info=True)

    async def keep(self) -> None:
        """Refresh the players connected here every :data:`REFRESH` s, until cancelled."""
        while True:
            await asyncio.sleep(REFRESH)
            try:
                await self.store.put_presence(
                    {n: self._value(a, r) for n, a, r in self.local.values()},
                    self.instance,
                    TTL_MS,
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence refresh failed")

    async def close(self) -> None:
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task

    async def of(
        self, players: Sequence[str], veiled: Sequence[bool] | None = None
    ) -> list[dict[str, Any]]:
        """Each player's ``{online, activity, race}`` as a friend sees it; offline for
        a player who hides it, or whom ``veiled`` says shows this friend nothing live
        (they block the friend: as if they hid it)."""
        now = self.clock.now_ms()
        out: list[dict[str, Any]] = []
        racing: list[tuple[int, str]] = []
        seen = await self.store.presences(players)
        for i, (values, hidden) in enumerate(seen):
            hidden = hidden or (veiled is not None and veiled[i])
            best: tuple[int, str, str] | None = None
            for value in values:
                expires, _, rest = value.partition("|")
                activity, _, rid = rest.partition("|")
                if not expires.isdigit() or int(expires) < now or hidden:
                    continue
                if best is None or int(expires) > best[0]:
                    best = (int(expires), activity, rid)
            if best is None:
                out.append({"online": False, "activity": None, "race": None})
                continue
            out.append({"online": True, "activity": best[1], "race": None})
            if best[1] == Activity.RACING:
                racing.append((len(out) - 1, best[2]))
        if racing:
            heads = await self.store.race_heads([rid for _, rid in racing])
            for (i, _), head in zip(racing, heads, strict=True):
                status = head.get("status")
                if status == RaceStatus.LOBBY and head.get("code"):
                    out[i]["race"] = head["code"]
                elif status in ("", RaceStatus.FINISHED):  # over (or gone): home again
                    out[i]["activity"] = str(Activity.HOME)
        return out
