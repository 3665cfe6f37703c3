"""Replays: the seed and the moves of a finished game, and any position along them.

"A game is its seed plus its moves": a replay deals the seed and applies the moves in
force (the log without what undos took back) through the engine, so the last position
is the game's final state. Who may replay what (docs/protocol.md, "Replays"):

- your own finished games, always;
- another player's daily game once that day is over (UTC), so nobody copies the
  day's line while it counts;
- another player's race game once the race is over;
- a past daily's par line (the solver's certified line), once that day is over.

A game still in play is not replayed (its player resumes it). Until a daily's day or
a race is over the replay of your own game hides the seed (as the state object does).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, GameStatus, Mode, ProtocolError, RaceStatus

from ..patience import registry
from ..patience.engine import AnyGame, AnyState
from ..solver.daily import commitment
from .games import Games
from .records import Record, assisted, effective_moves, find_game, tournament_secret

#: positions kept (a player stepping through a replay asks for neighbours)
POSITIONS_KEPT = 512
#: finished games whose moves in force are kept: a finished game's log never changes,
#: and reading a 5,000-move one is a few ms of the event loop's CPU, which a player
#: stepping through it (or flooding ``replay``) would pay at every request
LINES_KEPT = 64
#: the ``mode`` of a par line's replay
PAR = "par"


@dataclass(frozen=True, slots=True)
class Source:
    """What a replay plays: a deal and its moves in force."""

    key: str
    game: AnyGame
    seed: int
    line: tuple[dict[str, Any], ...]


def refusal(
    rec: Record, viewer: str | None, *, day_over: bool, race_over: bool
) -> ProtocolError | None:
    """Why ``viewer`` may not replay ``rec`` (None: they may). Pure: the caller says
    whether the game's day and race are over."""
    mine = viewer is not None and viewer.casefold() == rec.player.casefold()
    if rec.status == GameStatus.PLAYING:
        then = ": resume it" if mine else ""
        return ProtocolError(
            ErrorCode.FORBIDDEN,
            f"game {rec.gid} is still in play{then}; replays are of finished games",
            key="error.replay_in_play_yours" if mine else "error.replay_in_play",
        )
    if tournament_secret(rec):  # everyone's deal until the tournament is over: its
        return ProtocolError(  # player's replay too (a second account would read it)
            ErrorCode.FORBIDDEN,
            "a tournament's games replay once the tournament is over",
            key="error.replay_tournament_running",
        )
    if mine:
        return None
    if rec.race and not race_over:
        return ProtocolError(
            ErrorCode.FORBIDDEN,
            f"{rec.player}'s race game replays once the race is over",
            key="error.replay_race_running",
            params={"player": rec.player},
        )
    if rec.date and not day_over:
        return ProtocolError(
            ErrorCode.FORBIDDEN,
            f"{rec.player}'s game on the daily deal of {rec.date} replays once that day "
            "is over (UTC), so nobody copies the day's line",
            key="error.replay_daily_running",
            params={"player": rec.player, "date": rec.date},
        )
    if not rec.race and not rec.date and rec.mode is not Mode.TOURNAMENT:
        return ProtocolError(
            ErrorCode.FORBIDDEN,
            f"game {rec.gid} is {rec.player}'s {rec.mode} game: only its player replays it",
            key="error.replay_private",
            params={"player": rec.player},
        )
    return None


class Replays:
    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = games.store
        self.dailies = games.dailies
        self._positions: OrderedDict[tuple[str, int], AnyState] = OrderedDict()
        self._lines: OrderedDict[str, tuple[dict[str, Any], ...]] = OrderedDict()

    async def replay(
        self,
        viewer: str | None,
        *,
        game_id: str | None = None,
        game: str | None = None,
        date: str | None = None,
        player: str | None = None,
        step: int | None = None,
    ) -> dict[str, Any]:
        """The ``replay`` op: ``{"replay": …}``, plus ``"position"`` with ``step``."""
        if game_id is None:
            assert game is not None and date is not None
            find_game(game)
            day = await self.dailies.check_date(date)
            if player is None:
                return await self._par(game, day, step)
            ids = await self.store.player_dailies(player, day, [game])
            game_id = ids.get(game)
            if game_id is None:
                raise ProtocolError(
                    ErrorCode.NOT_FOUND,
                    f"{player} has no ranked daily game of {game} on {day}",
                    key="error.no_daily_game",
                    params={"player": player, "game": game, "date": day},
                )
        return await self._game(viewer, game_id, step)

    async def _game(self, viewer: str | None, gid: str, step: int | None) -> dict[str, Any]:
        raw = await self.store.game(gid)
        if raw is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"no game {gid!r}", key="error.no_game")
        rec = Record.load(gid, raw)
        day_over = not rec.date or self.dailies.revealed(rec.date)
        race_over = True
        if rec.race:
            info, _, _, _ = await self.store.race(rec.race)
            # A race's keys expire a day after it was made: a race gone is over.
            race_over = not info or info.get("status") == RaceStatus.FINISHED.encode()
        refused = refusal(rec, viewer, day_over=day_over, race_over=race_over)
        if refused is not None:
            raise refused
        line = await self._line(gid)
        # a challenge game's seed until its challenge closes (the positions are what
        # its player saw, move by move)
        hidden = not day_over or not race_over or self.games.views.challenge_hidden(rec)
        out = {
            "game_id": gid,
            "game": rec.game.slug,
            "player": rec.player,
            "mode": rec.mode,
            "date": rec.date or None,
            "race_id": rec.race or None,
            "status": rec.status,
            "seed": None if hidden else rec.seed,
            "commitment": rec.commitment or None,
            "line": list(line),
            "moves": rec.moves,
            "foundation": rec.foundation,
            "total": rec.game.total,
            "time_ms": self.games.views.time_ms(rec),
            "created": rec.created,
            "finished": rec.finished,
            "clean": rec.clean,
            "auto_completed": rec.auto_completed,
            "assisted": assisted(rec),
            "out": rec.out or None,
        }
        source = Source(gid, rec.game, rec.seed, line)
        return await self._answer(out, source, step, viewer)

    async def _line(self, gid: str) -> tuple[dict[str, Any], ...]:
        """The moves in force of a finished game (kept: they never change again)."""
        line = self._lines.get(gid)
        if line is None:
            line = tuple(effective_moves(await self.store.game_log(gid)))
        self._lines[gid] = line
        self._lines.move_to_end(gid)
        while len(self._lines) > LINES_KEPT:
            self._lines.popitem(last=False)
        return line

    async def _par(self, slug: str, day: str, step: int | None) -> dict[str, Any]:
        if not self.dailies.revealed(day):
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                f"the par line of {day}'s daily stays secret until the day is over (UTC)",
                key="error.par_secret",
                params={"date": day},
            )
        choice = await self.dailies.past(day, slug)
        game = registry.get(slug)
        if not choice.line:
            raise ProtocolError(
                ErrorCode.NOT_FOUND,
                f"the daily of {slug} on {day} was not proven winnable: it has no par line "
                f"(its best known line founds {choice.best_founded} of {game.total})",
                key="error.no_par",
                params={"game": slug, "date": day, "n": choice.best_founded, "total": game.total},
            )
        line = tuple(dict(m) for m in choice.line)
        out = {
            "game_id": None,
            "game": slug,
            "player": None,
            "mode": PAR,
            "date": day,
            "race_id": None,
            "status": GameStatus.WON,
            "seed": choice.seed,
            "commitment": commitment(choice.seed, day, slug),
            "line": list(line),
            "moves": len(line),
            "foundation": game.total,
            "total": game.total,
            "time_ms": None,
            "created": None,
            "finished": None,
            "clean": True,
            "auto_completed": False,
            "assisted": False,
            "out": None,
            "par": choice.par,
        }
        return await self._answer(
            out, Source(f"par:{day}:{slug}", game, choice.seed, line), step, None
        )

    async def _answer(
        self, out: dict[str, Any], source: Source, step: int | None, viewer: str | None
    ) -> dict[str, Any]:
        if step is None:
            return {"replay": out}
        if step > len(source.line):
            raise ProtocolError(
                ErrorCode.BAD_REQUEST,
                f"step {step} is past the end: this replay has {len(source.line)} moves",
                key="error.step_past_end",
                params={"step": step, "n": len(source.line)},
            )
        state = await self.position(source, step, viewer)
        game = source.game
        position = {
            "step": step,
            "view": game.view(state),
            "foundation": game.score(state)[0],
            "total": game.total,
            # The last step is the game as it ended (a resigned game is lost there,
            # though its position still had moves).
            "status": out["status"] if step == len(source.line) else game.status(state),
            "move": source.line[step - 1] if step else None,
        }
        return {"replay": out, "position": position}

    async def position(self, source: Source, step: int, viewer: str | None = None) -> AnyState:
        """The position after ``step`` moves of ``source``: from a kept neighbour when
        there is one (stepping forward costs one move, not the whole line), else from
        the deal (:meth:`Games.replayed`: a long way in a solver process, as a
        player's job of ``viewer``; anonymous viewers share one share)."""
        key = (source.key, step)
        kept = self._positions.get(key)
        if kept is None:
            game = source.game
            before = self._positions.get((source.key, step - 1)) if step else None
            if before is not None:
                kept = game.apply(before, game.parse_move(source.line[step - 1]))
            else:
                kept = await self.games.replayed(
                    game, source.seed, source.line[:step], viewer or ""
                )
        self._positions[key] = kept
        self._positions.move_to_end(key)
        while len(self._positions) > POSITIONS_KEPT:
            self._positions.popitem(last=False)
        return kept
