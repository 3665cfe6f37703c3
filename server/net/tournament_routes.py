"""The tournaments' ops (issue 51): each handler hands its request to the tournaments
service (``server.services.tournament``) and, for the ops that subscribe a connection
to a tournament's events, tells the relay of tournaments."""

from __future__ import annotations

from typing import Any

import protocol as P
from protocol import ErrorCode, ProtocolError

from .session import ANSWERING, Conn

Result = dict[str, Any]


def _stub() -> ProtocolError:
    return ProtocolError(
        ErrorCode.UNAVAILABLE,
        "tournaments are not open yet",
        key="error.tournament_preparing",
        retry_after=60.0,
    )


class TournamentRoutes:
    """Mixed into ``Routes``: the handlers of the tournaments' ops."""

    async def tournament_create(self, player: str, req: P.TournamentCreateRequest) -> Result:
        raise _stub()

    async def tournament_join(self, player: str, req: P.TournamentJoinRequest) -> Result:
        raise _stub()

    async def tournament_leave(self, player: str, req: P.TournamentLeaveRequest) -> Result:
        raise _stub()

    async def tournament(self, conn: Conn, req: P.TournamentRequest) -> Result:
        raise _stub()

    async def tournaments(self, player: str, req: P.TournamentsRequest) -> Result:
        raise _stub()

    async def tournament_play(self, player: str, req: P.TournamentPlayRequest) -> Result:
        raise _stub()

    async def tournament_watch(self, player: str, req: P.TournamentWatchRequest) -> Result:
        raise _stub()

    async def tournament_unwatch(self, player: str, req: P.TournamentUnwatchRequest) -> Result:
        _ = ANSWERING.get()
        raise _stub()

    async def invite_tournament(self, player: str, friend: str, code: str) -> Result:
        raise _stub()
