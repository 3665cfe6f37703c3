"""What a run measured (:class:`Results`) and how it is told: a line on stderr as each
row ends, then the tables (or ``--json``'s rows, :func:`targets`), the comparison with
the saved baseline (``bench/load_server_baseline.json``) and the idle connections."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from .game import GAME, Engines
from .procs import ROOT
from .rounds import Row

BASELINE = ROOT / "bench" / "load_server_baseline.json"

#: issue 15's targets: server CPU per move ≤ CPU_TARGET × (floor's + engine's), and
#: p99 ≤ P99_TARGET × the floor's
CPU_TARGET, P99_TARGET = 1.2, 1.5


@dataclass
class Results:
    """Every row of a run, as the rows end."""

    #: players, pasyans's, the echo's and the floor's rows (single Redis)
    rows: list[tuple[int, Row, Row, Row]] = field(default_factory=list)
    #: players → the floor-plus-engine server's row
    floor_engines: dict[int, Row] = field(default_factory=dict)
    #: players, pasyans's row on the Redis Cluster
    cluster: list[tuple[int, Row]] = field(default_factory=list)
    #: players, pasyans's, the floor's and the floor-plus-engine's rows, paced
    paced: list[tuple[int, Row, Row, Row]] = field(default_factory=list)
    #: players, the row of the server preparing dailies, its progress before and after
    preparing: list[tuple[int, Row, dict[str, float], dict[str, float]]] = field(
        default_factory=list
    )
    #: idle connections held by one server process and KiB each
    idle: tuple[int, float] | None = None


# -- as each row ends (stderr) ----------------------------------------------------------


def say_engines(eng: Engines) -> None:
    print(
        f"  {GAME}: the engine's own work {eng.single.mean:.1f} µs per move over whole "
        "games, one at a time; "
        + ", ".join(f"{n:,} at once {c.mean:.1f}" for n, c in eng.by_games.items()),
        file=sys.stderr,
    )


def say_row(n: int, s: Row, e: Row, f: Row, fe: Row) -> None:
    print(
        f"  {n} players: pasyans {s[0]:,.0f}/s p50 {s[1]:.2f} p99 {s[2]:.2f} ms; "
        f"echo {e[0]:,.0f}/s p50 {e[1]:.2f} p99 {e[2]:.2f} ms; "
        f"floor {f[0]:,.0f}/s p50 {f[1]:.2f} p99 {f[2]:.2f} ms; CPU µs per message: "
        f"server {s[3]:.0f} (client {s[4]:.0f}), echo {e[3]:.0f} (client {e[4]:.0f}), "
        f"floor {f[3]:.0f} (client {f[4]:.0f}); floor + engine {fe[0]:,.0f}/s "
        f"p99 {fe[2]:.2f} ms, {fe[3]:.0f} µs a move",
        file=sys.stderr,
    )


def say_paced(n: int, pace: float, s: Row, f: Row, fe: Row) -> None:
    print(
        f"  {n} players, a move every {pace:g} s each: pasyans {s[0]:,.0f}/s "
        f"p50 {s[1]:.2f} p99 {s[2]:.2f} ms; floor p50 {f[1]:.2f} p99 {f[2]:.2f} ms; "
        f"floor + engine p50 {fe[1]:.2f} p99 {fe[2]:.2f} ms",
        file=sys.stderr,
    )


def say_cluster(n: int, row: Row) -> None:
    print(
        f"  {n} players, Redis Cluster: pasyans {row[0]:,.0f}/s p50 {row[1]:.2f} "
        f"p99 {row[2]:.2f} ms; CPU µs per move {row[3]:.0f}",
        file=sys.stderr,
    )


def say_preparing(n: int, row: Row, before: dict[str, float], after: dict[str, float]) -> None:
    print(
        f"  {n} players, preparing dailies: pasyans {row[0]:,.0f}/s p50 {row[1]:.2f} "
        f"p99 {row[2]:.2f} ms; CPU µs per move {row[3]:.0f}; dailies chosen "
        f"{before['chosen']:.0f} -> {after['chosen']:.0f}, being chosen "
        f"{before['preparing']:.0f} -> {after['preparing']:.0f}, candidates of the "
        f"scans under way {before['tried']:.0f} -> {after['tried']:.0f}, solver CPU "
        f"{after['solver_cpu_s'] - before['solver_cpu_s']:.1f} s in the row",
        file=sys.stderr,
    )


# -- the end of the run -----------------------------------------------------------------


def report(args: argparse.Namespace, results: Results, eng: Engines) -> None:
    """The tables (or ``--json``), the baseline saved with ``--save``, the idle row."""
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    rows = targets(results, args.pace)
    if args.json:
        print(json.dumps({"game": GAME, "rounds": args.rounds, "rows": rows}, indent=1))
    else:
        print_tables(results.rows, rows, baseline, eng)
    saved = baseline_figures(results.rows)
    if args.save:
        BASELINE.write_text(json.dumps(saved, indent=2) + "\n")
        print(f"\nsaved as the baseline: {BASELINE.relative_to(ROOT)}", file=sys.stderr)
    if results.idle:
        count, kib = results.idle
        print(
            f"\nidle connections held by one server process: {count:,}, "
            f"{kib:.1f} KiB each (target 10,000 at ≤ 20 KiB)",
            file=sys.stderr if args.json else sys.stdout,
        )


def targets(results: Results, pace: float) -> list[dict[str, Any]]:
    """``--json``'s rows: the single Redis's, the cluster's and the preparing server's
    at counts the single Redis has too (their ratios are to it), the paced ones."""
    rows = results.rows
    out = [target_row(n, s, f, results.floor_engines.get(n)) for n, s, e, f in rows]
    for n, s in results.cluster:
        same = next(((r, f) for m, r, _, f in rows if m == n), None)  # one Redis, same n
        if same is not None:
            one, base = same
            ratio = round(s[3] / one[3], 3) if one[3] else None
            out.append({**target_row(n, s, base), "store": "cluster", "vs_redis": ratio})
    for n, s, f, fe in results.paced:
        out.append({**target_row(n, s, f, fe), "paced_s": pace})
    for n, s, before, after in results.preparing:
        dailies = {"dailies_before": before, "dailies_after": after}
        same = next(((r, f) for m, r, _, f in rows if m == n), None)
        if same is not None:
            one, base = same
            p99 = round(s[2] / one[2], 3) if one[2] else None
            out.append({**target_row(n, s, base), "preparing": True, "p99_vs_idle": p99, **dailies})
    return out


def target_row(n: int, s: Row, f: Row, fe: Row | None = None) -> dict[str, Any]:
    """One row of ``--json``: pasyans against the floor plus the engine (at the moves
    this row's players made), and against the floor-plus-engine server ``fe``
    (:func:`~.servers.floor_engine_server`) when measured."""
    eng = s[6]
    measured: dict[str, Any] = {}
    if fe is not None:
        measured = {
            "floor_engine_moves_s": round(fe[0]),
            "floor_engine_cpu_us": round(fe[3], 1),
            "floor_engine_p99_ms": round(fe[2], 2),
            "cpu_vs_floor_engine": round(s[3] / fe[3], 3) if fe[3] else None,
            "floor_engine_p99_ratio": round(fe[2] / f[2], 3) if f[2] else None,
        }
    return {
        "players": n,
        "pasyans_moves_s": round(s[0]),
        "floor_moves_s": round(f[0]),
        "pasyans_cpu_us": round(s[3], 1),
        "floor_cpu_us": round(f[3], 1),
        "engine_us": round(eng, 1),
        "engine_one_game_us": round(s[7], 1),
        "pasyans_p99_ms": round(s[2], 2),
        "floor_p99_ms": round(f[2], 2),
        "cpu_ratio": round(s[3] / (f[3] + eng), 3) if f[3] + eng else None,
        "p99_ratio": round(s[2] / f[2], 3) if f[2] else None,
        "pasyans_reply_bytes": s[5],
        "floor_reply_bytes": f[5],
        **measured,
    }


def baseline_figures(rows: list[tuple[int, Row, Row, Row]]) -> dict[str, dict[str, float]]:
    """The single-Redis rows as ``--save`` keeps them, by players."""
    saved: dict[str, dict[str, float]] = {}
    for n, s, e, f in rows:
        saved[str(n)] = {
            "moves_per_s": round(s[0]),
            "p50_ms": round(s[1], 2),
            "p99_ms": round(s[2], 2),
            "echo_per_s": round(e[0]),
            "echo_p50_ms": round(e[1], 2),
            "echo_p99_ms": round(e[2], 2),
            "ratio": round(s[0] / e[0] if e[0] else 0, 3),
            "p99_ratio": round(s[2] / e[2] if e[2] else 0, 3),
            "server_us": round(s[3], 1),
            "client_us": round(s[4], 1),
            "echo_us": round(e[3], 1),
            "echo_client_us": round(e[4], 1),
            "floor_per_s": round(f[0]),
            "floor_p99_ms": round(f[2], 2),
            "floor_ratio": round(f[0] / e[0] if e[0] else 0, 3),
            "floor_p99_ratio": round(f[2] / e[2] if e[2] else 0, 3),
            "floor_us": round(f[3], 1),
            "engine_us": round(s[6], 1),
        }
    return saved


def print_tables(
    rows: list[tuple[int, Row, Row, Row]],
    targets: list[dict[str, Any]],
    baseline: dict[str, Any],
    eng: Engines,
) -> None:
    print()
    print(
        f"{GAME}: the engine's own work {eng.single.mean:.1f} µs per move over whole games "
        "one at a time (each row: at the moves its players made, as many games at once as "
        "it has players)"
    )
    print()
    print_targets(targets)
    print()
    print_echo(rows, baseline)


def print_targets(targets: list[dict[str, Any]]) -> None:
    """The table of ``--json``'s rows: pasyans against the floor and the engine."""
    print(
        f"| players | store | pasyans moves/s | floor moves/s | pasyans CPU µs/move "
        f"| floor CPU µs/move | engine µs/move | CPU ratio (≤ {CPU_TARGET}) "
        f"| pasyans p99 ms | floor p99 ms | p99 ratio (≤ {P99_TARGET}) "
        f"| reply B pasyans / floor | floor + engine in one process: µs/move, p99 ms "
        f"| pasyans CPU ÷ it | its p99 ÷ floor's |"
    )
    print("|---:|---|" + "---:|" * 13)
    for t in targets:
        kind = ", preparing dailies" if t.get("preparing") else ""
        if "paced_s" in t:
            kind = f", a move every {t['paced_s']:g} s"
        print(
            f"| {t['players']:,} | {t.get('store', 'redis')}{kind} | {t['pasyans_moves_s']:,} "
            f"| {t['floor_moves_s']:,} | {t['pasyans_cpu_us']:.0f} | {t['floor_cpu_us']:.0f} "
            f"| {t['engine_us']:.0f} | {t['cpu_ratio']} | {t['pasyans_p99_ms']:.2f} "
            f"| {t['floor_p99_ms']:.2f} | {t['p99_ratio']} "
            f"| {t['pasyans_reply_bytes']:.0f} / {t['floor_reply_bytes']:.0f} "
            + (
                f"| {t['floor_engine_cpu_us']:.0f}, {t['floor_engine_p99_ms']:.2f} "
                f"| {t['cpu_vs_floor_engine']} | {t['floor_engine_p99_ratio']} |"
                if "floor_engine_cpu_us" in t
                else "| – | – | – |"
            )
        )


def print_echo(rows: list[tuple[int, Row, Row, Row]], baseline: dict[str, Any]) -> None:
    """The older table: pasyans against the echo, and against the saved baseline."""
    print(
        "| players | pasyans moves/s | p50 ms | p99 ms | echo msgs/s | p50 ms | p99 ms "
        "| throughput ratio (≥ 0.5) | p99 ratio (≤ 2) | baseline ratio | baseline p99 ratio "
        "| server CPU µs/move | echo CPU µs/msg | baseline server µs/move |"
    )
    print("|---:" * 14 + "|")
    for n, s, e, _ in rows:
        ratio = s[0] / e[0] if e[0] else 0
        p99r = s[2] / e[2] if e[2] else 0
        base = baseline.get(str(n))
        was = f"{base['ratio']:.2f} | {base['p99_ratio']:.2f}" if base else "– | –"
        was_cpu = f"{base['server_us']:.0f}" if base and "server_us" in base else "–"
        print(
            f"| {n:,} | {s[0]:,.0f} | {s[1]:.2f} | {s[2]:.2f} | {e[0]:,.0f} | {e[1]:.2f} "
            f"| {e[2]:.2f} | {ratio:.2f} | {p99r:.2f} | {was} "
            f"| {s[3]:.0f} | {e[3]:.0f} | {was_cpu} |"
        )
