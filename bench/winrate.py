"""How often a sensible greedy player wins each patience: the baseline a solver beats.

Plays N seeded deals (seeds S, S+1, …, S+N-1) of every registered game (or the ones
named) through the engine API alone. The policy, the same for every game:

1. never make a move that brings back a position already seen in this game (the
   position as a player would describe it, ``Game.position_key``: piles of one kind
   are interchangeable, the two decks' copies of a card are the same card);
2. among the rest, prefer a move onto a foundation, then a card move into the
   tableau from anywhere but the tableau, then a card move between other piles (not
   of a card moved just before, which only walks it around), then a non-forced
   action (shift, grace, redeal…), then a forced one (deal, travel…);
3. when every legal move would repeat a position, resign; in a game that declares
   itself ``endless`` (cards may go round without end, e.g. a hand that takes and gives
   cards at any time), also resign after ``STALL`` moves that founded no card.

So every deal ends: ``won``, ``lost`` by the rules, or ``resigned``. A deal that runs
into the engine's move cap is a rules defect (a game that never ends), counted in
``at_cap``, which must stay 0.

Figures are a greedy player's, i.e. a lower bound for games with real decisions.

    python -m bench.winrate [--deals N] [--seed S] [--games a,b] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from server.patience import registry
from server.patience.engine import MOVE_CAP, AnyGame, AnyState, Move

Z95 = 1.959963984540054
#: moves without a card founded after which the greedy gives up an endless game
STALL = 300


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return low, high


@dataclass
class Played:
    """One deal played out: how it ended and what it reached."""

    seed: int
    end: str  # "won", "lost", "resigned" or "cap"
    founded: int
    moves: int
    #: pile indexes that held a card at some point
    filled: set[int] = field(default_factory=set)


class Greedy:
    """The policy of the module docstring for one game."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.key = game.position_key
        kinds = {p.id: p.kind for p in game.layout}
        self.foundations = frozenset(pid for pid, k in kinds.items() if k == "foundation")
        self.tableau = frozenset(pid for pid, k in kinds.items() if k in ("tableau", "grid"))

    def rank(self, move: Move, last: Move | None) -> int:
        if move.action is not None:
            return 5 if move.action in self.game.forced_actions else 4
        if move.dst in self.foundations:
            return 0
        if move.dst in self.tableau and move.src not in self.tableau:
            return 1
        if last is not None and last.action is None and move.src == last.dst:
            return 3  # the card just moved: walking it around gains nothing
        return 2

    def play(self, seed: int) -> Played:
        game = self.game
        state = game.deal(seed)
        seen = {self.key(state)}
        filled = {i for i, pile in enumerate(state.piles) if pile}
        last: Move | None = None
        end = "resigned"
        progress, since = game.score(state)[0], 0
        while True:
            legal = game.legal_moves(state)
            if not legal:
                end = game.status(state)
                if end == "playing":  # pragma: no cover - the engine's own contract
                    raise AssertionError(f"{game.slug} {seed}: no move but playing")
                if state.moves >= MOVE_CAP:
                    end = "cap"
                break
            best: tuple[int, AnyState, Move] | None = None
            for move in sorted(legal, key=lambda m: self.rank(m, last)):
                after = game.apply(state, move)
                if self.key(after) not in seen:
                    best = (0, after, move)
                    break
            if best is None:
                break  # every move left repeats a position: resign
            founded = game.score(best[1])[0]
            if founded > progress:
                progress, since = founded, state.moves
            elif game.endless and state.moves - since >= STALL:
                break  # going round in circles: resign
            _, state, last = best
            seen.add(self.key(state))
            filled.update(i for i, pile in enumerate(state.piles) if pile)
        return Played(seed, end, game.score(state)[0], state.moves, filled)


@dataclass
class Summary:
    slug: str
    deals: int = 0
    wins: int = 0
    lost: int = 0
    resigned: int = 0
    at_cap: int = 0
    founded: int = 0
    moves: int = 0
    total: int = 0
    seconds: float = 0.0

    def add(self, played: Played) -> None:
        self.deals += 1
        self.wins += played.end == "won"
        self.lost += played.end == "lost"
        self.resigned += played.end == "resigned"
        self.at_cap += played.end == "cap"
        self.founded += played.founded
        self.moves += played.moves

    def as_json(self) -> dict[str, object]:
        low, high = wilson(self.wins, self.deals)
        n = max(self.deals, 1)
        return {
            "deals": self.deals,
            "wins": self.wins,
            "lost": self.lost,
            "resigned": self.resigned,
            "at_cap": self.at_cap,
            "win_rate": self.wins / n,
            "wilson95": [round(low, 4), round(high, 4)],
            "mean_founded": round(self.founded / n, 2),
            "total": self.total,
            "mean_moves": round(self.moves / n, 1),
            "seconds": round(self.seconds, 2),
        }


def run(
    slug: str, deals: int, first: int = 0, progress: Callable[[str], None] | None = None
) -> Summary:
    game = registry.get(slug)
    greedy = Greedy(game)
    summary = Summary(slug, total=game.total)
    start = last = time.perf_counter()
    for k in range(deals):
        summary.add(greedy.play(first + k))
        now = time.perf_counter()
        if progress is not None and now - last >= 5:
            last = now
            progress(f"  {slug}: {k + 1}/{deals} deals, {summary.wins} won, {now - start:.0f}s")
    summary.seconds = time.perf_counter() - start
    return summary


def table(rows: list[Summary]) -> str:
    out = [
        "| game | deals | won | 95 % Wilson | mean founded | lost | resigned | at cap |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for s in rows:
        j = s.as_json()
        low, high = wilson(s.wins, s.deals)
        out.append(
            f"| {s.slug} | {s.deals} | {s.wins} ({100 * s.wins / max(s.deals, 1):.1f} %) "
            f"| {100 * low:.1f}–{100 * high:.1f} % | {j['mean_founded']} of {s.total} "
            f"| {s.lost} | {s.resigned} | {s.at_cap} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Greedy win rate of every patience (a baseline for the solver).",
        epilog="Exit status 1 when any deal ran into the engine's move cap.",
    )
    parser.add_argument("--deals", type=int, default=200, help="deals per game (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--json", action="store_true", help="one JSON object keyed by slug")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s] or registry.slugs()
    for slug in slugs:
        if slug not in registry.slugs():
            parser.error(f"unknown game {slug!r}; known: {', '.join(registry.slugs())}")
    if args.deals < 1:
        parser.error("--deals must be at least 1")

    def say(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    rows = []
    for slug in slugs:
        rows.append(run(slug, args.deals, args.seed, say))
        say(f"{slug}: done in {rows[-1].seconds:.1f}s")
    if args.json:
        print(json.dumps({s.slug: s.as_json() for s in rows}, indent=1))
    else:
        print(f"greedy policy, {args.deals} deals per game from seed {args.seed}")
        print(table(rows))
    return 1 if any(s.at_cap for s in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
