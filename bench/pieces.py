"""CPU µs of each synchronous piece of the server's move, one piece at a time:

    python -m bench.pieces [--games 20] [--reps 30]

The moves are those bench/hotpath.py's and bench/load_server's players play in
Crescent (``legal[seq % len(legal)]``, deals 1 to ``--games``). Each piece runs over
all of them ``--reps`` times; the least CPU (``time.process_time``) of a pass, per move,
is printed. The engine piece replays the games from their deals, so that every
position is new to the legal-move cache, as a move's is in the server.

The figures are for comparing two versions of the code
(docs/history/performance-rounds.md, issue 28): run this in both checkouts *at the
same time*, so that both see the same load on the machine; one run alone moves by
10-30 % with what else runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import time
from collections.abc import Callable
from typing import Any

import protocol as P
from protocol import Mode
from server.net.app import GC_THRESHOLDS
from server.patience import registry
from server.patience.engine import AnyState, keep_legal_moves
from server.services.clock import SystemClock
from server.services.records import Record, active_time, packed_move
from server.services.views import Views

GAME = "crescent"


class _Revealed:
    """Dailies whose every day is over (no game here is a daily)."""

    def revealed(self, date: str) -> bool:
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pieces", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="deals played [20]")
    parser.add_argument("--reps", type=int, default=30, help="passes per piece [30]")
    args = parser.parse_args(argv)
    gc.set_threshold(*GC_THRESHOLDS)
    keep_legal_moves(1 << 20)  # every position of the run stays cached after the first
    game = registry.get(GAME)
    clock = SystemClock()
    views = Views(clock, _Revealed())  # type: ignore[arg-type]

    def line(seed: int) -> list[tuple[dict[str, Any], AnyState, AnyState]]:
        out = []
        state = game.deal(seed)
        for seq in range(300):
            legal = game.legal_moves(state)
            if not legal:
                break
            move = legal[seq % len(legal)]
            after = game.apply(state, move)
            out.append((move.to_wire(), state, after))
            state = after
        return out

    plays = [p for seed in range(1, args.games + 1) for p in line(seed)]
    n = len(plays)

    def record(state: AnyState, seq: int) -> Record:
        now = clock.now_ms()
        return Record(
            gid="abcdefghijkl",
            game=game,
            seed=1,
            player="p",
            mode=Mode.PRACTICE,
            seq=seq,
            status=game.status(state),
            state=state,
            created=now,
            updated=now,
            finished=0,
            moves=seq,
            foundation=game.score(state)[0],
            date="",
            ranked=False,
            clean=True,
            commitment="",
            recorded=False,
        )

    pairs = [(record(b, i), record(a, i + 1)) for i, (_, b, a) in enumerate(plays)]
    frames = [
        P.encode(P.request(i, "move", game_id="abcdefghijkl", seq=i, move=w, reply="delta"))
        for i, (w, _, _) in enumerate(plays)
    ]
    msgs = [P.decode(f) for f in frames]
    deltas = [views.delta(b, a) for b, a in pairs]

    def engine() -> None:
        # what the server asks of the game for a move, on positions new to the cache
        for seed in range(1, args.games + 1):
            state = game.deal(seed)
            for seq in range(300):
                legal = game.legal_moves(state)
                if not legal:
                    break
                move = game.parse_move(legal[seq % len(legal)].to_wire())
                after = game.apply(state, move)
                game.score(after)
                game.status(after)
                game.dumps(after)
                packed_move(move)
                state = after

    # a tree before Record.changed (issue 28) made the record with dataclasses.replace
    change: Callable[..., Record] = getattr(Record, "changed", dataclasses.replace)

    def changed() -> None:
        for b, a in pairs:
            now = clock.now_ms()
            active = active_time(b.active, created=1, updated=1, finished=0, now=now, gap=60_000)
            change(
                b,
                seq=a.seq,
                status=a.status,
                state=a.state,
                updated=now,
                finished=0,
                moves=a.moves,
                foundation=a.foundation,
                clean=True,
                active=active,
                packed_piles=None,
            )

    pieces: list[tuple[str, Callable[[], object]]] = [
        ("decode the frame", lambda: [P.decode(f) for f in frames]),
        ("parse_request", lambda: [P.parse_request(m) for m in msgs]),
        ("engine: parse_move, apply, score, status, dumps", engine),
        ("the new record (clock, active time, Record.changed)", changed),
        ("Views.delta", lambda: [views.delta(b, a) for b, a in pairs]),
        ("encode the reply", lambda: [P.encode(P.ok(i, delta=d)) for i, d in enumerate(deltas)]),
    ]
    print(f"{GAME}, {n} moves of {args.games} deals; least CPU µs a move of {args.reps} passes")
    for name, run in pieces:
        best = float("inf")
        for _ in range(args.reps):
            t0 = time.process_time()
            run()
            best = min(best, time.process_time() - t0)
        print(f"  {name:55s} {best / n * 1e6:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
