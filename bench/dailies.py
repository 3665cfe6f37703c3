"""A day's dailies as the server chooses them a day ahead, on one worker.

For each of ``--dates`` days from ``--date``, every game's daily is chosen exactly as
the server does (``server.services.daily.choose``: candidates k = 0, 1, … under the
node budget of the day-ahead pass, each game's own cap per candidate), one game after
another in this one process: the issue-13 target is a new day's sixteen certified
within 10 minutes of one worker. The budget is in solver nodes, so the choice is the
same on any machine; the seconds depend on the machine and its load.

    python -m bench.dailies                      # tomorrow's budget, 2026-12-01
    python -m bench.dailies --dates 3 --json
    python -m bench.dailies --games crescent,hemispheres --candidate-nodes 3000

Progress goes to stderr; the table (or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time

from server.patience import registry
from server.services.daily import Budget, choose
from server.settings import Settings

#: the secret of the candidate seeds (any fixed bytes: a server has its own)
SECRET = b"bench.dailies"
#: a new day's dailies, on one worker, within this many seconds (issue 13)
TARGET_SECONDS = 600.0


def choose_day(date: str, slugs: list[str], budget: Budget) -> list[dict[str, object]]:
    rows = []
    for slug in slugs:
        began = time.process_time()
        choice = choose(slug, SECRET, date, budget)
        seconds = time.process_time() - began
        rows.append(
            {
                "date": date,
                "game": slug,
                "certified": choice.certified,
                "k": choice.k,
                "tried": choice.tried,
                "par": choice.par,
                "best_founded": choice.best_founded,
                "cpu_s": round(seconds, 2),
            }
        )
        verdict = f"par {choice.par}" if choice.certified else f"best {choice.best_founded}"
        print(
            f"{date} {slug}: k={choice.k} of {choice.tried} tried, {verdict}, {seconds:.1f} s",
            file=sys.stderr,
        )
    return rows


def table(rows: list[dict[str, object]]) -> str:
    out = [
        "| date | game | certified | k | candidates tried | par | best founded | CPU s |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['date']} | {r['game']} | {'yes' if r['certified'] else 'no'} | {r['k']} "
            f"| {r['tried']} | {r['par'] if r['par'] is not None else '–'} "
            f"| {r['best_founded']} | {r['cpu_s']} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m bench.dailies",
        description="Choose a day's dailies as the server does a day ahead, on one worker.",
    )
    parser.add_argument("--date", default="2026-12-01", help="first date [2026-12-01]")
    parser.add_argument("--dates", type=int, default=1, help="days to choose [1]")
    parser.add_argument("--games", help="comma-separated slugs [all]")
    parser.add_argument(
        "--candidate-nodes",
        type=int,
        default=defaults.ahead_candidate_nodes,
        help=f"nodes per candidate [{defaults.ahead_candidate_nodes}, the server's day ahead]",
    )
    parser.add_argument(
        "--daily-nodes",
        type=int,
        default=defaults.ahead_daily_nodes,
        help=f"nodes per game in all [{defaults.ahead_daily_nodes}]",
    )
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
    rows: list[dict[str, object]] = []
    days: list[dict[str, object]] = []
    for n in range(args.dates):
        date = (first + dt.timedelta(days=n)).isoformat()
        day = choose_day(date, slugs, budget)
        rows += day
        cpu = sum(c for r in day if isinstance(c := r["cpu_s"], float))
        days.append(
            {
                "date": date,
                "certified": sum(bool(r["certified"]) for r in day),
                "games": len(day),
                "cpu_s": round(cpu, 1),
                "within_target": cpu <= TARGET_SECONDS,
            }
        )
    if args.json:
        budget_json = {"candidate_nodes": budget.candidate_nodes, "total_nodes": budget.total_nodes}
        print(json.dumps({"budget": budget_json, "days": days, "rows": rows}, indent=1))
    else:
        print(table(rows))
        for d in days:
            print(
                f"{d['date']}: {d['certified']} of {d['games']} certified, "
                f"{d['cpu_s']} CPU s on one worker (target ≤ {TARGET_SECONDS:.0f} s)"
            )
        print(f"load average: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
