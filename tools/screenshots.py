"""The docs' screenshots (SVG), taken from the real terminal client, headless under
Textual's Pilot, on a real server this tool starts on a throwaway Redis.

    python -m tools.screenshots docs

writes the README's (the board, the daily screen, a leaderboard) to ``DIR/img`` and
docs/client.md's of the players' features (the home screen's friends line, friends,
statistics, history, a replay, safe moves, auto-complete, a shared result) to
``DIR/screenshots``; ``--only readme`` or ``--only features`` takes one set. Players
are made up on the spot; the client's configuration goes to a temporary directory, so
no real token is touched.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from client.records import ReplayOf, friend
from client.screens.board import BoardScreen, EndScreen
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.replay import ReplayScreen
from client.screens.stats import StatsScreen
from deploy.procs import RedisProcess, ServerProcess
from protocol.messages import Mode
from server.patience import registry
from server.solver import solve

#: the terminal's size in every screenshot (columns, rows)
SIZE = (120, 40)
#: parade deal 1 after 34 first legal moves: three safe moves follow one another
PARADE_SEED, PARADE_BEFORE = 1, 34
NAMES = ("anna", "boris", "vera", "gleb", "dasha", "egor")


def fresh_name() -> str:
    return "t" + uuid.uuid4().hex[:12]


async def until(pilot: Pilot[int], cond: Callable[[], bool], timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if cond():
            return
        await pilot.pause(0.02)
    raise RuntimeError("the app never got there")


async def on_board(pilot: Pilot[int]) -> BoardScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, BoardScreen))
    screen = pilot.app.screen
    assert isinstance(screen, BoardScreen)
    return screen


# -- the README's: the board, the daily screen, a leaderboard -------------------------


async def play_dailies(url: str) -> None:
    """A few players finish today's Crescent, so the leaderboard has rows."""
    suffix = fresh_name()[-4:]
    for n, name in enumerate(NAMES):
        async with Connection(url) as conn:
            await conn.register(f"{name}_{suffix}")
            state = await conn.start("crescent", Mode.DAILY)
            for _ in range(n % 4):
                if not state["legal"]:
                    break
                state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
            await conn.resign(state["game_id"])


async def readme(url: str, out: Path) -> None:
    """board.svg, daily.svg and leaderboard.svg."""
    out.mkdir(parents=True, exist_ok=True)
    await play_dailies(url)
    async with Connection(url) as conn:
        me = await conn.register(f"masha_{fresh_name()[-4:]}")
        config.save(url, config.Credentials(me["player"], me["token"]))
        state = await conn.start("crescent", Mode.DAILY)
        state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
    app = PasyansApp(url, launch=Launch(game="st_helena", mode=Mode.DEAL, seed=2026))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        for _ in range(6):  # a few moves in
            await board.play(board.legal[0])
        for _ in range(20):  # on to a position with a card to move
            sources = [m["from"] for m in board.legal if "from" in m]
            if sources or not board.legal:
                break
            await board.play(board.legal[0])
        if sources:
            await board.choose(sources[-1])
        await pilot.pause(0.2)
        app.save_screenshot("board.svg", path=str(out))
    app = PasyansApp(url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.daily))
        await pilot.pause(0.2)
        app.save_screenshot("daily.svg", path=str(out))
        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.2)
        app.save_screenshot("leaderboard.svg", path=str(out))


# -- docs/client.md's: the players' features ------------------------------------------


async def friends_play(url: str, me: Connection) -> None:
    """Three players play today's dailies (a few moves, then resign); ``me`` follows them."""
    suffix = fresh_name()[-4:]
    for n, (name, slug) in enumerate(
        (("anna", "crescent"), ("boris", "parade"), ("vera", "fifteen"))
    ):
        async with Connection(url) as conn:
            player = (await conn.register(f"{name}_{suffix}"))["player"]
            state = await conn.start(slug, Mode.DAILY)
            for _ in range(n + 2):
                if state["legal"]:
                    state = await conn.play(state, state["legal"][0])
            if n < 2:
                await conn.resign(state["game_id"])
        await friend(me, player, add=True)


async def parade_at(url: str, token: str, moves: int) -> str:
    """A parade deal game after ``moves`` first legal moves: its id."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("parade", Mode.DEAL, PARADE_SEED)
        for _ in range(moves):
            state = await conn.play(state, state["legal"][0])
        return str(state["game_id"])


async def nearly_won(url: str, token: str) -> str:
    """A travellers_classic deal played along a certified line to six moves short of
    the win, so the client offers to finish it: its id."""
    game = registry.get("travellers_classic")
    line = solve(game, game.deal(0), max_nodes=200_000).line
    if line is None:
        raise RuntimeError("travellers_classic deal 0 has no certified line within budget")
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("travellers_classic", Mode.DEAL, 0)
        for move in line[:-6]:
            state = await conn.play(state, move.to_wire())
        return str(state["game_id"])


async def features(url: str, out_dir: Path) -> None:
    """home, friends, stats, history, replay, safe, finish and share (.svg)."""
    out = str(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    async with Connection(url) as me:
        creds = await me.register(f"masha_{fresh_name()[-4:]}")
        config.save(url, config.Credentials(creds["player"], creds["token"]))
        await friends_play(url, me)
        for seed in (3, 5, 8):  # a few practice games, for the history and the statistics
            state = await me.start("crescent", Mode.DEAL, seed)
            for _ in range(seed):
                state = await me.play(state, state["legal"][0])
            await me.resign(state["game_id"])
        replayed = str(state["game_id"])
    token = creds["token"]

    app = PasyansApp(url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.friends))
        await pilot.pause(0.3)
        app.save_screenshot("home.svg", path=out)
        await pilot.press("f")
        await until(
            pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.3)
        app.save_screenshot("friends.svg", path=out)
        await pilot.press("q", "s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.result))
        await pilot.pause(0.3)
        app.save_screenshot("stats.svg", path=out)
        await pilot.press("q", "h")
        await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.result)
        )
        await pilot.pause(0.3)
        app.save_screenshot("history.svg", path=out)

    app = PasyansApp(url, launch=Launch(replay=ReplayOf(game_id=replayed)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and bool(app.screen.replay))
        await pilot.press("home", "right", "right", "right")
        await pilot.pause(0.3)
        app.save_screenshot("replay.svg", path=out)

    gid = await parade_at(url, token, PARADE_BEFORE)
    app = PasyansApp(url, launch=Launch(game_id=gid, resume=True))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await pilot.press("s")
        await until(pilot, lambda: "safe moves" in str(board.query_one("#status").render()))
        await pilot.pause(0.3)
        app.save_screenshot("safe.svg", path=out)

    gid = await nearly_won(url, token)
    app = PasyansApp(url, launch=Launch(game_id=gid, resume=True))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        await until(pilot, lambda: board.finish_offer is not None)
        await pilot.pause(0.3)
        app.save_screenshot("finish.svg", path=out)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        end = app.screen
        assert isinstance(end, EndScreen)
        await pilot.press("c")
        await until(pilot, lambda: bool(end.shared))
        await pilot.pause(0.3)
        app.save_screenshot("share.svg", path=out)


SETS = {"readme": ("img", readme), "features": ("screenshots", features)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.screenshots",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "dir", type=Path, help="where to write them: DIR/img (README) and DIR/screenshots"
    )
    parser.add_argument("--only", choices=sorted(SETS), help="take one set only")
    args = parser.parse_args(argv)
    chosen = [args.only] if args.only else list(SETS)
    with tempfile.TemporaryDirectory(prefix="pasyans-screenshots-") as home:
        os.environ[config.CONFIG_ENV] = home  # never the user's own token
        os.environ.pop(config.SERVER_ENV, None)
        with (
            RedisProcess() as redis,
            ServerProcess(
                "--rate",
                "10000",
                "--burst",
                "10000",
                "--log-level",
                "warning",
                redis_url=redis.url,
            ) as server,
        ):
            for name in chosen:
                sub, take = SETS[name]
                asyncio.run(take(server.url, args.dir / sub))
                print(f"{name}: {args.dir / sub}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
