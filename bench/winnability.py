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

With ``--scan SECONDS`` it measures the daily target instead: for every game and each
of ``--deals`` dates (a test secret), ``server.solver.certify_daily`` scans candidate
deals within SECONDS (``--seconds``, and ``--nodes`` if given, per candidate) for the
first certified one.

    python -m bench.winnability --scan 40 --seconds 10 --deals 1 --jobs 2

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
from server.solver import candidate_nodes, certify, certify_daily, daily_seeds, solve

#: the secret of the scan mode's candidate seeds (any fixed bytes)
SCAN_SECRET = b"bench.winnability"


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


def run_deal(slug: str, seed: int, seconds: float, nodes: int | None) -> Deal:
    game = registry.get(slug)
    start = game.deal(seed)
    result = solve(game, start, max_seconds=seconds, max_nodes=nodes)
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
    )


@dataclass(frozen=True)
class Scan:
    slug: str
    date: str
    certified: bool
    k: int
    tried: int
    par: int | None
    best_founded: int
    seconds: float


def run_scan(
    slug: str, date: str, budget: float, per_candidate: float, nodes: int | None = None
) -> Scan:
    game = registry.get(slug)
    nodes = candidate_nodes(game, nodes)  # the game's own, when smaller (as the server does)
    daily = certify_daily(
        game,
        daily_seeds(SCAN_SECRET, date, slug),
        budget_seconds=budget,
        per_candidate_seconds=per_candidate,
        candidate_nodes=nodes,
    )
    return Scan(
        slug,
        date,
        daily.certified,
        daily.k,
        daily.tried,
        daily.par,
        daily.best_founded,
        round(daily.seconds, 2),
    )


def scan_table(scans: list[Scan]) -> str:
    out = [
        "| game | date | certified | k | tried | par | best founded | seconds |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for s in scans:
        out.append(
            f"| {s.slug} | {s.date} | {'yes' if s.certified else 'no'} | {s.k} "
            f"| {s.tried} | {s.par if s.par is not None else '–'} | {s.best_founded} "
            f"| {s.seconds} |"
        )
    return "\n".join(out)


def scan(
    slugs: list[str],
    dates: list[str],
    budget: float,
    per_candidate: float,
    jobs: int,
    as_json: bool,
    nodes: int | None = None,
) -> None:
    work = [(slug, date) for slug in slugs for date in dates]
    scans: list[Scan] = []
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        futures = [
            pool.submit(run_scan, slug, date, budget, per_candidate, nodes) for slug, date in work
        ]
        for done, future in enumerate(futures, 1):
            s = future.result()
            scans.append(s)
            print(
                f"\r{done}/{len(work)} scans · {s.slug} {s.date}: "
                f"{'certified k=' + str(s.k) if s.certified else 'not certified'} "
                f"in {s.seconds} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    if as_json:
        print(
            json.dumps(
                {
                    "scan_seconds": budget,
                    "candidate_seconds": per_candidate,
                    "scans": [vars(s) for s in scans],
                },
                indent=1,
            )
        )
    else:
        print(scan_table(scans))


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
            "median_par": statistics.median(pars) if pars else None,
        }


def table(rows: list[Row]) -> str:
    out = [
        "| game | deals | certified | 95 % Wilson | unwinnable | unknown | greedy wins "
        "| median s | p90 s | nodes/s | median par |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
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
        help="solver nodes per deal (reproducible; with --seconds as a guard); in a scan, "
        "per candidate, or the game's own cap when smaller, as the server does",
    )
    parser.add_argument("--games", default="", help="comma-separated slugs [all]")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes [1]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument(
        "--scan",
        type=float,
        default=None,
        metavar="SECONDS",
        help="scan daily candidates for SECONDS per game and date "
        "(--deals dates from 2026-12-01, --seconds per candidate)",
    )
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s] or registry.slugs()
    unknown = set(slugs) - set(registry.slugs())
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))} (see pasyans games)")
    if args.scan is not None:
        dates = [f"2026-12-{d:02d}" for d in range(1, args.deals + 1)]
        scan(slugs, dates, args.scan, args.seconds, args.jobs, args.json, args.nodes)
        return 0
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
