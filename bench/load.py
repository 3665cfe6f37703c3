"""A load client that rides through failures: many players in one process, each on
the terminal client's own :class:`~client.connection.Connection` (so each one paces
itself, retries ``unavailable`` with backoff and keeps its board by delta replies),
reconnecting through the load balancer with backoff and resuming its game by ``seq``.

Every player counts what the server acknowledged, so that after a fault one can check
that nothing acknowledged was lost (:func:`lost_moves`)::

    python -m bench.load --url ws://127.0.0.1:8080/ws --players 200 --moves 10

The fault tests (``tests/faults``) drive the same :class:`Player`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from client.connection import Connection, ServerError, ServerUnavailable
from protocol import ErrorCode
from protocol.messages import Mode

GAME = "crescent"
#: seconds a player waits between two moves (a person is slower still)
PAUSE = 0.02
#: seconds a player keeps trying to reconnect before it gives up
RECONNECT_PATIENCE = 20.0

Message = dict[str, Any]


@dataclass
class Player:
    """One player: registers, starts a game, plays ``moves`` moves through ``url``.

    ``acked`` maps each of its games to the ``seq`` of the last move the server
    acknowledged there; ``views`` the acknowledged view at that ``seq``.
    """

    url: str
    name: str
    seed: int
    token: str = ""
    state: Message = field(default_factory=dict)
    acked: dict[str, int] = field(default_factory=dict)
    views: dict[str, Message] = field(default_factory=dict)
    moves: int = 0
    reconnects: int = 0
    latencies: list[float] = field(default_factory=list)
    #: seconds from each lost connection to the next acknowledged move
    gaps: list[float] = field(default_factory=list)
    error: str | None = None
    _lost_at: float = 0.0
    conn: Connection | None = None
    #: whether the name was changed once, its first registration's answer lost
    retried_name: bool = False

    async def connect(self) -> None:
        """(Re)open a connection with backoff, sign in, and take the game as the
        server has it (``resume``: the ``seq`` decides what comes next)."""
        conn = await Connection.reopen(self.url, patience=RECONNECT_PATIENCE)
        try:
            if self.token:
                await conn.auth(self.token)
            else:
                self.token = str((await self.register(conn))["token"])
            if self.state:
                self.state = await conn.resume(str(self.state["game_id"]))
        except BaseException:
            await conn.close()
            raise
        self.conn = conn

    async def register(self, conn: Connection) -> dict[str, Any]:
        """Register ``self.name``; if the name is taken, the account was made by an
        earlier try whose answer was lost with its instance (its token with it): the
        player does what the server says, and chooses another name."""
        try:
            return await conn.register(self.name)
        except ServerError as exc:
            if exc.code != ErrorCode.NAME_TAKEN or self.retried_name:
                raise
        self.retried_name = True
        self.name = f"{self.name}r"
        return await conn.register(self.name)

    async def new_game(self) -> None:
        assert self.conn is not None
        self.state = await self.conn.start(GAME, Mode.DEAL, seed=self.seed)
        self.acked[str(self.state["game_id"])] = int(self.state["seq"])
        self.seed += 1

    async def drop(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            self.conn = None

    async def play(self, moves: int, *, deadline: float, pause: float = PAUSE) -> None:
        """Play until ``moves`` moves were acknowledged or ``deadline`` (monotonic)."""
        try:
            while self.moves < moves and time.monotonic() < deadline:
                try:
                    await self._step()
                except ServerUnavailable:
                    self.reconnects += 1
                    self._lost_at = self._lost_at or time.monotonic()
                    await self.drop()
                    continue
                await asyncio.sleep(pause)
        except ClientFailure as exc:
            self.error = str(exc)
        finally:
            await self.drop()

    async def _step(self) -> None:
        if self.conn is None:
            await self.connect()
        assert self.conn is not None
        if not self.state:
            await self.new_game()
        if not self.state["legal"]:
            await self.new_game()
            return
        legal = self.state["legal"]
        move = legal[int(self.state["seq"]) % len(legal)]
        began = time.monotonic()
        try:
            after = await self.conn.play(self.state, move)
        except ServerError as exc:
            if exc.code == ErrorCode.STALE_SEQ and exc.state is not None:
                # A move written whose reply was lost (the instance died): the game
                # moved on, nothing is played twice. Carry on from the server's state.
                self.state = exc.state
                return
            raise ClientFailure(f"{self.name}: {exc}") from exc
        self.latencies.append(time.monotonic() - began)
        gid = str(after["game_id"])
        self.state = after
        self.acked[gid] = int(after["seq"])
        self.views[gid] = after["view"]
        self.moves += 1
        if self._lost_at:
            self.gaps.append(time.monotonic() - self._lost_at)
            self._lost_at = 0.0


class ClientFailure(Exception):
    """A refusal a player cannot ride through (anything but an outage)."""


async def lost_moves(url: str, players: list[Player]) -> tuple[int, int, list[str]]:
    """``(acknowledged, lost, problems)``: every acknowledged move must be in the
    game as the server has it now (its ``seq`` at least the acknowledged one, and
    the same view where no later move was written)."""
    acknowledged = lost = 0
    problems: list[str] = []
    conn = await Connection.reopen(url, patience=RECONNECT_PATIENCE)
    try:
        await conn.register(f"audit{uuid.uuid4().hex[:8]}")
        for player in players:
            await conn.auth(player.token)
            for gid, seq in player.acked.items():
                now = await conn.resume(gid)
                acknowledged += seq
                if int(now["seq"]) < seq:
                    lost += seq - int(now["seq"])
                    problems.append(
                        f"{player.name} {gid}: acked seq {seq}, server has {now['seq']}"
                    )
                elif (
                    int(now["seq"]) == seq
                    and gid in player.views
                    and now["view"] != player.views[gid]
                ):
                    problems.append(f"{player.name} {gid}: view differs at seq {seq}")
    finally:
        await conn.close()
    return acknowledged, lost, problems


def make_players(url: str, n: int, *, stem: str = "load") -> list[Player]:
    tag = uuid.uuid4().hex[:6]
    return [Player(url, f"{stem}{tag}{i}", seed=1000 + i) for i in range(n)]


async def main_async(args: argparse.Namespace) -> None:
    players = make_players(args.url, args.players)
    began = time.monotonic()
    deadline = began + args.seconds
    await asyncio.gather(*(p.play(args.moves, deadline=deadline) for p in players))
    took = time.monotonic() - began
    acknowledged, lost, problems = await lost_moves(args.url, players)
    moves = sum(p.moves for p in players)
    worst = max((max(p.latencies, default=0.0) for p in players), default=0.0)
    print(
        f"{len(players)} players, {moves} moves in {took:.1f} s ({moves / took:.0f}/s), "
        f"{sum(p.reconnects for p in players)} reconnects, slowest move {worst * 1000:.0f} ms, "
        f"{acknowledged} acknowledged, {lost} lost"
    )
    for line in problems[:20]:
        print("  " + line)
    for p in players:
        if p.error:
            print(f"  {p.name}: {p.error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="ws:// URL (a load balancer's)")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10, help="moves each player plays")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
