"""A move's path through the server's modules: which modules one ``move`` request
enters, in order, and how often each is entered again after the walk left it.

Starts an in-process server on a real Redis (an embedded one in a temporary
directory), plays a few moves of a deal to warm it up, then traces one ``move``
(full-state reply, the hot path) and one with ``"reply": "delta"`` with
:func:`sys.setprofile`, counting a module *entered* each time the walk passes from a
frame of another of our modules into one of it (Python frames only; C calls are
left out). Issue 39 asks that a move go forward through each module once.

    python -m tools.move_path [--game crescent] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

OURS = ("server.", "protocol.")


def module_of(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if isinstance(name, str) and name.startswith(OURS) else None


class Walk:
    """The modules a traced stretch of code enters, in order."""

    def __init__(self) -> None:
        self.path: list[str] = []

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        here = module_of(frame)
        if here is None:
            return
        caller = frame.f_back
        there = module_of(caller) if caller is not None else None
        if there != here and (not self.path or self.path[-1] != here):
            self.path.append(here)

    def summary(self) -> dict[str, Any]:
        entered = Counter(self.path)
        return {
            "path": self.path,
            "modules": len(entered),
            "entries": len(self.path),
            "re_entered": {m: n - 1 for m, n in entered.items() if n > 1},
        }


async def trace(game: str) -> dict[str, Any]:
    from client.connection import Connection
    from protocol.messages import Mode, Op
    from server.net import App
    from server.settings import Settings
    from server.store import EmbeddedRedis

    with tempfile.TemporaryDirectory(prefix="pasyans-path-") as tmp:
        redis = EmbeddedRedis(Path(tmp))
        await redis.start()
        app = App(
            Settings(
                port=0,
                redis_url=redis.url,
                prepare_dailies=False,
                solver_workers=0,
                address_limits=False,
            )
        )
        await app.start()
        try:
            async with Connection(f"ws://127.0.0.1:{app.port}/ws") as c:
                await c.register("pathfinder")
                state = await c.start(game, Mode.DEAL, 7)
                gid = str(state["game_id"])

                async def move(form: str) -> Any:
                    legal = state["legal"]
                    move = legal[int(state["seq"]) % len(legal)]
                    seq = int(state["seq"])
                    return await c.call(Op.MOVE, game_id=gid, seq=seq, move=move, reply=form)

                for _ in range(3):
                    await move("state")
                    state = await c.resume(gid)
                out = {}
                for form in ("state", "delta"):
                    walk = Walk()
                    sys.setprofile(walk.profile)
                    try:
                        await move(form)
                    finally:
                        sys.setprofile(None)
                    state = await c.resume(gid)
                    out[form] = walk.summary()
                return out
        finally:
            await app.stop()
            await redis.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.move_path", description=__doc__)
    parser.add_argument("--game", default="crescent", help="the game to move in [crescent]")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    result = asyncio.run(trace(args.game))
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for form, s in result.items():
        print(f"## move, reply {form}: {s['modules']} modules, {s['entries']} entries")
        print(" → ".join(p.removeprefix("server.") for p in s["path"]))
        again = ", ".join(f"{m.removeprefix('server.')} ×{n}" for m, n in s["re_entered"].items())
        print(f"entered again: {again or 'none'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
