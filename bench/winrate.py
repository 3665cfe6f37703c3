"""Monte-Carlo win rate of a patience under a simple greedy policy.

Plays N seeded deals (seeds S, S+1, …, S+N-1) of any registered game through the
engine API alone. The policy: a move onto a foundation if there is one (the first
listed), else a forced action (deal, travel, redeal…), else the first other legal
move. Each deal is capped at ``--cap`` moves (counted as not won). Prints the win rate
with its 95 % Wilson confidence interval and the mean number of foundation cards.

Figures are a greedy player's, i.e. a lower bound for games with real decisions.

    python bench/winrate.py GAME N [--seed S] [--cap MOVES]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

# Run as a script, Python puts bench/ first on the path, where bench/server.py would
# shadow the project's ``server`` package: look in the project root instead.
_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path[0] = str(_HERE.parent)

from server.patience import registry  # noqa: E402
from server.patience.engine import Game, Move, State  # noqa: E402

Z95 = 1.959963984540054


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


def choose(game: Game, legal: list[Move], foundations: frozenset[str]) -> Move:
    """Greedy: foundation moves first, then forced actions, then anything else."""
    for move in legal:
        if move.dst in foundations:
            return move
    for move in legal:
        if move.action is not None and move.action in game.forced_actions:
            return move
    return legal[0]


def play_out(game: Game, seed: int, cap: int) -> tuple[bool, int, int]:
    """Play one deal greedily: ``(won, foundation cards, moves)``."""
    foundations = frozenset(p.id for p in game.layout if p.kind == "foundation")
    state: State = game.deal(seed)
    moves = 0
    while moves < cap:
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, choose(game, legal, foundations))
        moves += 1
    return game.status(state) == "won", game.score(state)[0], moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a registered slug")
    parser.add_argument("n", type=int, help="number of deals")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--cap", type=int, default=2000, help="moves per deal (default 2000)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    wins = cards = total_moves = 0
    start = last = time.perf_counter()
    for k in range(args.n):
        won, found, moves = play_out(game, args.seed + k, args.cap)
        wins += won
        cards += found
        total_moves += moves
        now = time.perf_counter()
        if not args.quiet and (now - last >= 5 or k + 1 == args.n) and args.n >= 50:
            last = now
            print(f"  {k + 1}/{args.n} deals, {wins} won, {now - start:.0f}s",
                  file=sys.stderr, flush=True)
    n = max(args.n, 1)
    low, high = wilson(wins, args.n)
    print(f"{game.slug}: {args.n} deals from seed {args.seed}, greedy policy, cap {args.cap}")
    print(f"  won {wins}/{args.n} = {100 * wins / n:.1f} %  "
          f"(95 % Wilson CI {100 * low:.1f}–{100 * high:.1f} %)")
    print(f"  mean foundation cards {cards / n:.1f} of {game.score(game.deal(0))[1]}, "
          f"mean moves {total_moves / n:.0f}, {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
