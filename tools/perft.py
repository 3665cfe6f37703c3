"""Perft for patience: how many move sequences, and how many distinct positions, each
game's rules allow from a few positions, some moves deep — as python-chess keeps perft
results for every variant. The figures are kept in ``tests/server/patience/perft.json``
and ``tests/server/patience/test_perft.py`` checks that the engine still reproduces
them: a change to what a game's moves are, or to what they do, changes some figure
(one the trees reach: a rule for a position none of them meets goes unseen).

    python -m tools.perft            # print each game's figures, checked against the file
    python -m tools.perft --write    # measure every game again and rewrite the file
    python -m tools.perft --games crescent,parade [--write]

Definitions, for a game ``G`` (``registry.get(slug)``), a seed and a number of plies
``k`` (a start, written ``"seed"`` when ``k`` is 0, else ``"seed+k"``):

* the start is the position after the first ``k`` moves of a fixed playout from
  ``G.deal(seed)``: move ``i`` (from 0) is ``G.legal_moves(p)[i % n]`` of the position
  ``p`` before it, ``n`` moves long (the load benchmarks' players' choice), played by
  ``G.apply``; where the game ends first, its last position;
* the tree of depth ``d`` is every sequence of ``d`` moves from the start in
  which each move is one of ``G.legal_moves`` of the position before it and is played
  by ``G.apply`` (so every forced step that ``apply`` plays after a move is inside that
  move). A game that ends (won or lost: no legal move) before ``d`` moves contributes
  no sequence of length ``d``, as a mate does in chess perft. Moves are taken as
  ``legal_moves`` lists them: two moves that lead to the same position (the copies of
  a card of a two-deck game, say) are two sequences;
* ``sequences(d)``: the number of those sequences (the tree's leaves at depth ``d``:
  python-chess's ``perft(d)``);
* ``positions(d)``: the number of distinct :meth:`Game.position_key` among the
  positions those sequences end in (transpositions, and piles of one kind renamed,
  count once).

The file holds, for each game of the registry and each of :data:`STARTS`, the figures
at depths 1, 2, … up to the deepest whose tree (every depth's sequences together)
stays within :data:`NODES` positions played, or :data:`MAX_DEPTH`: a few thousand
positions a start, so the test of all sixteen games takes a few seconds. The deals
test the opening moves; the starts some moves in, the rules of the game under way
(an empty column, a card packed, a redeal near).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import NamedTuple

from server.patience import registry
from server.patience.engine import AnyGame, AnyState

ROOT = Path(__file__).resolve().parents[1]
#: the perft figures of every game, as ``--write`` measures them
DATA = ROOT / "tests" / "server" / "patience" / "perft.json"

#: the starts measured in every game: (seed, plies of the fixed playout)
STARTS = ((0, 0), (0, 30), (1, 0), (1, 30))
#: the most positions (moves played) a start's tree may hold, all depths together
NODES = 2_000
#: the deepest tree measured, however narrow (a game with one legal move a position)
MAX_DEPTH = 100


class Depth(NamedTuple):
    """The figures of one depth of one start's tree (the module's docstring)."""

    depth: int
    sequences: int
    positions: int


#: a game's figures: its starts' names (``"seed"``, ``"seed+k"``) → depths 1, 2, …
Figures = dict[str, list[Depth]]


def name(seed: int, plies: int) -> str:
    """A start's name in the file: ``"0"`` for deal 0, ``"0+30"`` 30 moves in."""
    return f"{seed}+{plies}" if plies else str(seed)


def parse(start: str) -> tuple[int, int]:
    """The (seed, plies) a start's :func:`name` stands for."""
    seed, _, plies = start.partition("+")
    return int(seed), int(plies or 0)


def start(game: AnyGame, seed: int, plies: int) -> AnyState:
    """The position ``plies`` moves into the fixed playout of deal ``seed`` (move ``i``
    the ``i % n``-th of ``n`` legal ones), or its last if the game ends first."""
    state = game.deal(seed)
    for i in range(plies):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, legal[i % len(legal)])
    return state


def perft(
    game: AnyGame, state: AnyState, depth: int | None = None, *, nodes: int = NODES
) -> list[Depth]:
    """The figures of ``game``'s tree from ``state`` at depths 1 to ``depth``; without
    ``depth``, to the deepest within ``nodes`` positions and :data:`MAX_DEPTH` (each
    depth's sequences counted from its positions' legal moves before any is played).
    Breadth first, each position's moves played right after they are listed (``apply``
    finds them in the engine's legal-move cache)."""
    layer = [state]
    found: list[Depth] = []
    played = 0
    while layer and (depth is None or len(found) < depth):
        if depth is None:
            count = sum(len(game.legal_moves(state)) for state in layer)
            if len(found) == MAX_DEPTH or played + count > nodes:
                break
            played += count
        layer = [game.apply(state, move) for state in layer for move in game.legal_moves(state)]
        keys: set[Hashable] = {game.position_key(state) for state in layer}
        found.append(Depth(len(found) + 1, len(layer), len(keys)))
    return found


def measure(game: AnyGame) -> Figures:
    """``game``'s figures from each of :data:`STARTS`, as deep as the budget allows."""
    return {name(seed, k): perft(game, start(game, seed, k)) for seed, k in STARTS}


def check(game: AnyGame, kept: Figures) -> Figures:
    """``game``'s figures now, from the starts and to the depths of ``kept``."""
    out: Figures = {}
    for key, rows in kept.items():
        out[key] = perft(game, start(game, *parse(key)), len(rows))
    return out


def load(path: Path = DATA) -> dict[str, Figures]:
    """The figures kept in ``path``: slug → start → depths."""
    raw: dict[str, dict[str, list[list[int]]]] = json.loads(path.read_text(encoding="utf-8"))
    return {
        slug: {key: [Depth(*row) for row in rows] for key, rows in starts.items()}
        for slug, starts in raw.items()
    }


def dumps(figures: dict[str, Figures]) -> str:
    """The file's text: a line a start (``"0+30": [[depth, sequences, positions], …]``),
    so that a change of rules shows as the lines of a diff."""
    games = []
    for slug, starts in figures.items():
        lines = [
            f"    {json.dumps(k)}: {json.dumps([list(d) for d in rows])}"
            for k, rows in starts.items()
        ]
        games.append(f"  {json.dumps(slug)}: {{\n" + ",\n".join(lines) + "\n  }")
    return "{\n" + ",\n".join(games) + "\n}\n"


def report(slug: str, figures: Figures, kept: Figures | None) -> bool:
    """Print one game's figures (depth: sequences/positions), each start marked where
    it differs from ``kept``; whether all agree."""
    same = True
    for key, rows in figures.items():
        was = (kept or {}).get(key)
        same = same and was == rows
        mark = "" if was == rows else ("  (new)" if was is None else "  (differs from the file)")
        shown = ", ".join(f"{d.depth}: {d.sequences}/{d.positions}" for d in rows)
        print(f"{slug} {key}: {shown}{mark}")
    return same


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.perft",
        description="Each game's move sequences and distinct positions, some moves deep "
        "from a few deals and positions of a fixed playout (the definitions: this "
        "module's docstring), printed and compared with the file that "
        "tests/server/patience/test_perft.py checks the engine against; exits 1 when "
        "they differ.",
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help=f"rewrite {DATA.relative_to(ROOT)} with the figures measured now",
    )
    parser.add_argument(
        "--games",
        default="",
        help="comma-separated slugs (default: every game of the registry); with "
        "--write, only their figures change",
    )
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s] or registry.slugs()
    games = [registry.get(slug) for slug in slugs]  # an unknown slug fails before any work
    kept = load() if DATA.exists() else {}
    figures = {game.slug: measure(game) for game in games}
    same = all([report(slug, got, kept.get(slug)) for slug, got in figures.items()])
    if args.write:
        merged = kept | figures
        ordered = {slug: merged[slug] for slug in registry.slugs() if slug in merged}
        DATA.write_text(dumps(ordered), encoding="utf-8")
        print(f"wrote {DATA.relative_to(ROOT)}", file=sys.stderr)
        return 0
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
