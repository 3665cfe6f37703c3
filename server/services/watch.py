"""Watching a race: spectators see its events and each member's board, live.

A spectator (``race_watch`` with the race's code) is never a member: a member may not
watch, and whoever watched a race may not join it later (``race:{rid}:spectators``).
Who watches now is ``race:{rid}:watchers`` (spectator → when a server last saw them
watching, refreshed every beat by the server they are connected to; one not seen for
``stale_after`` seconds no longer counts): its size is the race object's
``watchers``, shown to the members, and at most ``most`` watch at once.

Nothing a spectator receives shows a card while any member still plays: every member
plays the same deal, so a face one member turned up is a card still face down in
another's game, and a member's second account could watch for them (a delay would only
make the news older). While the race runs a spectator gets each member's progress (the
``race`` events: cards founded, moves, time) and each board without its ``view``; once
every member's game is over (the race ``finished``) every member's whole board is
published on the race's watch channel, when anybody watches, and the server a spectator
is connected to passes it on (``server.net.relay``), after ``watch_delay`` seconds. A
board is the member's own view of their game — face-down cards null — without the
game's id, its legal moves or its seed.
"""

from __future__ import annotations

import contextlib
from typing import Any

from protocol import ErrorCode, ProtocolError, RaceStatus, pack

from ..store import Store
from .clock import Clock
from .games import Games
from .race import Races
from .records import Record


class Watch:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        games: Games,
        races: Races,
        *,
        most: int = 20,
        stale_after: float = 5.0,
    ) -> None:
        self.store = store
        self.clock = clock
        self.games = games
        self.races = races
        self.most = most
        self.stale_ms = int(stale_after * 1000)

    async def watch(self, player: str, code: str) -> dict[str, Any]:
        """``race_watch``: the race (its ``watchers`` counting ``player``) and every
        member's ``boards`` so far."""
        rid = await self.store.race_by_code(code)
        if rid is None:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no race has the code {code!r}",
                key="error.no_race",
                params={"code": code},
            )
        info, _, _, _ = await self.store.race(rid)
        date = (info.get("date") or b"").decode()
        if date and not self.games.dailies.revealed(date):
            # Its members' moves are a line of the day's daily deal, which counts.
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "a race on today's daily deal is not watched while the day counts: its "
                "moves would show the deal and a line of it",
                key="error.watch_daily",
            )
        now = self.clock.now_ms()
        n = await self.store.race_watch(rid, player, now, now - self.stale_ms, self.most)
        if n == -1:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no race has the code {code!r}",
                key="error.no_race",
                params={"code": code},
            )
        if n == -2:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "you are in this race: play it, not watch it",
                key="error.watch_own_race",
            )
        if n == -3:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"{self.most} spectators watch this race already, the most it takes",
                key="error.watch_full",
                params={"n": self.most},
            )
        race = await self.races.publish(rid)  # the members see one more watching
        return {"race": race, "boards": await self.boards(rid)}

    async def unwatch(self, rid: str, players: list[str]) -> bool:
        """``players`` stopped watching (``race_unwatch``, or they disconnected): the
        members are told the new count. False if none of them was watching."""
        if not players or not await self.store.race_unwatch(rid, players):
            return False
        with contextlib.suppress(ProtocolError):  # the race is gone
            await self.races.publish(rid)
        return True

    async def still_watching(self, rid: str, players: list[str]) -> None:
        """A beat: ``players`` still watch the race from this server."""
        if players:
            await self.store.race_still_watched(rid, players, self.clock.now_ms())

    async def count(self, rid: str) -> int:
        """How many watch the race now."""
        since = self.clock.now_ms() - self.stale_ms
        return sum(1 for seen in (await self.store.race_watchers(rid)).values() if seen >= since)

    async def may_join(self, player: str, code: str) -> None:
        """``forbidden`` when ``player`` watched the race of ``code``: a spectator
        has seen the members' boards and plays no part in it."""
        rid = await self.store.race_by_code(code)
        if rid is not None and await self.store.race_spectator(rid, player):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                "you watched this race: a spectator does not join it",
                key="error.spectator_join",
            )

    async def boards(self, rid: str) -> list[dict[str, Any]]:
        """Each member's board, once the race is dealt: its ``view`` only once the race
        is finished (see the module's docstring)."""
        info, members, games, _ = await self.store.race(rid)
        shown = info.get("status") == RaceStatus.FINISHED.encode()
        out = []
        for member in members:
            gid = games.get(member)
            raw = await self.store.game(gid) if gid else None
            if raw is not None:
                out.append(self.board(rid, Record.load(gid or "", raw), shown=shown))
        return out

    def board(self, rid: str, rec: Record, *, shown: bool) -> dict[str, Any]:
        """A member's board as a spectator sees it: the member's own view (face-down
        cards null) when ``shown``, else ``view`` null; never the game id, the legal
        moves or the seed."""
        state = self.games.views.wire(rec)
        for hidden in ("game_id", "legal", "ranked"):
            state.pop(hidden, None)
        state["deal"] = {"seed": None, "commitment": state["deal"]["commitment"]}
        if not shown:
            state["view"] = None
        return {"race_id": rid, "player": rec.player, "state": state}

    async def race_finished(self, rid: str) -> None:
        """Every member's game is over: publish every board whole, when anybody
        watches."""
        if await self.count(rid):
            channel = self.store.keys.watch_channel(rid)
            for board in await self.boards(rid):
                await self.store.spublish(channel, pack(board))
