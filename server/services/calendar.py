"""A month of dailies for one player (``calendar``): each day's status of their
ranked attempt, the day's par and difficulty, and whether its deal may be played now
(a past day: unranked, its seed public); or, of every game, each day's counts.

A past day's daily is read, never chosen here (``Dailies.known``): the calendar makes
the server solve nothing. Today's par and difficulty are what ``daily`` shows; the
calendar carries no seed, line or card.
"""

from __future__ import annotations

import calendar as cal
from typing import Any

from protocol import DayStatus, GameStatus

from ..patience import registry
from .games import Games
from .records import SUMMARY_FIELDS, find_game


def month_days(month: str, first: str, today: str) -> list[str]:
    """The days of ``month`` (YYYY-MM) from ``first`` to ``today``."""
    year, mon = int(month[:4]), int(month[5:7])
    days = [f"{month}-{d:02d}" for d in range(1, cal.monthrange(year, mon)[1] + 1)]
    return [d for d in days if first <= d <= today]


def status_of(summary: dict[str, Any] | None) -> DayStatus:
    if summary is None:
        return DayStatus.NOT_PLAYED
    if summary.get("assisted"):
        return DayStatus.ASSISTED
    return {
        GameStatus.WON: DayStatus.WON,
        GameStatus.LOST: DayStatus.LOST,
    }.get(summary["status"], DayStatus.PLAYING)


class Calendar:
    def __init__(self, games: Games) -> None:
        self.games = games

    async def month(self, player: str, month: str, slug: str | None) -> dict[str, Any]:
        dailies = self.games.dailies
        if slug is not None:
            find_game(slug)
        today = dailies.today()
        days = month_days(month, await dailies.first_day(), today)
        slugs = [slug] if slug is not None else sorted(registry.slugs())
        fields = [f"{d}:{s}" for d in days for s in slugs]
        ids = await self.games.store.player_daily_fields(player, fields)
        wanted = [g for g in ids if g]
        rows = await self.games.store.games(wanted, SUMMARY_FIELDS) if wanted else []
        summaries = {g: self.games.views.summary(g, r) for g, r in zip(wanted, rows, strict=True)}
        mine = {f: summaries.get(g) for f, g in zip(fields, ids, strict=True) if g}
        out: list[dict[str, Any]] = []
        for day in days:
            if slug is None:
                ended = [s for s in (mine.get(f"{day}:{x}") for x in slugs) if s is not None]
                done = [s for s in ended if s["status"] != GameStatus.PLAYING]
                won = sum(1 for s in done if s["status"] == GameStatus.WON)
                out.append({"date": day, "won": won, "played": len(done)})
                continue
            choice = await dailies.known(day, slug)
            out.append(
                {
                    "date": day,
                    "status": str(status_of(mine.get(f"{day}:{slug}"))),
                    "par": choice.par if choice else None,
                    "difficulty": dailies.difficulty(choice, slug) if choice else None,
                    "playable": choice is not None and dailies.revealed(day),
                }
            )
        return {"month": month, "game": slug, "days": out}
