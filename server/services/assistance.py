"""The solver's help with a game: a hint, the safe moves (``auto``), and ``finish``
(auto-complete) with its ``check`` — and the rules of fair play that limit them on a
ranked or compared game (docs/protocol.md, "Fair play")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError

from ..patience.engine import Move
from ..solver import jobs
from ..workers import Busy, Lane, SolverPool, WorkerDied
from .games import Games
from .records import Record, compared

NO_RACE_FINISH = (ErrorCode.FORBIDDEN, "no auto-complete in a race: everyone plays alone")


def no_search(rec: Record, what: str) -> ProtocolError:
    """Why the solver may not search ``rec`` (``what``: "hints", "a finish that
    searches"): its deal is others' to play now (:meth:`Views.solver_helps`)."""
    if rec.race:
        why, key = "in a race: everyone plays alone", "error.no_help_race"
    elif rec.mode is Mode.TOURNAMENT:
        why, key = "in a tournament: everyone plays the same deals", "error.no_help_tournament"
    elif rec.mode is Mode.CHALLENGE:
        why, key = "on a challenge: its line would be every accepter's", "error.no_help_challenge"
    else:
        why = f"on the daily deal of {rec.date} until the day is over: its line would be everyone's"
        key = "error.no_help_daily"
    return ProtocolError(ErrorCode.FORBIDDEN, f"no {what} {why}", key=key)


def _busy(busy: Busy) -> ProtocolError:
    """The solver refused a search (the player's or the address's share is in flight,
    or the queue is full): ``unavailable`` with its ``retry_after``."""
    return ProtocolError(
        ErrorCode.UNAVAILABLE,
        busy.reason,
        key="error.solver_busy",
        params={"seconds": max(1, round(busy.retry_after))},
        retry_after=busy.retry_after,
    )


#: games whose hinted line is kept (a player who follows a hint gets the next move of
#: the same line at once)
HINTS_KEPT = 1024
#: safe moves one ``auto`` plays at most (a bound only: they run out long before)
AUTO_MAX = 1000


class Assistance:
    def __init__(
        self,
        games: Games,
        pool: SolverPool,
        *,
        hint_nodes: int = 50_000,
        hint_seconds: float = 2.0,
        finish_nodes: int = 50_000,
        finish_seconds: float = 2.0,
    ) -> None:
        """The budgets are the settings' (``Settings.hint_nodes`` and the others): a
        hint's search expands at most ``hint_nodes`` positions, ``finish``'s
        ``finish_nodes`` (a position near its end is decided in a few hundred), and
        stops after ``hint_seconds`` (``finish_seconds``) whatever its nodes: the bound
        on a player's wait. Every search runs in ``pool``'s worker processes,
        in its players' lane: an account with a search under way, or a full queue, is
        answered ``unavailable`` at once."""
        self.games = games
        self.pool = pool
        self.hint_nodes = hint_nodes
        self.hint_seconds = hint_seconds
        self.finish_nodes = finish_nodes
        self.finish_seconds = finish_seconds
        #: per game: the position at which the rest of its last hinted line applies
        #: (the one after the hinted move), and that rest
        self._hints: dict[str, tuple[tuple[object, object], tuple[Move, ...]]] = {}

    async def hint(self, player: str, gid: str, *, nodes: int | None = None) -> dict[str, Any]:
        """One move of a winning line from the game's position, found in a solver
        process within ``nodes`` positions (default ``hint_nodes``), or None. The game
        becomes *assisted*: it no longer ranks on a daily board. Races refuse hints."""
        self._room(player)
        rec = await self.games.owned(gid, player)
        if rec.status != GameStatus.PLAYING:
            raise ProtocolError(
                ErrorCode.GAME_OVER, f"the game is over ({rec.status})", key="error.game_over"
            )
        if not self.games.views.solver_helps(rec):
            raise no_search(rec, "hints")
        kept = self._hints.get(gid)
        if kept is not None and kept[0] == (rec.state.piles, rec.state.vars) and kept[1]:
            rec = await self._assist(rec)  # marked, ranked or not (a challenge shows it)
            line = kept[1]  # the player followed the last hint: go on along its line
        else:
            budget = self.hint_nodes if nodes is None else nodes
            # Queued first: a search refused (busy) leaves the game as it was.
            search = self._submit(player, rec, jobs.find_line, budget, self.hint_seconds)
            rec = await self._assist(rec)
            line = await self._answer(rec, search) or ()
        if not line:
            self._hints.pop(gid, None)
            return {"move": None, "assisted": True, "message": "no win found from here"}
        after = rec.game.apply(rec.state, line[0])
        self._hints[gid] = ((after.piles, after.vars), line[1:])
        if len(self._hints) > HINTS_KEPT:
            self._hints.pop(next(iter(self._hints)))
        return {"move": line[0].to_wire(), "assisted": True, "message": f"try {line[0]}"}

    def _room(self, player: str) -> None:
        """Refuse at once, before anything is read, a search the solver would refuse
        (a flood of them costs the server a dict lookup each)."""
        try:
            self.pool.admit(player)
        except Busy as busy:
            raise _busy(busy) from None

    def _submit(self, player: str, rec: Record, job: Any, *args: Any) -> Any:
        """Queue ``job(slug, state bytes, *args)`` in the players' lane of the solver's
        processes; ``unavailable`` at once when the player or the pool is busy."""
        try:
            return self.pool.submit(
                Lane.PLAYER,
                job,
                rec.game.slug,
                rec.game.dumps(rec.state),
                *args,
                account=player,
            )
        except Busy as busy:
            raise _busy(busy) from None

    async def _answer(self, rec: Record, search: Any) -> tuple[Move, ...] | None:
        """The line a queued search found (certified in the worker), as moves."""
        try:
            found: jobs.Found = await search
        except Busy as busy:  # a player of a quieter address took its place in the queue
            raise _busy(busy) from None
        except WorkerDied:
            raise ProtocolError(
                ErrorCode.UNAVAILABLE,
                "the search stopped before it answered: try again",
                retry_after=1.0,
                key="error.search_stopped",
            ) from None
        if found.line is None:
            return None
        return tuple(rec.game.parse_move(m) for m in found.line)

    async def _trivial(self, player: str, rec: Record) -> tuple[Move, ...] | None:
        """The rest of a trivially won game (no search, but a whole game's safe moves:
        a solver process's work too)."""
        return await self._answer(rec, self._submit(player, rec, jobs.trivial_line))

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
        nodes: int | None = None,
    ) -> tuple[Record, Record, list[Move]]:
        """Play the rest of the game along a winning line the solver certifies from
        here (``illegal_move`` when none is found within the budget). The game is
        marked *auto-completed*. Races refuse it. A ranked game, or one whose deal
        others are playing now (today's daily, a challenge), is finished only when it
        is trivially won (:meth:`Game.trivial_line`: its safe moves win it, no
        search); a ranked game stays ranked. Any other finish of a ranked game needs
        ``assist`` (the game is then assisted, as after a hint), and only where the
        solver may search at all (:meth:`Views.solver_helps`): the solver's search
        would otherwise win a ranked daily for anyone at move 0, or give a second
        account the day's line."""
        self._room(player)
        rec = first = await self.games.playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(*NO_RACE_FINISH, key="error.no_help_race")
        guarded = compared(rec) or not self.games.views.solver_helps(rec)
        line = await self._trivial(player, rec) if guarded else None
        if guarded and line is None:
            if not self.games.views.solver_helps(rec):
                raise ProtocolError(
                    ErrorCode.ILLEGAL_MOVE,
                    "the server finishes this game only once its safe moves win it: its "
                    "deal is others' to play now, so the solver does not search it; "
                    "play on",
                    state=self.games.views.wire(rec),
                    key="error.no_finish_shared",
                )
            if not assist:
                raise ProtocolError(
                    ErrorCode.ILLEGAL_MOVE,
                    "on a ranked game the server finishes only a rest its safe moves win: "
                    "play on, or finish with the solver's help (assist: the game then no "
                    "longer ranks)",
                    state=self.games.views.wire(rec),
                    key="error.no_finish_ranked",
                )
            rec = await self._assist(rec)
        if line is None:
            line = await self.finish_line(player, rec, nodes=nodes)
        if line is None:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE,
                "no certain win found from here: play on",
                key="error.no_finish",
                state=self.games.views.wire(rec),
            )
        if not rec.auto_completed:
            await self.games.store.set_game_fields(gid, {"auto": 1})
            rec = self.games.remember(replace(rec, auto_completed=True))
        last, played = await self._play_line(rec, line)
        return first, last, played

    async def finish_check(
        self, player: str, gid: str, seq: int, *, nodes: int | None = None
    ) -> dict[str, Any]:
        """Whether ``finish`` would play the rest from here: ``certain`` and the line's
        ``moves`` (None when not certain). Changes nothing; the line is kept, so the
        ``finish`` that follows plays it at once. On a ranked game it is no oracle:
        ``certain`` only for a trivially won rest, and nothing is searched."""
        self._room(player)
        rec = await self.games.playing(player, gid, seq)
        if rec.race:
            raise ProtocolError(*NO_RACE_FINISH, key="error.no_help_race")
        if compared(rec) or not self.games.views.solver_helps(rec):
            line = await self._trivial(player, rec)
        else:
            line = await self.finish_line(player, rec, nodes=nodes)
        return {"certain": line is not None, "moves": None if line is None else len(line)}

    async def finish_line(
        self, player: str, rec: Record, *, nodes: int | None = None
    ) -> tuple[Move, ...] | None:
        """A certified winning line from the game's position: the rest of the line
        last found for this game when it applies here (a hint's, a check's), else one
        searched in a solver process within ``nodes`` positions (default
        ``finish_nodes``)."""
        if rec.race:
            raise ProtocolError(*NO_RACE_FINISH, key="error.no_help_race")
        here = (rec.state.piles, rec.state.vars)
        kept = self._hints.get(rec.gid)
        if kept is not None and kept[0] == here and kept[1]:
            return kept[1]
        budget = self.finish_nodes if nodes is None else nodes
        search = self._submit(player, rec, jobs.find_line, budget, self.finish_seconds)
        line = await self._answer(rec, search)
        if not line:
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
            rec = (await self.games.play(rec, move)).after
            played.append(move)
        return rec, played
