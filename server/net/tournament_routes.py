"""The tournaments' ops (issue 51): each handler hands its request to the tournaments
service (``server.services.tournament``) and, for the ops that subscribe a connection
to a tournament's events, tells the relay of tournaments
(:class:`~.tournament_relay.TournamentRelay`)."""

from __future__ import annotations

from typing import Any

import protocol as P
from protocol import ErrorCode, ProtocolError

from ..services import Services
from ..services.tournament import Tournaments
from .session import ANSWERING, Conn
from .tournament_relay import TournamentRelay

Result = dict[str, Any]


class TournamentRoutes:
    """Mixed into ``Routes``: the handlers of the tournaments' ops."""

    tournament_relay: TournamentRelay | None = None
    sv: Services

    @property
    def tours(self) -> Tournaments:
        tours = self.sv.tournaments
        assert tours is not None
        return tours

    def follow(self, tid: str, player: str, *, watching: bool = False) -> None:
        if self.tournament_relay is not None:
            self.tournament_relay.add(tid, player, watching=watching)

    async def tournament_create(self, player: str, req: P.TournamentCreateRequest) -> Result:
        conn = ANSWERING.get()
        address = conn.address if conn is not None else None
        wire = await self.tours.create(
            player, req.game, req.starts_at, req.minutes, address=address or None
        )
        self.follow(wire["tournament_id"], player)
        return {"tournament": wire}

    async def tournament_join(self, player: str, req: P.TournamentJoinRequest) -> Result:
        shown = await self.tours.join(player, req.code)
        self.follow(shown["tournament"]["tournament_id"], player)
        return shown

    async def tournament_leave(self, player: str, req: P.TournamentLeaveRequest) -> Result:
        return await self.tours.leave(player, req.tournament_id)

    async def tournament(self, conn: Conn, req: P.TournamentRequest) -> Result:
        info = await self.tours.by_code(req.code)
        return await self.tours.show(conn.player, info)

    async def tournaments(self, player: str, req: P.TournamentsRequest) -> Result:
        return await self.tours.lobby(player)

    async def tournament_play(self, player: str, req: P.TournamentPlayRequest) -> Result:
        dealt = await self.tours.play(player, req.tournament_id)
        self.follow(req.tournament_id, player)
        return dealt

    async def tournament_watch(self, player: str, req: P.TournamentWatchRequest) -> Result:
        info = await self.tours.by_code(req.code)
        self.follow(info.tid, player, watching=True)
        return await self.tours.show(player, info)

    async def tournament_unwatch(self, player: str, req: P.TournamentUnwatchRequest) -> Result:
        relay = self.tournament_relay
        if relay is None or not relay.remove(req.tournament_id, player):
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                "you are not watching this tournament",
                key="error.not_watching_tournament",
            )
        return {}

    async def invite_tournament(self, player: str, friend: str, code: str) -> Result:
        return await self.tours.invite(player, friend, code)
