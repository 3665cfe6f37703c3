"""One load process of :mod:`bench.paced`: ``--count`` players on raw ``websockets``
client connections (msgpack, delta replies, no terminal-client machinery), each with a
reader task that matches replies by ``re`` and takes events as they come.

It opens and signs in its players, starts a game each, makes each follow
``--follows`` others, puts ``--racing`` of them in races of ``--race-size`` and starts
those races; prints ``ready``; waits for a line on stdin; plays for ``--warm`` +
``--seconds`` seconds; then prints one JSON line of what it measured in the last
``--seconds`` (run by :mod:`bench.paced.run`, not by hand)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import time
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake

import protocol as P
from protocol.delta import apply_delta
from server.net.app import GC_THRESHOLDS

GAME = "crescent"
Message = dict[str, Any]


class Tally:
    """What this process measured: latencies in ms, bytes of frames, counts."""

    def __init__(self) -> None:
        self.measuring = False
        self.moves: list[float] = []
        self.events: list[float] = []
        self.friends: list[float] = []
        self.sent = self.received = 0
        self.event_frames = 0
        self.errors: list[str] = []
        #: (race_id, player, moves) -> perf_counter when that move was sent
        self.race_moves: dict[tuple[str, str, int], float] = {}


class Player:
    def __init__(self, ws: ClientConnection, name: str, tally: Tally) -> None:
        self.ws, self.name, self.tally = ws, name, tally
        self.ids = 0
        self.waiting: asyncio.Future[Message] | None = None
        self.state: Message = {}
        self.race_id = ""
        self.race_code = ""
        self.race_started: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        #: the other members' moves seen in race events, by player
        self.seen: dict[str, int] = {}
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        tally = self.tally
        async for frame in self.ws:
            assert isinstance(frame, bytes)
            msg: Message = msgpack.unpackb(frame)
            if tally.measuring:
                tally.received += len(frame)
            if "ev" in msg:
                self.event(msg)
            elif self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(msg)

    def event(self, msg: Message) -> None:
        tally = self.tally
        if tally.measuring:
            tally.event_frames += 1
        if msg["ev"] == "race_started" and not self.race_started.done():
            self.race_started.set_result(msg["state"])
        elif msg["ev"] == "race":
            now = time.perf_counter()
            for row in msg["players"]:
                who, moves = row["player"], int(row["moves"])
                if who == self.name or moves <= self.seen.get(who, 0):
                    continue
                self.seen[who] = moves
                sent = tally.race_moves.get((msg["race_id"], who, moves))
                if sent is not None and tally.measuring:
                    tally.events.append((now - sent) * 1000)

    async def call(self, op: str, **params: Any) -> Message:
        self.ids += 1
        frame = msgpack.packb(P.request(self.ids, op, **params))
        self.waiting = asyncio.get_running_loop().create_future()
        await self.ws.send(frame)
        if self.tally.measuring:
            self.tally.sent += len(frame)
        reply = await self.waiting
        if not reply.get("ok"):
            raise RuntimeError(f"{self.name} {op}: {reply.get('error')}")
        return reply

    async def new_game(self) -> None:
        self.state = (await self.call("start", game=GAME, mode="practice"))["state"]
        self.race_id = ""

    async def move(self) -> None:
        legal = self.state["legal"]
        if not legal:  # the game is over: a new one, not timed (a race's: back to practice)
            await self.new_game()
            return
        seq = int(self.state["seq"])
        mv = legal[seq % len(legal)]
        began = time.perf_counter()
        if self.race_id:
            self.tally.race_moves[(self.race_id, self.name, seq + 1)] = began
        reply = await self.call(
            "move", game_id=self.state["game_id"], seq=seq, move=mv, reply="delta"
        )
        if self.tally.measuring:
            self.tally.moves.append((time.perf_counter() - began) * 1000)
        self.state = apply_delta(self.state, reply["delta"])

    async def look_at_friends(self) -> None:
        began = time.perf_counter()
        await self.call("friends")
        if self.tally.measuring:
            self.tally.friends.append((time.perf_counter() - began) * 1000)


#: connections a load process opens at once, and the tries of each (a busy server
#: may drop a handshake it could not answer in time: the player tries again, as a
#: client reconnects)
OPENING, TRIES = 50, 8


async def open_one(url: str) -> ClientConnection:
    for attempt in range(TRIES):
        try:
            return await connect(
                url,
                subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
                compression=None,
                ping_interval=None,
                open_timeout=120,
                max_queue=None,
            )
        except (OSError, TimeoutError, InvalidHandshake):
            if attempt == TRIES - 1:
                raise
            await asyncio.sleep(0.5 * 2**attempt * random.uniform(0.5, 1.5))
    raise AssertionError("unreachable")


async def open_players(args: argparse.Namespace, tally: Tally) -> list[Player]:
    sem = asyncio.Semaphore(OPENING)

    async def one(i: int) -> Player:
        async with sem:
            ws = await open_one(args.url)
            p = Player(ws, f"{args.stamp}x{args.first + i}", tally)
            await p.call("register", name=p.name)
            await p.new_game()
            return p

    return list(await asyncio.gather(*(one(i) for i in range(args.count))))


async def befriend(players: list[Player], follows: int, rng: random.Random) -> None:
    """Each player follows ``follows`` others of this process (at random)."""
    sem = asyncio.Semaphore(200)

    async def one(p: Player) -> None:
        async with sem:
            for other in rng.sample(players, min(follows, len(players) - 1) + 1):
                if other is not p:
                    await p.call("friend_add", name=other.name)

    if follows:
        await asyncio.gather(*(one(p) for p in players))


async def race(members: list[Player]) -> None:
    """One race: created by the first member, joined by the others, started, dealt."""
    creator = members[0]
    r = (await creator.call("race_create", game=GAME))["race"]
    for m in members[1:]:
        await m.call("race_join", code=r["code"])
    await creator.call("race_start", race_id=r["race_id"])
    for m in members:
        m.state = await asyncio.wait_for(m.race_started, 60)
        m.race_id = r["race_id"]


async def play(p: Player, args: argparse.Namespace, stop: float, rng: random.Random) -> None:
    """Moves every ``--pace`` seconds (0.5–1.5 × at random) and a look at ``friends``
    every ``--friends-every`` (the same jitter), until ``stop``."""
    now = time.perf_counter()
    next_move = now + rng.uniform(0, args.pace)
    next_friends = now + rng.uniform(0, args.friends_every) if args.friends_every else stop + 1
    try:
        while True:
            at = min(next_move, next_friends)
            if at >= stop:
                return
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            if next_move <= next_friends:
                await p.move()
                next_move = time.perf_counter() + args.pace * rng.uniform(0.5, 1.5)
            else:
                await p.look_at_friends()
                next_friends = time.perf_counter() + args.friends_every * rng.uniform(0.5, 1.5)
    except Exception as exc:  # counted, the others play on
        p.tally.errors.append(f"{p.name}: {exc!r}"[:300])


async def set_up(args: argparse.Namespace, tally: Tally, rng: random.Random) -> list[Player]:
    """The players signed in, a game each, following others, the racers' races dealt."""
    players = await open_players(args, tally)
    await befriend(players, args.follows, rng)
    sem = asyncio.Semaphore(50)

    async def one_race(members: list[Player]) -> None:
        async with sem:
            await race(members)

    await asyncio.gather(*(one_race(g) for g in race_groups(players, args)))
    return players


def race_groups(players: list[Player], args: argparse.Namespace) -> list[list[Player]]:
    """The first ``--racing`` of the players, in races of ``--race-size``."""
    racing = int(len(players) * args.racing) // args.race_size * args.race_size
    return [players[i : i + args.race_size] for i in range(0, racing, args.race_size)]


async def main_async(args: argparse.Namespace) -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    rng = random.Random(args.first)
    tally = Tally()
    players = await set_up(args, tally, rng)
    racing = sum(len(g) for g in race_groups(players, args))
    gc.collect()
    gc.freeze()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    began = time.perf_counter()
    stop = began + args.warm + args.seconds
    tasks = [asyncio.create_task(play(p, args, stop, rng)) for p in players]
    await asyncio.sleep(args.warm)
    tally.measuring = True
    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*tasks)
    tally.measuring = False
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    out = {
        "players": len(players),
        "racing": racing,
        "seconds": elapsed,
        "cpu_s": cpu,
        "moves": [round(x, 3) for x in tally.moves],
        "events": [round(x, 3) for x in tally.events],
        "friends": [round(x, 3) for x in tally.friends],
        "sent": tally.sent,
        "received": tally.received,
        "event_frames": tally.event_frames,
        "errors": tally.errors[:20],
        "error_count": len(tally.errors),
    }
    print(json.dumps(out), flush=True)
    await asyncio.gather(*(p.ws.close() for p in players), return_exceptions=True)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--url", required=True)
    ap.add_argument("--first", type=int, required=True, help="index of the first player")
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--stamp", required=True, help="names are STAMPxINDEX")
    ap.add_argument("--pace", type=float, required=True)
    ap.add_argument("--friends-every", type=float, required=True)
    ap.add_argument("--follows", type=int, required=True)
    ap.add_argument("--racing", type=float, required=True)
    ap.add_argument("--race-size", type=int, required=True)
    ap.add_argument("--warm", type=float, required=True)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--loop", default="uvloop")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    if args.loop == "uvloop":
        try:
            import uvloop

            uvloop.run(main_async(args))
            return
        except ImportError:
            pass
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
