"""Use cases, no sockets: accounts, games, dailies, leaderboards."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from protocol import InboxKind

from ..patience.engine import keep_legal_moves
from ..settings import Settings
from ..solver.daily import DEFAULT_BUDGET, Budget, Chooser
from ..store import Store
from ..store.errors import OUTAGE
from ..workers import SolverPool
from . import catalogue
from .account_data import AccountData
from .accounts import Accounts
from .assistance import Assistance
from .calendar import Calendar
from .challenges import Challenges
from .changes import Changes
from .clock import Clock, FakeClock, SystemClock
from .compaction import Compaction
from .daily import Dailies
from .friends import Friends
from .games import Games, daily_overview
from .inbox import Inbox
from .leaderboard import Leaderboards
from .limits import AddressLimits
from .links import Links, served
from .moderation import Moderation
from .news import News
from .presence import Presence
from .race import Races
from .ratings import Ratings
from .replay import Replays
from .stats import Stats
from .tournament import Tournaments
from .watch import Watch

#: positions whose legal moves each game keeps in a server: more than the games in play
#: at once between two moves of one, so a move is checked against the list its previous
#: reply sent. At the engine's default 256, 1,000 players of one game each found their
#: position evicted and paid for its moves twice (docs/history/performance-rounds.md)
LEGAL_POSITIONS = 2048


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
    news: News
    #: the limits per client address (``register``, ``race_join``, ``race_watch``)
    addresses: AddressLimits
    presence: Presence
    inbox: Inbox
    calendar: Calendar
    links: Links
    #: a player's own data: exported, or deleted with the account (issue 49)
    data: AccountData
    #: bans, results taken off, reports (issue 49)
    moderation: Moderation
    _deployment: str = ""
    #: ratings from races (issue 51)
    ratings: Ratings | None = None
    #: finished games packed, old practice games summarised (issue 50)
    compaction: Compaction | None = None
    #: tournaments (issue 51)
    tournaments: Tournaments | None = None

    async def deployment(self) -> str:
        """The deployment's id (read once from Redis, where the first instance made it)."""
        if not self._deployment:
            self._deployment = await self.store.deployment()
        return self._deployment

    async def healthy(self, seconds: float = 2.0) -> bool:
        """Whether storage answers within ``seconds`` (``/healthz``)."""
        try:
            return await asyncio.wait_for(self.store.ping(), seconds)
        except (RedisError, OSError, TimeoutError):
            return False

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
        keep_legal_moves(LEGAL_POSITIONS)
        if pool is None:
            pool = SolverPool(
                0,
                queue=limits.solver_queue,
                per_account=limits.solver_per_player,
                per_address=limits.solver_per_address,
            )
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
        changes = Changes()
        games = Games(
            store,
            clock,
            dailies,
            boards,
            changes,
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
        challenges = Challenges(
            store, clock, games, days=limits.challenge_days, most_open=limits.challenge_open
        )
        watch = Watch(
            store, clock, games, races, most=limits.race_watchers, stale_after=watch_stale_after
        )
        news = News(store)
        links = Links(limits.public_url or served(limits.host, limits.port))
        presence = Presence(store, clock, news.instance)
        inbox = Inbox(store, clock, links, per_hour=limits.invites_per_hour)
        friends = Friends(store, games, presence, inbox, most=limits.max_follows)
        races.url, challenges.url = links.race, links.challenge

        async def rematch(player: str, race: dict[str, Any], members: list[str]) -> None:
            for member in members:  # each its own item (its own read mark)
                kind = InboxKind.REMATCH
                await inbox.put(member, inbox.item(kind, player, race["game"], race=race["code"]))

        async def result(creator: str, event: dict[str, Any]) -> None:
            item = inbox.item(
                InboxKind.CHALLENGE_RESULT, event["player"], event["game"], challenge=event["code"]
            )
            await inbox.put(creator, item)

        races.on_rematch, challenges.on_result = rematch, result
        # ratings from races (issue 51): moved when a race ends, shown in its rows, in
        # stats, friends and on the rating board
        ratings = Ratings(store)
        races.ratings = boards.ratings = stats.ratings = friends.ratings = ratings
        # What happens after a game is written, in this order: a finished game is
        # counted in its player's statistics, noted in its challenge (its creator's
        # inbox told), told to the followers it beat, ranked on its daily's boards; a
        # race game's race publishes its news; a race over shows its spectators the
        # boards.
        changes.on_finished(stats.count)
        changes.on_finished(challenges.finished)
        changes.on_finished(friends.daily_finished)
        changes.on_finished(games.rank)
        # tournaments (issue 51): a deal over is scored on its standings
        tournaments = Tournaments(
            store,
            clock,
            games,
            inbox,
            links,
            pool=pool,
            budget=budget,
            lead=limits.tournament_lead,
            minute=limits.tournament_minute,
            per_day=limits.tournaments_per_day,
            entrants=limits.tournament_entrants,
            schedule_text=limits.tournament_schedule,
            one_per_address=limits.address_limits,
        )
        changes.on_finished(tournaments.finished)
        stats.tournaments = tournaments
        # ... and, last, packed small (issue 50)
        compaction = Compaction(
            store,
            clock,
            retention_days=limits.practice_retention_days,
            interval=limits.compact_interval,
        )
        changes.on_finished(compaction.finished)
        changes.on_race_game(races.game_changed)
        changes.on_race_finished(watch.race_finished)
        races.watchers_of = watch.count
        # ... and every written game to the player's other connections, here or on
        # another instance.
        changes.on_written(news.game_written)
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
            friends,
            challenges,
            watch,
            news,
            AddressLimits.of(store, clock, limits),
            presence,
            inbox,
            Calendar(games),
            links,
            AccountData(store, clock, games, inbox),
            Moderation(store, clock),
            ratings=ratings,
            compaction=compaction,
            tournaments=tournaments,
        )


__all__ = [
    "LEGAL_POSITIONS",
    "OUTAGE",
    "Clock",
    "FakeClock",
    "Services",
    "SystemClock",
    "catalogue",
    "daily_overview",
]
