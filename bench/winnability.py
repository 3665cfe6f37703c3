"""How often each patience can be won: the solver over many seeded deals.

For every game, deals with seeds S, S+1, …, S+N-1 are searched by ``server.solver``
within a budget per deal (seconds and/or nodes). A deal is **certified** when the
solver's winning line replays through the rules to ``won``, **proven unwinnable** when
every reachable position was searched without a win, **unknown** when the budget ran
out. The certified share is a lower bound on the share of winnable deals; with the
proven-unwinnable share it brackets the truth. The greedy column is ``bench.winrate``'s
player over the same deals, for comparison.

    python -m bench.winnability --deals 100 --seconds 5 --jobs 2
    python -m bench.winnability --games crescent,short --deals 20 --json

The daily target (the server's own scan of candidate deals, ``server.solver.daily``)
is measured by ``python -m bench.dailies``.

Progress goes to stderr; the table (or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.winrate import Greedy, wilson
from server.patience import registry
from server.solver import certify, solve


@dataclass(frozen=True)
class Deal:
    slug: str
    seed: int
    outcome: str
    par: int | None
    nodes: int
    seconds: float
    #: seconds to the first certified line (before the par pass)
    found_seconds: float | None
    greedy_won: bool
    #: CPU seconds of the search (its process's): nodes per CPU second do not fall
    #: with the machine's load as nodes per second do
    cpu_seconds: float


def run_deal(slug: str, seed: int, seconds: float, nodes: int | None) -> Deal:
    game = registry.get(slug)
    start = game.deal(seed)
    cpu = time.process_time()
    result = solve(game, start, max_seconds=seconds, max_nodes=nodes)
    cpu = time.process_time() - cpu
    if result.line is not None:
        assert certify(game, start, result.line), (slug, seed)
    greedy = Greedy(game).play(seed)
    return Deal(
        slug,
        seed,
        result.outcome,
        result.par,
        result.nodes,
        result.seconds,
        result.found_seconds,
        greedy.end == "won",
        cpu,
    )


@dataclass
class Row:
    slug: str
    deals: list[Deal] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(d.outcome == outcome for d in self.deals)

    def as_json(self) -> dict[str, object]:
        n = len(self.deals)
        wins = [d for d in self.deals if d.outcome == "win"]
        low, high = wilson(len(wins), n)
        greedy = sum(d.greedy_won for d in self.deals)
        secs = sorted(d.found_seconds for d in wins if d.found_seconds is not None)
        spent = sum(d.seconds for d in self.deals)
        cpu = sum(d.cpu_seconds for d in self.deals)
        pars = [d.par for d in wins if d.par is not None]
        return {
            "game": self.slug,
            "deals": n,
            "certified": len(wins),
            "unwinnable": self.count("none"),
            "unknown": self.count("unknown"),
            "certified_share": round(len(wins) / n, 4) if n else 0.0,
            "wilson95": [round(low, 4), round(high, 4)],
            "greedy_share": round(greedy / n, 4) if n else 0.0,
            "median_s": round(statistics.median(secs), 3) if secs else None,
            "p90_s": round(secs[max(0, math.ceil(0.9 * len(secs)) - 1)], 3) if secs else None,
            "nodes_per_s": round(sum(d.nodes for d in self.deals) / spent) if spent else 0,
            "nodes_per_cpu_s": round(sum(d.nodes for d in self.deals) / cpu) if cpu else 0,
            "median_par": statistics.median(pars) if pars else None,
        }


def table(rows: list[Row]) -> str:
    out = [
        "| game | deals | certified | 95 % Wilson | unwinnable | unknown | greedy wins "
        "| median s | p90 s | nodes/s | nodes/CPU s | median par |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        j = row.as_json()
        low, high = wilson(int(j["certified"]), int(j["deals"]))  # type: ignore[call-overload]
        out.append(
            f"| {row.slug} | {j['deals']} | {j['certified']} "
            f"({100 * float(j['certified_share']):.1f} %) "  # type: ignore[arg-type]
            f"| {100 * low:.1f}–{100 * high:.1f} % | {j['unwinnable']} | {j['unknown']} "
            f"| {100 * float(j['greedy_share']):.1f} % "  # type: ignore[arg-type]
            f"| {j['median_s'] if j['median_s'] is not None else '–'} "
            f"| {j['p90_s'] if j['p90_s'] is not None else '–'} | {j['nodes_per_s']} "
            f"| {j['nodes_per_cpu_s']} "
            f"| {j['median_par'] if j['median_par'] is not None else '–'} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.winnability",
        description="Certified, proven-unwinnable and unknown deals of every patience "
        "under a solver budget per deal.",
    )
    parser.add_argument("--deals", type=int, default=20, help="deals per game [20]")
    parser.add_argument("--seed", type=int, default=0, help="first seed [0]")
    parser.add_argument("--seconds", type=float, default=5.0, help="solver seconds per deal [5]")
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="solver nodes per deal (reproducible; with --seconds as a guard)",
    )
    parser.add_argument("--games", default="", help="comma-separated slugs [all]")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes [1]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s] or registry.slugs()
    unknown = set(slugs) - set(registry.slugs())
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))} (see pasyans games)")
    rows = {slug: Row(slug) for slug in slugs}
    work = [(slug, args.seed + i) for slug in slugs for i in range(args.deals)]
    began = time.monotonic()
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [
            pool.submit(run_deal, slug, seed, args.seconds, args.nodes) for slug, seed in work
        ]
        for done, future in enumerate(futures, 1):
            deal = future.result()
            rows[deal.slug].deals.append(deal)
            print(
                f"\r{done}/{len(work)} deals · {deal.slug} {deal.seed}: {deal.outcome} "
                f"· {time.monotonic() - began:.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    ordered = [rows[s] for s in slugs]
    if args.json:
        print(
            json.dumps(
                {
                    "deals": args.deals,
                    "seed": args.seed,
                    "seconds": args.seconds,
                    "nodes": args.nodes,
                    "games": [r.as_json() for r in ordered],
                },
                indent=1,
            )
        )
    else:
        print(table(ordered))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
