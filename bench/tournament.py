"""A tournament of many entrants on one instance, against a race of the same size
(issue 51): does the tournament keep moves quick, and its events few?

Starts a real ``pasyans-server serve`` (an embedded Redis of its own, no dailies,
``--tournament-lead 0``, ``--race-members`` as many as the entrants) and runs two
phases of ``--seconds`` each, with ``--entrants`` players on one connection each, every
one moving at a person's pace (one move every ``--pause`` seconds, spread out):

- **tournament**: every player entered one tournament; each plays its deal's first
  legal move again and again, resigning a deal over and asking the next;
- **race**: the same players in one race (``race_create``, ``race_join``, ``race_start``),
  the same moves on the race's deal.

Each row: the moves answered, their p50/p99 (ms from sending to the reply), and the
events each player received a second (``tournament`` batched standings, at most
``--tournament-events`` a second; a race's ``race`` event goes to every member at every
member's move).

    python -m bench.tournament [--entrants 1000] [--seconds 10] [--pause 2] [--json] [--save]

The table (or ``--json``) goes to stdout, compared with ``bench/tournament_baseline.json``
(``--save`` writes it). Bounded: each phase stops after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from deploy.procs import ServerProcess
from protocol import SUBPROTOCOL, decode, encode

BASELINE = Path(__file__).with_name("tournament_baseline.json")
GAME = "carpet"
#: seconds a request's reply may take before the phase gives up (a bound)
GUARD = 60.0


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


class Entrant:
    """One player on its own connection: requests matched to replies by id, events
    counted."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.next = 0
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: dict[str, int] = {}
        self.started: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for frame in self.ws:
            msg = decode(frame if isinstance(frame, bytes) else frame.encode())
            if "ev" in msg:
                ev = str(msg["ev"])
                self.events[ev] = self.events.get(ev, 0) + 1
                if ev == "race_started" and not self.started.done():
                    self.started.set_result(msg["state"])
            else:
                fut = self.waiting.pop(int(msg["re"]), None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)

    async def call(self, op: str, **params: Any) -> dict[str, Any]:
        self.next += 1
        fut = asyncio.get_running_loop().create_future()
        self.waiting[self.next] = fut
        await self.ws.send(encode({"id": self.next, "op": op, **params}))
        return await asyncio.wait_for(fut, GUARD)

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


async def play(
    e: Entrant, state: dict[str, Any], until: float, pause: float, lat: list[float], tid: str
) -> int:
    """Moves at a person's pace until ``until``: the first legal move each time."""
    moves = 0
    await asyncio.sleep(random.uniform(0, pause))  # spread out, as people are
    while time.monotonic() < until:
        if state["status"] != "playing" or not state["legal"]:
            if not tid:
                return moves
            reply = await e.call("tournament_play", tournament_id=tid)
            if not reply["ok"]:
                return moves
            state = reply["state"]
            continue
        sent = time.monotonic()
        reply = await e.call("move", game_id=state["game_id"], seq=state["seq"], move=state["legal"][0])
        if not reply["ok"]:
            state = reply["error"].get("state") or state
            if reply["error"]["code"] == "game_over":
                return moves
            continue
        lat.append(time.monotonic() - sent)
        state = reply["state"]
        moves += 1
        if tid and moves % 12 == 0 and state["status"] == "playing":
            state = (await e.call("resign", game_id=state["game_id"]))["state"]
        await asyncio.sleep(pause)
    return moves


async def phase(kind: str, entrants: list[Entrant], args: argparse.Namespace) -> dict[str, Any]:
    for e in entrants:
        e.events.clear()
    lat: list[float] = []
    first = entrants[0]
    if kind == "tournament":
        starts = int(time.time() * 1000) + 500
        made = await first.call("tournament_create", game=GAME, starts_at=starts, minutes=60)
        tid = str(made["tournament"]["tournament_id"])
        code = made["tournament"]["code"]
        await asyncio.gather(*(e.call("tournament_join", code=code) for e in entrants[1:]))
        while int(time.time() * 1000) < starts:  # the bench's own wait for the start
            await asyncio.sleep(0.05)
        states = []
        for e in entrants:
            while True:
                reply = await e.call("tournament_play", tournament_id=tid)
                if reply["ok"]:
                    states.append(reply["state"])
                    break
                await asyncio.sleep(0.2)  # its deals still being certified
    else:
        tid = ""
        race = (await first.call("race_create", game=GAME))["race"]
        began = time.monotonic()
        try:
            await asyncio.gather(*(e.call("race_join", code=race["code"]) for e in entrants[1:]))
        except TimeoutError:  # every join is an event to every member: N² frames
            return {
                "phase": kind,
                "entrants": len(entrants),
                "moves": 0,
                "move_p50_ms": None,
                "move_p99_ms": None,
                "events_per_player_s": None,
                "events_s": None,
                "note": f"{len(entrants)} race_join not all answered in {GUARD} s",
                "join_s": round(time.monotonic() - began, 1),
                "load": round(os.getloadavg()[0], 2),
            }
        await first.call("race_start", race_id=race["race_id"])
        states = list(await asyncio.gather(*(e.started for e in entrants)))
    for e in entrants:
        e.events.clear()
    began = time.monotonic()
    until = began + args.seconds
    moves = await asyncio.gather(
        *(play(e, s, until, args.pause, lat, tid) for e, s in zip(entrants, states, strict=True))
    )
    spent = time.monotonic() - began
    ev = "tournament" if kind == "tournament" else "race"
    received = sum(e.events.get(ev, 0) for e in entrants)
    return {
        "phase": kind,
        "entrants": len(entrants),
        "moves": sum(moves),
        "move_p50_ms": pct(lat, 0.5),
        "move_p99_ms": pct(lat, 0.99),
        "events_per_player_s": round(received / len(entrants) / spent, 2),
        "events_s": round(received / spent, 1),
        "load": round(os.getloadavg()[0], 2),
    }


async def run(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    entrants = []
    try:
        for i in range(args.entrants):
            ws = await connect(server.url, subprotocols=[SUBPROTOCOL], max_size=2**24)  # type: ignore[list-item]
            e = Entrant(ws)
            reply = await e.call("register", name=f"t{i}_{uuid.uuid4().hex[:6]}")
            assert reply["ok"], reply
            entrants.append(e)
        rows = [await phase(kind, entrants, args) for kind in args.phases]
    finally:
        await asyncio.gather(*(e.close() for e in entrants), return_exceptions=True)
    return {"rows": rows, "pause": args.pause, "seconds": args.seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tournament", description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000, help="players [1000]")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds a phase [10]")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between moves [2]")
    parser.add_argument(
        "--phases",
        nargs="+",
        default=["tournament", "race"],
        choices=["tournament", "race"],
        help="phases to run [tournament race]",
    )
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pasyans-tournament-") as data:
        server = ServerProcess(
            "--no-prepare-dailies",
            "--log-level",
            "warning",
            "--data-dir",
            data,
            "--tournament-lead",
            "0",
            "--race-members",
            str(args.entrants),
            "--tournament-entrants",
            str(args.entrants),
            "--address-race-joins",
            str(10 * args.entrants),
            "--no-address-limits",
        )
        with server:
            result = asyncio.run(run(args, server))
    result["machine_load_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.save:  # the rows of each phase and size, the newest kept
        old = json.loads(BASELINE.read_text()) if BASELINE.exists() else {"rows": []}
        new = {(r["phase"], r["entrants"]) for r in result["rows"]}
        kept = [r for r in old["rows"] if (r["phase"], r["entrants"]) not in new]
        BASELINE.write_text(json.dumps(result | {"rows": kept + result["rows"]}, indent=1) + "\n")
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    before = {(r["phase"], r["entrants"]): r for r in baseline.get("rows", [])}
    print(
        "| phase | entrants | moves | move p50 / p99 ms | events a player a second | "
        "events a second | baseline p99 / events a player a second | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for r in result["rows"]:
        b = before.get((r["phase"], r["entrants"]), {})
        print(
            f"| {r['phase']} | {r['entrants']} | {r['moves']} | {r['move_p50_ms']} / "
            f"{r['move_p99_ms']} | {r['events_per_player_s']} | {r['events_s']} | "
            f"{b.get('move_p99_ms', '–')} / {b.get('events_per_player_s', '–')} | {r['load']} |"
        )
        if r.get("note"):
            print(f"\n{r['phase']}: {r['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
