"""News from any instance, as frames to the players connected here.

The news service (``server/services/news.py``) reads what every instance publishes
and hands it here as typed items; this module only turns each into events for the
connections it concerns:

- a race's news: ``race`` to its members (and, through the :class:`~.relay.Relay`, to
  its spectators), and to a member whose game it just dealt, ``race_started`` with it;
  the races service learns from it which races to watch for presence
  (:meth:`Races.noticed`);
- a member's board: ``race_board`` to the race's spectators (the relay);
- a finished challenge game: ``challenge_result`` to its creator;
- an invite: ``invited`` to its player's every connection here;
- a game written: ``game`` to the player's connections, but the one whose request
  wrote it (it has the reply);
- an account signed out everywhere: ``bye`` to each of its connections here, closed.
"""

from __future__ import annotations

import logging

import protocol as P

from ..services.games import Games
from ..services.moderation import Banned
from ..services.news import (
    ChallengeResult,
    GameWritten,
    InboxNews,
    Item,
    SignedOut,
    TournamentNews,
    WatchBoard,
)
from ..services.race import Races
from ..services.race_news import RaceNews
from .relay import Relay
from .session import ANSWERING, Hub
from .tournament_relay import TournamentRelay

log = logging.getLogger("pasyans.server")


class Events:
    def __init__(self, hub: Hub, games: Games, races: Races, relay: Relay | None = None) -> None:
        self.hub = hub
        self.games = games
        self.races = races
        self.relay = relay
        #: the tournaments' events here (set by the app)
        self.tournaments: TournamentRelay | None = None

    async def deliver(self, item: Item) -> None:
        """One item of news, to whom it concerns here."""
        if isinstance(item, TournamentNews):
            if self.tournaments is not None:
                self.tournaments.changed(item.tid)
        elif isinstance(item, RaceNews):
            await self.race_news(item)
        elif isinstance(item, WatchBoard):
            if self.relay is not None:
                await self.relay.board(item)
        elif isinstance(item, ChallengeResult):
            if self.hub.online(item.creator):
                self.hub.send_to(item.creator, P.event(P.Event.CHALLENGE_RESULT, **item.event))
        elif isinstance(item, InboxNews):
            self.hub.send_to(item.player, P.event(P.Event.INVITED, **item.event))
        elif isinstance(item, SignedOut):
            if item.check:
                await self.signed_out_meanwhile(item.player)
            else:
                self.hub.sign_out(item.player)
        elif isinstance(item, Banned):  # issue 49: an operator banned or renamed them
            for conn in list(self.hub.players.get(item.player.casefold(), ())):
                conn.close(P.CLOSE_POLICY, "renamed" if item.renamed else "banned")
            if item.renamed:
                self.games.cache.clear()  # held records name the old player
        elif isinstance(item, GameWritten):
            ev = P.event(P.Event.GAME, **item.event)
            self.hub.send_to(item.player, ev, skip=ANSWERING.get())

    async def signed_out_meanwhile(self, player: str) -> None:
        """Close the connections of ``player`` here whose token is no longer theirs
        (replaced or deleted before this instance heard of it)."""
        for conn in list(self.hub.players.get(player.casefold(), ())):
            seen = conn.digest  # "" while the connection replaces or deletes its token
            gone = bool(seen) and await self.games.store.player_of_token(seen) is None
            # ... and not changed meanwhile
            if gone and conn.digest == seen and conn.player is not None:
                self.hub.sign_out_one(conn)

    async def race_news(self, news: RaceNews) -> None:
        self.races.noticed(news.race)
        ev = P.event(P.Event.RACE, **news.race)
        for member in news.members:
            self.hub.send_to(member, ev)
        if self.relay is not None:
            await self.relay.race_news(news)
        for member, gid in news.games.items():
            if not self.hub.online(member):
                continue
            try:
                state = await self.games.resume(member, gid)
            except Exception:
                log.exception("race %s: cannot load the game of %s", news.race_id, member)
                continue
            started = P.event(P.Event.RACE_STARTED, race_id=news.race_id, state=state)
            self.hub.send_to(member, started)
