"""The solver's help with a game: a hint, the safe moves (``auto``), and ``finish``
(auto-complete) with its ``check`` — and the rules of fair play that limit them on a
ranked or compared game (docs/protocol.md, "Fair play")."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from protocol import ErrorCode, GameStatus, ProtocolError

from .. import solver
from ..patience.engine import Move
from .games import Games
from .records import Record, compared, packed_move

NO_RACE_FINISH = (ErrorCode.FORBIDDEN, "no auto-complete in a race: everyone plays alone")
#: games whose hinted line is kept (a player who follows a hint gets the next move of
#: the same line at once)
HINTS_KEPT = 1024
#: safe moves one ``auto`` plays at most (a bound only: they run out long before)
AUTO_MAX = 1000


class Assistance:
    def __init__(
        self,
        games: Games,
        *,
        hint_seconds: float = 2.0,
        finish_seconds: float = 1.0,
        finish_nodes: int = 50_000,
    ) -> None:
        """The budgets are the settings' (``Settings.hint_seconds`` and the others): a
        hint searches ``hint_seconds``, ``finish`` ``finish_seconds`` and at most
        ``finish_nodes`` positions (a position near its end is decided in a few
        hundred: a short budget keeps the check cheap)."""
        self.games = games
        self.hint_seconds = hint_seconds
        self.finish_seconds = finish_seconds
        self.finish_nodes = finish_nodes
        #: per game: the position at which the rest of its last hinted line applies
        #: (the one after the hinted move), and that rest
        self._hints: dict[str, tuple[tuple[object, object], tuple[Move, ...]]] = {}

    async def hint(self, player: str, gid: str, *, seconds: float | None = None) -> dict[str, Any]:
        """One move of a winning line from the game's position, found off the event
        loop within about ``seconds``, or None. The game becomes *assisted*: it no
        longer ranks on a daily board. Races refuse hints."""
        rec = await self.games.owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(ErrorCode.GAME_OVER, f"the game is over ({rec.status})")
        if rec.race:
            raise ProtocolError(ErrorCode.FORBIDDEN, "no hints in a race: everyone plays alone")
        rec = await self._assist(rec)  # marked, ranked or not (a challenge shows it)
        kept = self._hints.get(gid)
        if kept is not None and kept[0] == (rec.state.piles, rec.state.vars) and kept[1]:
            line = kept[1]  # the player followed the last hint: go on along its line
        else:
            budget = self.hint_seconds if seconds is None else seconds
            found = await asyncio.to_thread(solver.solve, rec.game, rec.state, max_seconds=budget)
            line = found.line or ()
        if not line:
            self._hints.pop(gid, None)
            return {"move": None, "assisted": True, "message": "no win found from here"}
        after = rec.game.apply(rec.state, line[0])
        self._hints[gid] = ((after.piles, after.vars), line[1:])
        if len(self._hints) > HINTS_KEPT:
            self._hints.pop(next(iter(self._hints)))
        return {"move": line[0].to_wire(), "assisted": True, "message": f"try {line[0]}"}

    async def _assist(self, rec: Record) -> Record:
        """The solver helps this game: it is *assisted*, no longer ranked."""
        await self.games.store.set_game_fields(rec.gid, {"ranked": 0, "assisted": 1})
        return self.games.remember(replace(rec, ranked=False, assisted=True))

    async def auto(self, player: str, gid: str, seq: int) -> tuple[Record, Record, list[Move]]:
        """Play the game's safe moves (``Game.safe_moves``, the first listed each time)
        one by one until none is left, the game ends or AUTO_MAX were played; each is
        a move like any other (logged, counted, undoable). The record before, the one
        after, and the moves played."""
        first = await self.games.playing(player, gid, seq)
        last, played = await self._play_line(first, None)
        return first, last, played

    async def finish(
        self,
        player: str,
        gid: str,
        seq: int,
        *,
        assist: bool = False,
        seconds: float | None = None,
    ) -> tuple[Record, Record, list[Move]]:
        """Play the rest of the game along a winning line the solver certifies from
        here (``illegal_move`` when none is found within the budget). The game is
        marked *auto-completed*. Races refuse it. A ranked game is finished only when
        it is trivially won (:meth:`Game.trivial_line`: its safe moves win it, no
        search), and stays ranked; any other finish of it needs ``assist``, and the
        game is then assisted, as after a hint: the solver's search would otherwise
        win a ranked daily for anyone at move 0."""
        rec = first = await self.games.playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        line = rec.game.trivial_line(rec.state) if compared(rec) else None
        if compared(rec) and line is None:
            if not assist:
                raise ProtocolError(
                    ErrorCode.ILLEGAL_MOVE,
                    "on a ranked game the server finishes only a rest its safe moves win: "
                    "play on, or finish with the solver's help (assist: the game then no "
                    "longer ranks)",
                    state=self.games.views.wire(rec),
                )
            rec = await self._assist(rec)
        if line is None:
            line = await self.finish_line(rec, seconds=seconds)
        if line is None:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                "no certain win found from here: play on",
                state=self.games.views.wire(rec),
            )
        if not rec.auto_completed:
            await self.games.store.set_game_fields(gid, {"auto": 1})
            rec = self.games.remember(replace(rec, auto_completed=True))
        last, played = await self._play_line(rec, line)
        return first, last, played

    async def finish_check(
        self, player: str, gid: str, seq: int, *, seconds: float | None = None
    ) -> dict[str, Any]:
        """Whether ``finish`` would play the rest from here: ``certain`` and the line's
        ``moves`` (None when not certain). Changes nothing; the line is kept, so the
        ``finish`` that follows plays it at once. On a ranked game it is no oracle:
        ``certain`` only for a trivially won rest, and nothing is searched."""
        rec = await self.games.playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        if compared(rec):
            line = rec.game.trivial_line(rec.state)
        else:
            line = await self.finish_line(rec, seconds=seconds)
        return {"certain": line is not None, "moves": None if line is None else len(line)}

    async def finish_line(
        self, rec: Record, *, seconds: float | None = None
    ) -> tuple[Move, ...] | None:
        """A certified winning line from the game's position: the rest of the line
        last found for this game when it applies here (a hint's, a check's), else one
        searched off the event loop within ``seconds`` (default ``finish_seconds``) and
        ``finish_nodes`` positions."""
        if rec.race:
            raise ProtocolError(NO_RACE_FINISH[0], NO_RACE_FINISH[1])
        here = (rec.state.piles, rec.state.vars)
        kept = self._hints.get(rec.gid)
        if kept is not None and kept[0] == here and kept[1]:
            return kept[1]
        found = await asyncio.to_thread(
            solver.solve,
            rec.game,
            rec.state,
            max_seconds=self.finish_seconds if seconds is None else seconds,
            max_nodes=self.finish_nodes,
        )
        line = found.line
        if not line or not solver.certify(rec.game, rec.state, line):
            return None
        self._hints[rec.gid] = (here, line)
        if len(self._hints) > HINTS_KEPT:
            self._hints.pop(next(iter(self._hints)))
        return line

    async def _play_line(
        self, rec: Record, line: Sequence[Move] | None
    ) -> tuple[Record, list[Move]]:
        """Play ``line`` (None: each time the first safe move) from ``rec`` through the
        normal path of a move, at most AUTO_MAX (a line: its length); the last record
        and the moves played."""
        game = rec.game
        played: list[Move] = []
        todo = iter(line) if line is not None else None
        while rec.status == GameStatus.PLAYING and len(played) < AUTO_MAX:
            if todo is None:
                safe = game.safe_moves(rec.state)
                move = safe[0] if safe else None
            else:
                move = next(todo, None)
            if move is None:
                break
            state = game.apply(rec.state, move)
            rec = await self.games.commit(rec, state, packed_move(move), clean=rec.clean)
            played.append(move)
        return rec, played
