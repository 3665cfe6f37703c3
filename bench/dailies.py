"""Days' dailies as the server chooses them, with CPU seconds per game and day.

For each of ``--dates`` days from ``--date``, every game's daily is chosen exactly as
the server does (``server.solver.daily.choose``, the one scan: candidates k = 0, 1, … under the
server's one budget, each game's own cap per candidate), in ``--jobs`` processes (one
game-date at a time each). The budget is in solver nodes, so the choice is the same on
any machine; the CPU seconds depend on the machine and its load. Issue 24's target:
every game-date certified (480 of 480 for 30 dates); the summary gives the CPU seconds
per day (median, max) and per game (max), and the nodes each choice spent (a daily
certified within fewer nodes than a budget is the same choice under that budget).

    python -m bench.dailies                      # the server's budget, 2026-12-01
    python -m bench.dailies --dates 30 --jobs 2 --json
    python -m bench.dailies --games crescent,hemispheres --candidate-nodes 3000

Progress goes to stderr; the table (or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from server.patience import registry
from server.settings import Settings
from server.solver.daily import Budget, choose

#: the secret of the candidate seeds (any fixed bytes: a server has its own)
SECRET = b"bench.dailies"
#: a new day's dailies, on one worker, within this many seconds (issue 13)
TARGET_SECONDS = 600.0

Row = dict[str, object]


def choose_one(date: str, slug: str, budget: Budget) -> Row:
    began = time.process_time()
    choice = choose(slug, SECRET, date, budget)
    seconds = time.process_time() - began
    return {
        "date": date,
        "game": slug,
        "certified": choice.certified,
        "k": choice.k,
        "tried": choice.tried,
        "nodes": choice.nodes,
        "par": choice.par,
        "best_founded": choice.best_founded,
        "cpu_s": round(seconds, 2),
    }


def choose_all(dates: list[str], slugs: list[str], budget: Budget, jobs: int) -> list[Row]:
    """Every game-date, in ``jobs`` processes (1: this one); progress on stderr."""
    todo = [(d, s) for d in dates for s in slugs]
    rows: list[Row] = []

    def done(row: Row) -> None:
        rows.append(row)
        verdict = f"par {row['par']}" if row["certified"] else f"best {row['best_founded']}"
        print(
            f"[{len(rows)}/{len(todo)}] {row['date']} {row['game']}: k={row['k']} of "
            f"{row['tried']} tried, {row['nodes']} nodes, {verdict}, {row['cpu_s']} s",
            file=sys.stderr,
            flush=True,
        )

    if jobs <= 1:
        for date, slug in todo:
            done(choose_one(date, slug, budget))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(choose_one, d, s, budget) for d, s in todo]
            for future in as_completed(futures):
                done(future.result())
    order = {key: i for i, key in enumerate(todo)}
    return sorted(rows, key=lambda r: order[(str(r["date"]), str(r["game"]))])


def _num(row: Row, key: str) -> float:
    value = row[key]
    assert isinstance(value, int | float)
    return float(value)


def table(rows: list[Row]) -> str:
    out = [
        "| date | game | certified | k | candidates tried | nodes | par | best founded | CPU s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['date']} | {r['game']} | {'yes' if r['certified'] else 'no'} | {r['k']} "
            f"| {r['tried']} | {r['nodes']} | {r['par'] if r['par'] is not None else '–'} "
            f"| {r['best_founded']} | {r['cpu_s']} |"
        )
    return "\n".join(out)


def summary(rows: list[Row], slugs: list[str]) -> dict[str, object]:
    """Certified of all; CPU s per day (median, max); per game: certified, CPU s
    (median, max), nodes (max), candidates tried (max)."""
    dates = sorted({str(r["date"]) for r in rows})
    per_day = [sum(_num(r, "cpu_s") for r in rows if r["date"] == d) for d in dates]
    games = {}
    for slug in slugs:
        mine = [r for r in rows if r["game"] == slug]
        games[slug] = {
            "certified": sum(bool(r["certified"]) for r in mine),
            "dates": len(mine),
            "cpu_s_median": round(statistics.median(_num(r, "cpu_s") for r in mine), 2),
            "cpu_s_max": max(_num(r, "cpu_s") for r in mine),
            "nodes_max": int(max(_num(r, "nodes") for r in mine)),
            "tried_max": int(max(_num(r, "tried") for r in mine)),
        }
    return {
        "certified": sum(bool(r["certified"]) for r in rows),
        "of": len(rows),
        "day_cpu_s_median": round(statistics.median(per_day), 1),
        "day_cpu_s_max": round(max(per_day), 1),
        "games": games,
    }


def summary_table(total: dict[str, object]) -> str:
    out = [
        "| game | certified | CPU s median | CPU s max | nodes max | candidates max |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    games = total["games"]
    assert isinstance(games, dict)
    for slug, g in games.items():
        out.append(
            f"| {slug} | {g['certified']} of {g['dates']} | {g['cpu_s_median']} "
            f"| {g['cpu_s_max']} | {g['nodes_max']:,} | {g['tried_max']} |"
        )
    out.append(
        f"\n{total['certified']} of {total['of']} certified; CPU s per day: median "
        f"{total['day_cpu_s_median']}, max {total['day_cpu_s_max']}"
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m bench.dailies",
        description="Choose days' dailies as the server does, CPU seconds per game and day.",
    )
    parser.add_argument("--date", default="2026-12-01", help="first date [2026-12-01]")
    parser.add_argument("--dates", type=int, default=1, help="days to choose [1]")
    parser.add_argument("--games", help="comma-separated slugs [all]")
    parser.add_argument(
        "--candidate-nodes",
        type=int,
        default=defaults.candidate_nodes,
        help=f"nodes per candidate [{defaults.candidate_nodes}, the server's]",
    )
    parser.add_argument(
        "--daily-nodes",
        type=int,
        default=defaults.daily_nodes,
        help=f"nodes per game in all [{defaults.daily_nodes}, the server's]",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes [1]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    slugs = args.games.split(",") if args.games else registry.slugs()
    for slug in slugs:
        if slug not in registry.slugs():
            parser.error(f"unknown game {slug!r}; the games: {', '.join(registry.slugs())}")
    if args.dates < 1:
        parser.error("--dates must be at least 1")
    try:
        first = dt.date.fromisoformat(args.date)
    except ValueError:
        parser.error(f"--date {args.date!r} is not YYYY-MM-DD")
    budget = Budget(args.candidate_nodes, args.daily_nodes)
    dates = [(first + dt.timedelta(days=n)).isoformat() for n in range(args.dates)]
    began = time.monotonic()
    rows = choose_all(dates, slugs, budget, args.jobs)
    wall = time.monotonic() - began
    total = summary(rows, slugs)
    days: list[Row] = []
    for date in dates:
        day = [r for r in rows if r["date"] == date]
        cpu = sum(_num(r, "cpu_s") for r in day)
        days.append(
            {
                "date": date,
                "certified": sum(bool(r["certified"]) for r in day),
                "games": len(day),
                "cpu_s": round(cpu, 1),
                "within_target": cpu <= TARGET_SECONDS,
            }
        )
    load = os.getloadavg()
    if args.json:
        budget_json = {"candidate_nodes": budget.candidate_nodes, "total_nodes": budget.total_nodes}
        out = {
            "budget": budget_json,
            "jobs": args.jobs,
            "wall_s": round(wall, 1),
            "load": [round(x, 2) for x in load],
            "summary": total,
            "days": days,
            "rows": rows,
        }
        print(json.dumps(out, indent=1))
    else:
        print(table(rows))
        for d in days:
            print(
                f"{d['date']}: {d['certified']} of {d['games']} certified, "
                f"{d['cpu_s']} CPU s on one worker (target ≤ {TARGET_SECONDS:.0f} s)"
            )
        print(summary_table(total))
        print(f"wall {wall:.0f} s with {args.jobs} job(s); load average {load[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
