"""Use cases, no sockets: accounts, games, dailies, leaderboards."""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import Settings
from ..solver.daily import DEFAULT_BUDGET, Budget, Chooser
from ..store import Store
from ..workers import SolverPool
from .accounts import Accounts
from .assistance import Assistance
from .challenges import Challenges
from .clock import Clock, FakeClock, SystemClock
from .daily import Dailies
from .friends import Friends
from .games import Games, daily_overview
from .leaderboard import Leaderboards
from .race import Races
from .replay import Replays
from .stats import Stats
from .watch import Watch


@dataclass
class Services:
    store: Store
    clock: Clock
    accounts: Accounts
    dailies: Dailies
    boards: Leaderboards
    games: Games
    assist: Assistance
    races: Races
    replays: Replays
    stats: Stats
    friends: Friends
    challenges: Challenges
    watch: Watch
    _deployment: str = ""

    async def deployment(self) -> str:
        """The deployment's id (read once from Redis, where the first instance made it)."""
        if not self._deployment:
            self._deployment = await self.store.deployment()
        return self._deployment

    @classmethod
    def build(
        cls,
        store: Store,
        clock: Clock | None = None,
        *,
        chooser: Chooser | None = None,
        budget: Budget = DEFAULT_BUDGET,
        pool: SolverPool | None = None,
        cache_size: int = 4096,
        countdown: float = 3.0,
        away_after: float = 5.0,
        absent_limit: float = 120.0,
        idle_gap: float = 60.0,
        daily_wait: float = 2.0,
        limits: Settings | None = None,
        watch_stale_after: float = 5.0,
    ) -> Services:
        """The services on ``store``; ``limits``: the settings whose limits they keep
        (the players' caps, the solver's budgets for hints and finish; default: the
        settings' defaults); ``pool``: the solver's worker processes (default: threads
        of this process, under the settings' limits: for tests)."""
        limits = limits or Settings()
        clock = clock or SystemClock()
        if pool is None:
            pool = SolverPool(0, queue=limits.solver_queue, per_account=limits.solver_per_player)
        dailies = Dailies(
            store,
            clock,
            chooser=chooser,
            budget=budget,
            pool=pool,
            wait=daily_wait,
            first_day=limits.first_day,
        )
        boards = Leaderboards(store)
        games = Games(
            store,
            clock,
            dailies,
            boards,
            pool=pool,
            cache_size=cache_size,
            idle_gap=idle_gap,
            max_in_play=limits.max_in_play,
        )
        assist = Assistance(
            games,
            pool,
            hint_nodes=limits.hint_nodes,
            hint_seconds=limits.hint_seconds,
            finish_nodes=limits.finish_nodes,
            finish_seconds=limits.finish_seconds,
        )
        races = Races(
            store,
            clock,
            games,
            countdown=countdown,
            away_after=away_after,
            absent_limit=absent_limit,
            members=limits.race_members,
            lobbies=limits.race_lobbies,
        )
        accounts = Accounts(store, clock)
        stats = Stats(store, clock, games)
        # After Stats and Races: each wraps the hook set before it (a finished game is
        # counted, then noted in its challenge; a race's news, then the board).
        challenges = Challenges(
            store, clock, games, days=limits.challenge_days, most_open=limits.challenge_open
        )
        watch = Watch(
            store, clock, games, races, most=limits.race_watchers, stale_after=watch_stale_after
        )
        return cls(
            store,
            clock,
            accounts,
            dailies,
            boards,
            games,
            assist,
            races,
            Replays(games),
            stats,
            Friends(store, games, most=limits.max_follows),
            challenges,
            watch,
        )


__all__ = ["Clock", "FakeClock", "Services", "SystemClock", "daily_overview"]
