"""The benchmarked game: its name, the real delta the floor answers with, and the
engine's own CPU a move (:func:`engine_cost`), the figure every row is compared with."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack

from server.patience.engine import AnyGame

#: the game every player of the benchmark plays
GAME = "crescent"


def canned_delta() -> dict[str, Any]:
    """A real delta reply of the benchmarked game for the floor to answer with, the
    size of pasyans's: built as the server builds one (counters, the legal list, the
    changed piles' cards, the changed info keys) for each move the load client plays
    in the games of deals 1 to 5, the one of median encoded size."""
    from server.patience import registry

    game = registry.get(GAME)
    found: list[tuple[int, dict[str, Any]]] = []
    for deal in range(1, 6):
        state = game.deal(deal)
        for seq in range(500):  # a game ends well before
            legal = game.legal_moves(state)
            if not legal or game.status(state) != "playing":
                break
            after = game.apply(state, legal[seq % len(legal)])
            was, now = game.view(state), game.view(after)
            piles = {
                b["id"]: b["cards"]
                for a, b in zip(was["piles"], now["piles"], strict=True)
                if a["cards"] != b["cards"]
            }
            delta = {
                "game_id": "abcdefghijkl",
                "seq": seq + 1,
                "status": str(game.status(after)),
                "moves": seq + 1,
                "time_ms": 1000,
                "foundation": game.score(after)[0],
                "clean": True,
                "legal": [m.to_wire() for m in game.legal_moves(after)],
                "piles": piles,
                "info": {k: v for k, v in now["info"].items() if was["info"].get(k) != v},
            }
            found.append((len(msgpack.packb(delta)), delta))
            state = after
    found.sort(key=lambda pair: pair[0])
    return found[len(found) // 2][1]


@dataclass(frozen=True)
class EngineCost:
    """The engine's own CPU µs per move of the benchmarked game, by the move's index in
    its game (seq): a row's figure is weighted by the indices its players reached. A
    short row of 1,000 players plays mostly the first moves of fresh games, whose
    positions have about twice the legal moves of a whole game's average."""

    #: µs per move at each index (seq), over whole games played as the load client plays
    by_seq: tuple[float, ...]
    #: µs per move over every move measured
    mean: float
    #: the games played at once while measuring (:func:`engine_cost`)
    games: int = 1

    def at(self, seqs: Counter[int]) -> float:
        """µs per move over the moves counted in ``seqs`` (index → moves)."""
        total = sum(seqs.values())
        if not total or not self.by_seq:
            return self.mean
        last = len(self.by_seq) - 1
        return sum(self.by_seq[min(i, last)] * k for i, k in seqs.items()) / total


def engine_cost(seconds: float, games: int = 1) -> EngineCost:
    """The engine's own work per move of the benchmarked game: what the server asks of
    the game for each move (parse the move, play it, status and score, dump the state
    for Redis, the new legal moves in wire form, the view of the piles that changed
    and the info), on the moves the load client plays (``legal[seq % n]``), in this
    process, nothing else running in it. ``games`` games are played at once, a move of
    each in turn (a new deal when one ends), as a server holding that many players'
    games plays them: 1,000 games' positions and legal-move lists do not stay in the
    CPU's caches as one game's do (measured: ~1.5 × the µs of one game at a time at
    the same move indices, docs/history/performance-rounds.md). CPU time, as the
    servers' figures: the timed sections' wall time is split by move index and scaled
    by the process's CPU over wall time of the whole measurement (a CPU clock read
    twice a move would cost more than a tenth of what it measures)."""
    from server.patience import registry
    from server.patience.engine import keep_legal_moves
    from server.services import LEGAL_POSITIONS

    keep_legal_moves(LEGAL_POSITIONS)  # as the server does (else 1,000 games miss it)
    game = registry.get(GAME)
    seeds = itertools.count(1)

    def fresh() -> list[Any]:
        state = game.deal(next(seeds))
        return [state, [m.to_wire() for m in game.legal_moves(state)], 0]

    table = [fresh() for _ in range(games)]
    walls: list[float] = []
    moves: list[int] = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    count, spent = _play(game, table, fresh, wall0 + seconds, walls, moves)
    scale = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    mean = spent / count * scale * 1e6 if count else 0.0
    return EngineCost(_by_seq(walls, moves, scale), mean, games)


def _play(
    game: AnyGame,
    table: list[list[Any]],
    fresh: Callable[[], list[Any]],
    deadline: float,
    walls: list[float],
    moves: list[int],
) -> tuple[int, float]:
    """:func:`engine_cost`'s measurement: the games of ``table`` (position, legal moves
    in wire form, index) played a move each in turn until ``deadline``, a ``fresh`` one
    where one ends; the wall time of each move's work added to ``walls`` (and a move
    to ``moves``) at its index in its game. (Moves timed, the seconds they took.)"""
    count, spent = 0, 0.0
    while time.perf_counter() < deadline:
        for slot in table:
            state, wires, seq = slot
            if not wires:
                slot[:] = fresh()
                continue
            wire = wires[seq % len(wires)]
            t0 = time.perf_counter()
            new = game.apply(state, game.parse_move(wire))
            status = game.status(new)
            game.score(new)
            game.dumps(new)
            wires = [m.to_wire() for m in game.legal_moves(new)] if status == "playing" else []
            for i, cards in enumerate(new.piles):
                if cards is not state.piles[i]:
                    game.view_pile(new, i)
            game.info(new)
            took = time.perf_counter() - t0
            if seq == len(walls):
                walls.append(0.0)
                moves.append(0)
            walls[seq] += took
            moves[seq] += 1
            spent += took
            slot[0], slot[1], slot[2] = new, wires, seq + 1
            count += 1
    return count, spent


def _by_seq(walls: list[float], moves: list[int], scale: float) -> tuple[float, ...]:
    """CPU µs a move at each index: an index reached by few games is too noisy alone,
    it takes the mean of the indices from it on (the tail of long games)."""
    by_seq, tail_wall, tail_moves = [], 0.0, 0
    for wall, k in zip(reversed(walls), reversed(moves), strict=True):
        tail_wall, tail_moves = tail_wall + wall, tail_moves + k
        mean_here = wall / k if k >= 20 else tail_wall / tail_moves
        by_seq.append(mean_here * scale * 1e6)
    by_seq.reverse()
    return tuple(by_seq)


@dataclass(frozen=True)
class Engines:
    """The engine's cost one game at a time (``single``) and with as many games at once
    as each row has players (``by_games``): a row's ratio uses the latter."""

    single: EngineCost
    by_games: dict[int, EngineCost]

    def at(self, players: int, seqs: Counter[int]) -> float:
        return self.by_games.get(players, self.single).at(seqs)


def engines(seconds: float, players: set[int]) -> Engines:
    """:func:`engine_cost` one game at a time and at each count of ``players``."""
    single = engine_cost(seconds)
    by_games = {n: single if n == 1 else engine_cost(seconds, games=n) for n in sorted(players)}
    return Engines(single, by_games)
