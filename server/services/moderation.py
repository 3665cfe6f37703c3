"""Moderation (issue 49): what ``pasyans-server admin`` does to a player, and the
reports players send.

- A **ban** marks the player's hash (``auth`` then refuses the token with
  ``error.banned`` and the reason), tells every instance on the ban channel to close the
  player's connections, and takes the player's results off every board: each day's and
  each game's all-time (the friends' boards are read from the same boards). What it
  took off is kept, and ``unban`` puts it back. The mark is written before the results
  are taken off, and a result recorded meanwhile looks for the mark after it is put on
  its board (``Leaderboards.record``): whichever comes second takes it off.
- **remove-result** takes one day's result of one game off that day's board, and off
  the all-time board when it was the player's best there (the next best of the
  player's other days then takes its place).
- Every action is written to the **audit log** (a Redis stream) first.
- A **report** (``report {name, reason, text?, game_id?}``) goes into the reports
  stream; a player sends at most :data:`REPORTS_PER_HOUR` an hour.
"""

from __future__ import annotations

import getpass
import os
import socket
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, ProtocolError, pack

from ..patience import registry
from ..store import Store
from .clock import Clock
from .names import look_alike_keys

ALL = "all"
#: a rating board's place kept by a ban, beside the boards' periods
RATING = "rating"
#: reports a player may send in an hour
REPORTS_PER_HOUR = 5
#: the longest free text of a report, in characters
REPORT_TEXT_MAX = 280
#: the reasons a report may give
REPORT_REASONS = ("cheating", "name", "abuse", "other")


def operator() -> str:
    """Who runs the command: ``user@host`` (the audit log says who did what)."""
    try:
        user = getpass.getuser()
    except Exception:
        user = str(os.getuid())
    return f"{user}@{socket.gethostname()}"


class AdminError(ValueError):
    """Bad input or a refused action, said to the operator."""


@dataclass(frozen=True, slots=True)
class Banned:
    """A ban (or a rename), on the ban channel: every instance closes the player's
    connections (and after a rename forgets the games it holds: their player changed)."""

    player: str
    reason: str
    renamed: str = ""


class Moderation:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def canonical(self, name: str) -> str:
        """The player's name as registered; :class:`AdminError` if no such player."""
        fields = await self.store.player_exists(name)
        if not fields.get("token"):
            raise AdminError(f"no player {name!r}")
        raw = fields.get("name") or name.encode()
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    async def log(self, action: str, who: str, **params: str | int) -> None:
        entry: dict[str, str | int] = {"at": self.clock.now_ms(), "by": who, "action": action}
        entry.update(params)
        await self.store.audit(entry)

    # -- bans --------------------------------------------------------------------------

    async def ban(self, name: str, reason: str, who: str) -> int:
        """Ban a player; how many of their results left the boards."""
        player = await self.canonical(name)
        await self.log("ban", who, player=player, reason=reason)
        await self.store.set_ban(player, reason, self.clock.now_ms())
        message = pack({"player": player, "reason": reason})
        await self.store.publish(self.store.keys.ban_channel(), message)
        return await self.take_off(player)

    async def take_off(self, player: str) -> int:
        """Take the (banned) player's results off every board, keeping them for unban."""
        places = await self.store.board_places(player)
        members = await self.store.board_members_of(player, places)
        await self.store.keep_banned_results(player, members)
        await self.store.board_take_off(player, members)
        # the rating boards too (issue 51): kept as ``{slug}|rating`` for unban
        rated = await self.store.rating_places(player, registry.slugs())
        await self.store.keep_banned_results(
            player, {(slug, RATING): str(score) for slug, score in rated.items()}
        )
        await self.store.rating_board_take_off(player, list(rated))
        return len(members) + len(rated)

    async def unban(self, name: str, who: str) -> int:
        """Lift a ban; how many results came back on the boards."""
        player = await self.canonical(name)
        if await self.store.ban_of(player) is None:
            raise AdminError(f"{player!r} is not banned")
        await self.log("unban", who, player=player)
        await self.store.set_ban(player, None, self.clock.now_ms())
        kept = await self.store.banned_results(player)
        rated = {slug: float(score) for (slug, period), score in kept.items() if period == RATING}
        await self.store.rating_board_put(player, rated)
        for (slug, period), member in kept.items():
            if period == RATING:
                continue
            mode = "best" if period == ALL else "first"
            await self.store.board_put(slug, period, player, member, mode)
        await self.store.forget_banned_results(player)
        return len(kept)

    async def banned(self, name: str) -> str | None:
        return await self.store.ban_of(name)

    # -- results -----------------------------------------------------------------------

    async def remove_result(self, name: str, slug: str, date: str, who: str) -> bool:
        """Take ``name``'s daily result of ``slug`` on ``date`` off that day's board
        (and off the all-time board if it was their best there); False if there was
        none."""
        player = await self.canonical(name)
        found = await self.store.board_members_of(player, [(slug, date), (slug, ALL)])
        daily = found.get((slug, date))
        if daily is None:
            return False
        await self.log("remove-result", who, player=player, game=slug, date=date)
        await self.store.board_take_off(player, {(slug, date): daily})
        if found.get((slug, ALL)) == daily:
            await self.store.board_take_off(player, {(slug, ALL): daily})
            days = [p for p in await self.store.board_places(player) if p[0] == slug]
            others = await self.store.board_members_of(player, [p for p in days if p[1] != ALL])
            if others:
                await self.store.board_put(slug, ALL, player, min(others.values()), "best")
        return True

    # -- rename ------------------------------------------------------------------------

    async def rename(self, name: str, new: str, who: str) -> int:
        """Rename a player: ``new`` checked as registration checks a name (its rule,
        taken, looking like another's); the old name stays held (its look-alike keys
        keep naming the player) so nobody takes it at once; the player's connections
        are closed and the next sign-in tells them. Their games, boards, follows and
        inbox go with them; races and challenges already played keep the old name.
        How many games were moved."""
        from protocol.checks import new_player_name

        player = await self.canonical(name)
        if new == player:
            raise AdminError(f"{player!r} has that name already")
        if await self.store.ban_of(player) is not None:
            raise AdminError(f"{player!r} is banned: unban first")
        try:
            new = new_player_name(new)
        except ProtocolError as exc:
            raise AdminError(f"{new!r}: {exc.message}") from None
        if new.casefold() != player.casefold():
            holder = await self.store._claim_look_alikes(new, look_alike_keys(new))
            if holder and holder.casefold() != player.casefold():
                raise AdminError(f"{new!r} looks like the name of {holder!r}")
            if await self.store.player_exists(new):
                raise AdminError(f"the name {new!r} is taken")
        await self.log("rename", who, player=player, new=new)
        message = pack({"player": player, "reason": "", "renamed": new})
        await self.store.publish(self.store.keys.ban_channel(), message)
        places = await self.store.board_places(player)
        members = await self.store.board_members_of(player, places)
        await self.store.board_take_off(player, members)
        if new.casefold() != player.casefold():
            await self.store.move_player_keys(player, new)
        await self.store.renamed_player(new, player, self.clock.now_ms())
        await self.store.hold_name(player, look_alike_keys(player), new)
        await self.store.point_token(new)
        games = await self.store.rename_in_games(new)
        await self.store.rename_in_follows(player, new)
        await self.store.rename_ratings(player, new, registry.slugs())
        for (slug, period), member in members.items():
            mode = "best" if period == ALL else "first"
            moved = member.rsplit("|", 1)[0] + "|" + new
            await self.store.board_put(slug, period, new, moved, mode)
        return games

    async def renamed_from(self, name: str) -> str | None:
        return await self.store.renamed_notice(name)

    # -- reports -----------------------------------------------------------------------

    async def report(
        self, sender: str, name: str, reason: str, text: str, game_id: str | None
    ) -> str:
        """``sender`` reports ``name`` (checked by the protocol's types first)."""
        if name.casefold() == sender.casefold():
            raise ProtocolError(
                ErrorCode.BAD_REQUEST, "you cannot report yourself", key="error.report_self"
            )
        fields = await self.store.player_exists(name)
        if not fields.get("token"):
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no player {name!r}",
                key="error.no_player",
                params={"name": name},
            )
        now = self.clock.now_ms()
        window = now // 3_600_000
        if await self.store.count_report(sender, window, 3600) > REPORTS_PER_HOUR:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"at most {REPORTS_PER_HOUR} reports an hour",
                key="error.limit_reports",
                params={"n": REPORTS_PER_HOUR, "seconds": 3600 - (now // 1000) % 3600},
                retry_after=float(3600 - (now // 1000) % 3600),
            )
        raw = fields.get("name") or name.encode()
        reported = raw.decode() if isinstance(raw, bytes) else str(raw)
        entry: dict[str, str | int] = {
            "at": now,
            "from": sender,
            "player": reported,
            "reason": reason,
            "text": text,
            "game_id": game_id or "",
        }
        await self.store.report_add(entry)
        return reported

    async def reports(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        return await self.store.reports_list(count)
