"""Statistics: per game and overall, from counters written once per finished game.

Every game counts when it ends (a listener of finished games, ``Changes``): one Lua
step on the player's slot (``scripts.STATS``) adds the game's id to the player's
counted set and bumps the counters, so a game is counted exactly once however often
its end is seen again (a resume, a retry after a crash between the move and the
count). What is counted:

- every finished game: played, won, cards founded (their sum, for the average), the
  fewest moves and the shortest time of a win, and the day it ended (UTC) as won or
  lost, for the chart of the last days;
- a ranked daily (the day's first attempt, not assisted): dailies played and won;
  per game the streak, on the definition of the overall one (UTC days in a row with
  that game's ranked daily finished by the rules, not resigned: ``by_the_rules``).

The overall streak is the player's (``current_streak``, kept by the daily service).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from protocol import ErrorCode, GameStatus, ProtocolError

from ..patience import registry
from ..store import Store
from .clock import Clock, day_before, utc_date
from .games import Games, current_streak
from .ratings import Ratings
from .records import Record, by_the_rules, find_game

#: days in the chart of results
DAYS = 30
ALL = "all"


def _int(raw: dict[str, bytes], field: str) -> int | None:
    value = raw.get(field)
    return None if value is None else int(value)


def block(raw: dict[str, bytes], scope: str) -> dict[str, Any]:
    """The statistics of one game (``scope`` a slug) or of all (``"all"``)."""
    played = _int(raw, f"played:{scope}") or 0
    won = _int(raw, f"won:{scope}") or 0
    founded = _int(raw, f"founded:{scope}") or 0
    return {
        "played": played,
        "won": won,
        "win_pct": round(100 * won / played, 1) if played else None,
        "best_moves": _int(raw, f"best_moves:{scope}"),
        "best_time_ms": _int(raw, f"best_time:{scope}"),
        "founded_avg": round(founded / played, 1) if played else None,
        "daily_played": _int(raw, f"daily_played:{scope}") or 0,
        "daily_won": _int(raw, f"daily_won:{scope}") or 0,
    }


def game_streak(raw: dict[str, bytes], slug: str, today: str) -> tuple[int, int]:
    """``(current, best)`` streak of one game's ranked daily (see the module)."""
    last = (raw.get(f"streak_day:{slug}") or b"").decode()
    current = _int(raw, f"streak:{slug}") or 0
    if not last or last < day_before(today):
        current = 0
    return current, max(current, _int(raw, f"best_streak:{slug}") or 0)


def last_days(raw: dict[str, bytes], today: str, days: int = DAYS) -> list[dict[str, Any]]:
    """Games won and lost on each of the ``days`` UTC days ending today, oldest first."""
    end = dt.date.fromisoformat(today)
    out = []
    for back in range(days - 1, -1, -1):
        day = (end - dt.timedelta(days=back)).isoformat()
        won = _int(raw, f"day:{day}:won") or 0
        lost = _int(raw, f"day:{day}:lost") or 0
        out.append({"date": day, "won": won, "lost": lost})
    return out


class Stats:
    def __init__(self, store: Store, clock: Clock, games: Games) -> None:
        self.store = store
        self.clock = clock
        self.games = games
        #: the players' ratings from races (issue 51; ``Services.build``)
        self.ratings: Ratings | None = None
        #: the players' tournaments (issue 51; ``Services.build``)
        self.tournaments: Any = None

    async def count(self, rec: Record) -> None:
        """Count a finished game (once: again, it changes nothing)."""
        won = rec.status == GameStatus.WON
        daily = bool(rec.date) and rec.ranked
        end = utc_date(rec.finished or rec.updated)
        args: list[bytes | str | int | float] = [
            rec.gid,
            rec.game.slug,
            int(won),
            rec.moves,
            self.games.views.time_ms(rec),
            rec.foundation,
            int(daily),
            int(by_the_rules(rec)),
            rec.date or end,
            day_before(rec.date or end),
            end,
        ]
        await self.store.count_game(rec.player, args)

    async def stats(self, player: str, game: str | None) -> dict[str, Any]:
        """The ``stats`` op."""
        if game is not None:
            find_game(game)
        info = await self.store.player(player)
        if not info:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"no player is called {player!r}",
                key="error.no_player",
                params={"name": player},
            )
        raw = await self.store.player_stats(player)
        today = utc_date(self.clock.now_ms())
        streak, best = current_streak(info, today)
        overall = {**block(raw, ALL), "streak": streak, "best_streak": best}
        slugs = [game] if game is not None else registry.slugs()
        games = {}
        for slug in slugs:
            one = block(raw, slug)
            if one["played"] or slug == game:
                current, most = game_streak(raw, slug, today)
                games[slug] = {**one, "streak": current, "best_streak": most}
        name = info.get("name", b"").decode() or player
        ratings = (await self.ratings.shown([name]))[0] if self.ratings else {}
        out = {
            "player": name,
            "overall": overall,
            "games": games,
            "days": last_days(raw, today),
            "ratings": ratings,
        }
        if self.tournaments is not None:  # issue 51
            out["tournaments"] = await self.tournaments.stats(name)
        return out
