"""One account floods the solver: do the other players' moves slow down?

Starts a real ``pasyans-server serve`` with its solver processes (``--solver-workers``,
2 by default, as ``make run``), then runs phases of ``--seconds`` each, in this
order: **idle** (honest players only), **flood 4** and **flood 12** (the same honest
players while one attacking account sends ``hint`` and ``finish`` back to back from 4,
then 12 connections, each within the default rate limits, on games the solver cannot
finish quickly), and **idle** again. Honest players play paced moves (``--pause``
between two) on the terminal client's own connection and their move latencies are
recorded. Issue 35's target: each flood phase's honest p99 ≤ 2 × the idle phases'.

The attacker answers nothing to a refusal but its next request: what a flood gets
is counted (searches answered, refused ``unavailable``, refused ``rate_limited``).

    python -m bench.solver_flood [--seconds 8] [--players 4] [--json] [--save]

The table (or ``--json``) goes to stdout and is compared with the saved baseline
``bench/solver_flood_baseline.json`` (``--save`` writes it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from client.connection import Connection, ServerError
from deploy.procs import ServerProcess
from protocol import ErrorCode
from protocol.messages import Mode

from .load import Player

BASELINE = Path(__file__).with_name("solver_flood_baseline.json")
#: honest p99 under a flood at most this many times the idle phases' (issue 35)
TARGET = 2.0
#: the attacker's games: a deal whose search takes the whole budget
FLOOD_GAME, FLOOD_SEED = "crescent", 3


@dataclass
class Flood:
    """What the attacking connections got."""

    answered: int = 0
    unavailable: int = 0
    rate_limited: int = 0
    other: dict[str, int] = field(default_factory=dict)


async def attack(url: str, token: str, deadline: float, flood: Flood) -> None:
    """One attacking connection: a practice game, then ``hint`` and ``finish``
    alternately, each sent as soon as the last was answered, until ``deadline``."""
    async with Connection(url, unavailable_patience=0, reply_timeout=600) as conn:
        await conn.auth(token)
        state = await conn.start(FLOOD_GAME, Mode.DEAL, seed=FLOOD_SEED)
        asks = 0
        while (left := deadline - time.monotonic()) > 0:
            asks += 1
            ask = conn.hint(str(state["game_id"])) if asks % 2 else conn.finish_check(state)
            try:
                await asyncio.wait_for(ask, left)
                flood.answered += 1
            except TimeoutError:  # the phase is over; the search still runs
                return
            except ServerError as exc:
                if exc.code == ErrorCode.UNAVAILABLE:
                    flood.unavailable += 1
                elif exc.code == ErrorCode.RATE_LIMITED:
                    flood.rate_limited += 1
                    await asyncio.sleep(float(exc.extra.get("retry_after") or 0.05))
                else:
                    flood.other[exc.code] = flood.other.get(exc.code, 0) + 1


async def flood_process(url: str, token: str, seconds: float, connections: int) -> Flood:
    """The attack in a process of its own (``--attack``), so that its frames slow the
    server only, not the honest players' client: what it got."""
    if not connections:
        await asyncio.sleep(seconds)
        return Flood()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.solver_flood",
        "--attack",
        url,
        token,
        str(seconds),
        str(connections),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return Flood(**json.loads(out))


async def attack_all(url: str, token: str, seconds: float, connections: int) -> Flood:
    deadline = time.monotonic() + seconds
    flood = Flood()
    await asyncio.gather(*(attack(url, token, deadline, flood) for _ in range(connections)))
    return flood


async def phase(
    url: str, players: int, pause: float, seconds: float, connections: int, token: str
) -> dict[str, Any]:
    honest = [Player(url, f"h{uuid.uuid4().hex[:8]}", seed=7000 + i) for i in range(players)]
    for p in honest:  # signed in before the phase begins: only moves are timed
        await p.connect()
    # the attackers connect and start their games in the first second
    attacking = asyncio.create_task(flood_process(url, token, seconds + 1, connections))
    await asyncio.sleep(1)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(p.play(1 << 30, deadline=deadline, pause=pause) for p in honest))
    flood = await attacking
    latencies = sorted(x for p in honest for x in p.latencies)
    errors = [p.error for p in honest if p.error]
    return {
        "connections": connections,
        "moves": len(latencies),
        "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2)
        if latencies
        else None,
        "flood": {
            "answered": flood.answered,
            "unavailable": flood.unavailable,
            "rate_limited": flood.rate_limited,
            **flood.other,
        },
        "errors": errors,
    }


async def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    async with Connection(url) as conn:
        token = str((await conn.register(f"flood{uuid.uuid4().hex[:8]}"))["token"])
    rows = []
    for name, connections in (("idle", 0), ("flood 4", 4), ("flood 12", 12), ("idle", 0)):
        load = os.getloadavg()[0]
        row = await phase(url, args.players, args.pause, args.seconds, connections, token)
        row |= {"phase": name, "load": round(load, 2)}
        rows.append(row)
        print(f"{name}: {row}", flush=True, file=sys.stderr)
    idle = [r["p99_ms"] for r in rows if r["connections"] == 0 and r["p99_ms"]]
    idle_p99 = statistics.mean(idle) if idle else None
    for r in rows:
        r["p99_vs_idle"] = (
            round(r["p99_ms"] / idle_p99, 2) if idle_p99 and r["p99_ms"] is not None else None
        )
    return {"rows": rows, "idle_p99_ms": idle_p99, "target": TARGET}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.solver_flood", description=__doc__)
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds a phase [8]")
    parser.add_argument("--players", type=int, default=4, help="honest players [4]")
    parser.add_argument(
        "--pause", type=float, default=0.05, help="an honest player's pause between moves [0.05]"
    )
    parser.add_argument("--workers", type=int, default=2, help="--solver-workers [2]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    parser.add_argument(
        "--attack",
        nargs=4,
        metavar=("URL", "TOKEN", "SECONDS", "CONNECTIONS"),
        help="(internal) run one flood and print what it got as JSON",
    )
    args = parser.parse_args(argv)
    if args.attack:
        url, token, seconds, connections = args.attack
        got = asyncio.run(attack_all(url, token, float(seconds), int(connections)))
        print(json.dumps(got.__dict__))
        return 0
    # The server's own defaults for the solver and the rate limits (the test servers'
    # tiny budgets and threads are for the tests); no dailies in the background.
    env = {
        "PASYANS_SOLVER_WORKERS": str(args.workers),
        "PASYANS_CANDIDATE_NODES": "30000",
        "PASYANS_DAILY_NODES": "2500000",
    }
    server = ServerProcess("--no-prepare-dailies", "--log-level", "warning", env=env)
    with server:
        result = asyncio.run(run(args, server.url))
    result["machine_load_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.save:
        BASELINE.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    before = {r["phase"] + str(i): r for i, r in enumerate(baseline.get("rows", []))}
    print(
        "| phase | honest moves | p50 ms | p99 ms | p99 ÷ idle | baseline p99 ÷ idle "
        "| flood: answered / unavailable / rate_limited | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for i, r in enumerate(result["rows"]):
        base = before.get(r["phase"] + str(i), {}).get("p99_vs_idle", "–")
        f = r["flood"]
        print(
            f"| {r['phase']} | {r['moves']} | {r['p50_ms']} | {r['p99_ms']} | "
            f"{r['p99_vs_idle']} | {base} | {f['answered']} / {f['unavailable']} / "
            f"{f['rate_limited']} | {r['load']} |"
        )
    worst = max((r["p99_vs_idle"] or 0) for r in result["rows"] if r["connections"])
    print(f"\nworst flood p99 ÷ idle p99: {worst} (target ≤ {TARGET})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
