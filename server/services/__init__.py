"""Use cases, no sockets: accounts, games, dailies, leaderboards."""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass

from ..store import Store
from .accounts import Accounts
from .clock import Clock, FakeClock, SystemClock
from .daily import DEFAULT_BUDGET, Budget, Chooser, Dailies
from .friends import Friends
from .games import Games, daily_overview
from .leaderboard import Leaderboards
from .race import Races
from .replay import Replays
from .stats import Stats


@dataclass
class Services:
    store: Store
    clock: Clock
    accounts: Accounts
    dailies: Dailies
    boards: Leaderboards
    games: Games
    races: Races
    replays: Replays
    stats: Stats
    friends: Friends

    @classmethod
    def build(
        cls,
        store: Store,
        clock: Clock | None = None,
        *,
        chooser: Chooser | None = None,
        budget: Budget = DEFAULT_BUDGET,
        executor: Executor | None = None,
        cache_size: int = 4096,
        countdown: float = 3.0,
        away_after: float = 5.0,
        absent_limit: float = 120.0,
        daily_wait: float = 2.0,
    ) -> Services:
        clock = clock or SystemClock()
        dailies = Dailies(
            store, clock, chooser=chooser, budget=budget, executor=executor, wait=daily_wait
        )
        boards = Leaderboards(store)
        games = Games(store, clock, dailies, boards, cache_size=cache_size)
        races = Races(
            store,
            clock,
            games,
            countdown=countdown,
            away_after=away_after,
            absent_limit=absent_limit,
        )
        accounts = Accounts(store, clock)
        stats = Stats(store, clock, games)
        return cls(
            store,
            clock,
            accounts,
            dailies,
            boards,
            games,
            races,
            Replays(games),
            stats,
            Friends(store, games),
        )


__all__ = ["Clock", "FakeClock", "Services", "SystemClock", "daily_overview"]
