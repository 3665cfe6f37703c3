"""Rules-engine speed: legal-move generation + apply per second, per game.

Plays random legal games (fixed seeds) for a time budget per game and prints a
table; compares with the saved baseline ``bench/engine_baseline.json`` when present
and ``--save`` writes a new one. Target (DESIGN.md): ≥ 20,000 per second per game
on one core.

    python -m bench.engine [--seconds 1.0] [--games crescent,short] [--save]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from server.patience import registry

BASELINE = Path(__file__).with_name("engine_baseline.json")
TARGET = 20_000


def measure(slug: str, seconds: float) -> float:
    game = registry.get(slug)
    rnd = random.Random(slug)
    steps = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.deal(seed)
        seed += 1
        for _ in range(500):
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.apply(state, rnd.choice(legal))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per game")
    parser.add_argument("--games", help="comma-separated slugs (default: every game)")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    args = parser.parse_args()
    slugs = args.games.split(",") if args.games else registry.slugs()
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    results = {}
    print(f"{'game':<20} {'moves/s':>10} {'baseline':>10} {'ratio':>6}  target {TARGET:,}")
    for slug in slugs:
        rate = measure(slug, args.seconds)
        results[slug] = round(rate)
        base = baseline.get(slug)
        ratio = f"{rate / base:.2f}" if base else "-"
        flag = "" if rate >= TARGET else "  BELOW TARGET"
        print(f"{slug:<20} {rate:>10,.0f} {base or '-':>10} {ratio:>6}{flag}")
    if args.save:
        BASELINE.write_text(json.dumps(results, indent=2) + "\n")
        print(f"saved {BASELINE}")


if __name__ == "__main__":
    main()
