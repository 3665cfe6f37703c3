"""Fuzz a server with frames no client would send: random bytes, msgpack of the wrong
shape, deep nesting, huge and odd numbers, and every op with wrong types for each of
its fields (and plausible values, so that some reach the services). Every frame must
be answered (a reply, never ``internal``) or its connection closed by policy (1008
after too many bad frames in a row, 1009 for a frame over the hard limit); the
server's resident memory must not grow without bound and its log must hold no
traceback; a normal player plays afterwards.

    python -m bench.fuzz [--frames 100000] [--connections 4] [--seed 1]

starts a ``pasyans-server`` (embedded Redis in a temporary directory) and reports;
``tests/faults/test_fuzz.py`` runs 20,000 frames of the same through :func:`fuzz`.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

import protocol as P
from protocol.messages import REQUESTS

#: values of the wrong type (or range, or size) for any field
WRONG: list[Any] = [
    None,
    True,
    False,
    -1,
    0,
    2**31,
    2**63 - 1,
    2**64 - 1,
    -(2**63),
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x" * 300,
    "\x00\u2028é🂡",
    b"\x00\xff",
    [],
    [1, [2, [3, [4]]]],
    {},
    {"a": {"b": None}},
    {1: 2},
    {"from": "stock", "to": None, "n": -1},
]

#: values of the right kind for fields of that name: requests that parse and reach
#: the services (naming nothing that exists, so each is answered quickly)
PLAUSIBLE: dict[str, list[Any]] = {
    "game": ["crescent", "parade", "nosuchgame"],
    "mode": ["practice", "deal", "daily", "race"],
    "seed": [0, 1, 2**64 - 1],
    "game_id": ["zzzz", "0" * 64],
    "seq": [0, 1, 2**31 - 1],
    "move": [{"from": "t0", "to": "f0"}, {"kind": "x"}],
    "reply": ["state", "delta", "packed"],
    "name": ["fz_name"],
    "token": ["A" * 40],
    "code": ["ZZZZZZ", "abcd"],
    "race_id": ["nosuchrace"],
    "player": ["nobody_here"],
    "date": ["2020-01-01", "2020-13-45"],
    "board": ["daily", "all"],
    "limit": [1, 100, 101],
    "cursor": ["0", "x:y"],
    "step": [0, 5],
    "daily": [True, False],
    "friends": [True],
    "check": [True, False],
}

#: ops that end the fuzzing account's own token (a well-formed ``token_rotate`` needs no
#: field at all): sent, they would sign the fuzzer itself out, not test the server's
#: answers; their own attacks are in tests/faults/test_account_takeover.py
SPARED = frozenset({"token_rotate", "account_delete"})
#: an op's field names, for requests built from every op
OP_FIELDS: dict[str, list[str]] = {
    str(op): list(cls.fields) for op, cls in REQUESTS.items() if str(op) not in SPARED
}


def _value(rng: random.Random, name: str) -> Any:
    if name in PLAUSIBLE and rng.random() < 0.5:
        return rng.choice(PLAUSIBLE[name])
    return rng.choice(WRONG)


def _request(rng: random.Random, rid: Any) -> dict[Any, Any]:
    op = rng.choice(list(OP_FIELDS))
    msg: dict[Any, Any] = {"id": rid, "op": op}
    for name in OP_FIELDS[op]:
        if rng.random() < 0.8:
            msg[name] = _value(rng, name)
    if rng.random() < 0.1:
        msg[rng.choice(["pad", "", "op2", "\x00"])] = rng.choice(WRONG)
    return msg


def _pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value)
    return data


def _nested(rng: random.Random) -> bytes:
    depth = rng.choice([16, 200, 1_000, 5_000, 50_000])
    if rng.random() < 0.5:
        return b"\x91" * depth + b"\xc0"  # [[[...[nil]...]]]
    return b"\x81\xa1a" * depth + b"\xc0"  # {"a": {"a": ...}}


def fuzz_frame(rng: random.Random, hard_max: int) -> bytes | str:
    """One frame a fuzzer sends (``hard_max``: the server's closing limit)."""
    rid = rng.randrange(1, 2**31)
    r = rng.random()
    if r < 0.15:
        return rng.randbytes(rng.randrange(0, 200))
    if r < 0.25:  # a real request cut short, or with a byte flipped
        data = bytearray(_pack(_request(rng, rid)))
        if rng.random() < 0.5:
            return bytes(data[: rng.randrange(0, len(data))])
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if r < 0.33:  # wrong shapes
        shapes: list[Any] = [
            [rid, "games"],
            "games",
            rid,
            None,
            {1: 2},
            {"op": "games"},
            {"id": rid},
            {"id": "1", "op": "games"},
            {"id": -1, "op": "games"},
            {"id": 2**64 - 1, "op": "games"},
            {"id": rid, "op": 7},
            {"id": rid, "op": "fly"},
            {"id": rid, "op": ["games"]},
            {"id": 1.5, "op": "games"},
        ]
        return _pack(rng.choice(shapes))
    if r < 0.37:
        return _nested(rng)
    if r < 0.40:  # huge and odd numbers, raw: uint64, int64 min, float64 NaN, ext, nil keys
        return rng.choice(
            [
                b"\x82\xa2id\xcf\xff\xff\xff\xff\xff\xff\xff\xff\xa2op\xa5games",
                b"\x82\xa2id\xd3\x80\x00\x00\x00\x00\x00\x00\x00\xa2op\xa5games",
                b"\x82\xa2id\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00\xa2op\xa5games",
                b"\x82\xa2id\x01\xa2op\xd4\x01\x00",
                b"\x82\xc0\x01\xa2op\xa5games",
                b"\xdf\xff\xff\xff\xff",  # a map claiming 4 billion entries
                b"\xdd\xff\xff\xff\xff",  # an array claiming 4 billion items
                b"\xdb\xff\xff\xff\xff",  # a str claiming 4 GiB
            ]
        )
    if r < 0.41:
        return "a text frame " + "é" * rng.randrange(0, 50)
    if r < 0.412:  # over the soft limit: too_large, the connection lives
        return _pack({"id": rid, "op": "games", "pad": "x" * 70_000})
    if r < 0.4125:  # over the hard limit: closed with 1009
        return b"\x00" * (hard_max + 1)
    return _pack(_request(rng, rid))


@dataclass
class Tally:
    frames: int = 0
    answered: int = 0
    #: frames unanswered because their connection was closed by policy (1008/1009)
    closed_by_policy: int = 0
    policy_closes: Counter[int] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    #: what must never happen: a frame with no answer on a live connection, another
    #: close code, an ``internal`` error, a reply that is not a reply
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, int):
                setattr(self, f.name, mine + theirs)
            elif isinstance(mine, Counter):
                mine.update(theirs)
            else:
                mine.extend(theirs)


async def _open(url: str, token: str) -> ClientConnection:
    ws = await ws_connect(
        url, subprotocols=[Subprotocol(P.SUBPROTOCOL)], compression=None, max_size=1 << 24
    )
    await ws.send(P.encode(P.request(0, "auth", token=token)))
    reply = P.decode(await _reply(ws), max_size=1 << 24)
    if reply.get("ok") is not True:
        raise RuntimeError(f"auth failed: {reply}")
    return ws


class Bye(Exception):
    """The server said ``bye``: it is closing the connection (1008 after too many bad
    frames in a row, with that reason)."""


async def _reply(ws: ClientConnection, timeout: float = 10.0) -> bytes:
    """The next frame that is not an event; :class:`Bye` on ``bye``."""
    while True:
        data = await asyncio.wait_for(ws.recv(), timeout)
        assert isinstance(data, bytes)
        msg = P.decode(data, max_size=1 << 24)
        if msg.get("ev") == P.Event.BYE:
            raise Bye(str(msg.get("reason")))
        if "ev" not in msg:
            return data


async def _worker(
    url: str, token: str, frames: int, rng: random.Random, hard_max: int, window: int
) -> Tally:
    """``frames`` frames on one signed-in connection (opened again after each close),
    ``window`` at a time: the window is sent, then its replies read in order."""
    tally = Tally()
    ws = await _open(url, token)
    try:
        while tally.frames < frames:
            batch = [fuzz_frame(rng, hard_max) for _ in range(min(window, frames - tally.frames))]
            tally.frames += len(batch)
            got = 0  # replies read so far
            try:
                for frame in batch:
                    await ws.send(frame)
                while got < len(batch):
                    _check(P.decode(await _reply(ws), max_size=1 << 24), tally)
                    got += 1
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code in (P.CLOSE_POLICY, P.CLOSE_TOO_BIG):
                    tally.policy_closes[code] += 1
                    tally.closed_by_policy += len(batch) - got
                else:
                    tally.failures.append(f"closed with {code}: {exc}")
                tally.answered += got
                ws = await _open(url, token)
                continue
            except Bye as exc:
                # Closed by policy (1008, "N bad frames in a row"; tests/server/net checks
                # the code). The server holds a closing connection until it reads our
                # close frame, which waits behind the frames still in flight (up to
                # its close timeout): drop the socket rather than wait.
                if "bad frames in a row" in str(exc):
                    tally.policy_closes[P.CLOSE_POLICY] += 1
                    tally.closed_by_policy += len(batch) - got
                else:
                    tally.failures.append(f"bye: {exc}")
                tally.answered += got
                ws.transport.abort()
                ws = await _open(url, token)
                continue
            except TimeoutError:
                tally.failures.append(f"no answer to a frame within 10 s: {batch[got]!r:.200}")
                await ws.close()
                ws = await _open(url, token)
                continue
            tally.answered += got
    finally:
        await ws.close()
    return tally


def _check(reply: dict[str, Any], tally: Tally) -> None:
    if "re" not in reply or not isinstance(reply.get("ok"), bool):
        tally.failures.append(f"not a reply: {reply!r:.200}")
    elif reply["ok"]:
        tally.codes["ok"] += 1
    else:
        code = str(reply["error"]["code"])
        tally.codes[code] += 1
        if code not in {str(c) for c in P.ErrorCode} or code == P.ErrorCode.INTERNAL:
            tally.failures.append(f"{code}: {reply['error'].get('message')!r:.200}")


async def fuzz(
    url: str,
    frames: int,
    *,
    connections: int = 4,
    seed: int = 1,
    hard_max: int = 1 << 20,
    window: int = 16,
) -> Tally:
    """Send ``frames`` fuzzed frames over ``connections`` signed-in connections,
    ``window`` frames at a time each (a window is sent, then its replies read)."""
    reg = await ws_connect(url, subprotocols=[Subprotocol(P.SUBPROTOCOL)], compression=None)
    try:
        await reg.send(P.encode(P.request(1, "register", name=f"fz{uuid.uuid4().hex[:8]}")))
        token = str(P.decode(await _reply(reg))["token"])
    finally:
        await reg.close()
    share, extra = divmod(frames, connections)
    tallies = await asyncio.gather(
        *(
            _worker(
                url, token, share + (i < extra), random.Random(seed * 1000 + i), hard_max, window
            )
            for i in range(connections)
        )
    )
    total = Tally()
    for t in tallies:
        total.add(t)
    return total


def report(tally: Tally, seconds: float) -> str:
    codes = ", ".join(f"{k} {v}" for k, v in tally.codes.most_common())
    closes = ", ".join(f"{k}: {v}" for k, v in sorted(tally.policy_closes.items()))
    return (
        f"{tally.frames} frames in {seconds:.1f} s: {tally.answered} answered ({codes}), "
        f"{tally.closed_by_policy} unanswered on connections closed by policy "
        f"(closes {closes or 'none'}), {len(tally.failures)} failures"
    )


async def main_async(args: argparse.Namespace) -> None:
    from bench.load import make_players
    from deploy.procs import ServerProcess, rss_kib

    with tempfile.TemporaryDirectory(prefix="pasyans-fuzz-") as tmp:
        flags = ["--rate", "100000", "--burst", "100000", "--log-level", "warning"]
        with ServerProcess("--data-dir", str(Path(tmp) / "data"), *flags) as server:
            assert server.process is not None
            pid = server.process.pid
            await fuzz(server.url, 1_000, connections=args.connections, seed=args.seed + 1)
            before = rss_kib(pid)
            began = time.monotonic()
            tally = await fuzz(
                server.url, args.frames, connections=args.connections, seed=args.seed
            )
            took = time.monotonic() - began
            after = rss_kib(pid)
            print(report(tally, took))
            print(
                f"server RSS {before / 1024:.1f} MiB -> {after / 1024:.1f} MiB "
                f"({(after - before) / 1024:+.1f} MiB)"
            )
            for line in tally.failures[:20]:
                print("  FAILURE " + line)
            player = make_players(server.url, 1, stem="afterfuzz")[0]
            await player.play(5, deadline=time.monotonic() + 20)
            print(f"a normal player afterwards: {player.moves} moves, error {player.error}")
            log = server.output()
            print(
                "traceback in the server log" if "Traceback" in log else "no traceback in the log"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
