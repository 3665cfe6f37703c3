"""The command line's commands about a player's records: ``replay``, ``history``,
``stats``, ``friend``, ``friends``, ``share``. :mod:`client.cli` adds them to its parser
and table of commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Coroutine
from typing import Protocol, TextIO

from protocol.errors import ErrorCode

from .connection import ClientError, Connection, ServerError, UsageError
from .lang import N_, _, ngettext
from .launch import Launch, check_game, game_slug
from .records import (
    ReplayOf,
    friend,
    friends,
    friends_text,
    history_text,
    latest_finished,
    line_text,
    position_text,
    replay,
    replay_heading,
    share,
    stats,
    stats_text,
)
from .status import EXIT_OK


class Command(Protocol):
    """``build_parser``'s ``command``: a subcommand, its help and description."""

    def __call__(
        self, name: str, help: str, description: str | None = None
    ) -> argparse.ArgumentParser: ...


Run = Callable[[argparse.Namespace, TextIO], Coroutine[object, object, int]]


class Connect(Protocol):
    """``cli.connect``: a connection, logged in with the saved token when there is one."""

    async def __call__(self, server: str, *, need_auth: bool) -> Connection: ...


def step_arg(text: str) -> int:
    try:
        step = int(text)
    except ValueError:
        step = -1
    if step < 0:
        raise argparse.ArgumentTypeError(
            _("{text} is not a step: a step is 0 (the deal) or more", text=repr(text))
        )
    return step


def add_commands(
    command: Command, date_arg: Callable[[str], str], limit_arg: Callable[[str], int]
) -> None:
    """Declare the commands on ``command`` (``cli.build_parser``'s maker of one)."""
    p = command(
        "stats",
        help="your statistics, per game and overall",
        description=(
            "Games played and won, win %, the fewest moves and the best time of a win, cards\n"
            "founded on average, dailies played and won, the current and best streak, per\n"
            "game (or only GAME) and overall, and a chart of the last 30 days' results."
        ),
    )
    p.add_argument("game", type=game_slug, metavar="GAME", nargs="?", help="one game's slug")
    p.add_argument("--player", metavar="NAME", help="another player's statistics")

    p = command(
        "friend",
        help="follow a player (add NAME) or stop (remove NAME)",
        description="Follow a player by name (one-way: they need not follow you back), or stop.\n"
        "`pasyans friends` shows how they did today; `pasyans leaderboard GAME --friends`\n"
        "ranks only you and those you follow.",
    )
    p.add_argument("action", choices=["add", "remove"], help="add or remove")
    p.add_argument("name", metavar="NAME", help="the player's name")

    command(
        "friends",
        help="the players you follow and how they did on today's dailies",
        description="The players you follow, each with their games on today's dailies.",
    )

    p = command(
        "share",
        help="a finished game's result as a few lines of text to share",
        description="A finished game's result in a few lines of plain text to paste anywhere: the\n"
        "game, the date, won or lost, cards founded, moves (and the par of a certified\n"
        "daily), time, your rank on a daily's board and the daily's commitment. Nothing\n"
        "gives the deal away. Without GAME_ID: your latest finished game.",
    )
    p.add_argument("game_id", metavar="GAME_ID", nargs="?", help="a game id (pasyans history)")

    p = command(
        "history",
        help="your past games, newest first",
        description="Your games, newest first, a page at a time: when (UTC), game, mode, result,\n"
        "cards founded, moves, time and the id (`pasyans replay ID` replays a finished\n"
        "one, `pasyans resume ID` goes on with one in play).",
    )
    p.add_argument("--limit", type=limit_arg, default=20, metavar="N", help="games a page (1–100)")
    p.add_argument("--cursor", metavar="C", help="the next page (printed after a page)")

    p = command(
        "replay",
        help="step through a finished game, or a past daily's par line",
        description=(
            "Replay GAME_ID on the board (→ next move, ← back, Home/End, q leaves): your own\n"
            "finished games; another player's daily game once that day is over; a race\n"
            "game once the race is over. With --date, GAME is a game's slug: the par line of\n"
            "that day's daily (the solver's winning line), or with --player that player's\n"
            "ranked daily of the day. Without a terminal (or with --text) it prints the\n"
            "moves and the final board; --step N prints the board after N moves."
        ),
    )
    p.add_argument("target", metavar="GAME_ID|GAME", help="a game id, or a slug with --date")
    p.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD", help="a past daily (UTC)")
    p.add_argument("--player", metavar="NAME", help="that player's ranked daily (with --date)")
    p.add_argument("--step", type=step_arg, metavar="N", help="the board after N moves")
    p.add_argument("--text", action="store_true", help="print it instead of the board")


def replay_of(args: argparse.Namespace) -> ReplayOf:
    if args.player and not args.date:
        raise UsageError(_("--player is for a past daily: give its --date too"))
    if args.date:
        return ReplayOf(game=game_slug(args.target), date=args.date, player=args.player or "")
    return ReplayOf(game_id=args.target)


def board_launch(args: argparse.Namespace) -> Launch | None:
    """What the Textual board opens for these arguments on a terminal (None: the
    command prints text)."""
    if args.command == "replay" and not args.text and args.step is None:
        return Launch(replay=replay_of(args))
    return None


def commands(connect: Connect) -> dict[str, Run]:
    """The commands by name, connecting with ``connect``."""

    async def run_replay(args: argparse.Namespace, out: TextIO) -> int:
        return await cmd_replay(args, out, connect)

    async def run_history(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            page = await conn.my_games(limit=args.limit, cursor=args.cursor)
            out.write(history_text(page, await conn.titles()) + "\n")
        return EXIT_OK

    async def run_stats(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=args.player is None) as conn:
            titles = await conn.titles()
            if args.game:
                check_game(args.game, titles)
            out.write(stats_text(await stats(conn, args.player, args.game), titles) + "\n")
        return EXIT_OK

    async def run_friend(args: argparse.Namespace, out: TextIO) -> int:
        add = args.action == "add"
        async with await connect(args.server, need_auth=True) as conn:
            result = await friend(conn, args.name, add=add)
        name = result["friend"]
        if add:
            done = N_("you follow {name}") if result["added"] else N_("you already follow {name}")
        else:
            done = (
                N_("you no longer follow {name}")
                if result["removed"]
                else N_("you did not follow {name}")
            )
        out.write(_(done, name=name) + "\n")
        return EXIT_OK

    async def run_friends(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            out.write(friends_text(await friends(conn), await conn.titles()) + "\n")
        return EXIT_OK

    async def run_share(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            gid = args.game_id or await latest_finished(conn)
            if gid is None:
                raise ClientError(
                    _("no finished game to share yet: `pasyans play GAME` starts one")
                )
            try:
                game = (await replay(conn, ReplayOf(game_id=gid)))["replay"]
            except ServerError as exc:
                if exc.code == ErrorCode.FORBIDDEN and await in_play(conn, gid):
                    raise ClientError(
                        _(
                            "the game {id} is still in play: there is no result to share "
                            "yet (`pasyans resume {id}` goes on with it)",
                            id=gid,
                        )
                    ) from None
                raise
            out.write(await share(conn, game, await conn.titles()) + "\n")
        return EXIT_OK

    return {
        "replay": run_replay,
        "share": run_share,
        "history": run_history,
        "stats": run_stats,
        "friend": run_friend,
        "friends": run_friends,
    }


async def in_play(conn: Connection, game_id: str) -> bool:
    """Whether ``game_id`` is a game of yours still in play (a replay refuses those)."""
    try:
        return (await conn.resume(game_id)).get("status") == "playing"
    except ClientError:
        return False


async def cmd_replay(args: argparse.Namespace, out: TextIO, connect: Connect) -> int:
    of = replay_of(args)
    async with await connect(args.server, need_auth=False) as conn:
        titles = await conn.titles()
        if of.game:
            check_game(of.game, titles)
        first = (await replay(conn, of))["replay"]
        count = len(first.get("line") or [])
        step = count if args.step is None else args.step
        if step > count:
            raise UsageError(
                ngettext(
                    "--step {step} is past the end: this game has {n} move",
                    "--step {step} is past the end: this game has {n} moves",
                    count,
                    step=step,
                )
            )
        got = await replay(conn, of, step)
        out.write(replay_heading(got["replay"], titles) + "\n\n")
        out.write(line_text(list(got["replay"].get("line") or [])) + "\n\n")
        out.write(position_text(got["position"], count) + "\n")
    return EXIT_OK
