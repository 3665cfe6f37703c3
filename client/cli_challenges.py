"""The command line's challenges: ``pasyans challenge new|play|show|close`` and
``pasyans challenges``. :mod:`client.cli` adds them to its parser and table of commands;
``challenge play`` opens the board on a terminal (:func:`board_launch`), else plays
in script mode like ``pasyans play --script``."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from protocol.messages import CHALLENGE_CODE_RE

from .challenges import challenge_text, challenges_text, made_text
from .cli_records import Command, Connect, Run
from .connection import UsageError
from .lang import _
from .launch import Launch, check_game, game_slug, open_game
from .script import Script, stdin_reader
from .status import EXIT_OK


def challenge_code(text: str) -> str:
    """A challenge code: letters and digits (any case), or its link (``#challenge/CODE``)."""
    code = "".join(text.split()).rsplit("/", 1)[-1].upper()
    if not CHALLENGE_CODE_RE.fullmatch(code):
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a challenge code: a code is letters and digits, e.g. K7QX2MPA",
                text=repr(text),
            )
        )
    return code


def add_commands(command: Command) -> None:
    """Declare the commands on ``command`` (``cli.build_parser``'s maker of one)."""
    p = command(
        "challenge",
        help="challenge friends on a deal (new, play, show, close)",
        description=(
            "Challenge friends who are not online with you: `new GAME_ID` makes a challenge\n"
            "of a finished game of yours (its result is the mark to beat) and prints its\n"
            "code; a friend plays the same deal with `play CODE` (once; the deal's number is\n"
            "hidden until the challenge closes); `show CODE` prints everyone's results;\n"
            "`close CODE` (its creator) ends it: results final, the deal's number shown."
        ),
    )
    sub = p.add_subparsers(dest="challenge_command", metavar="ACTION", required=True)
    p.set_defaults(script=False)
    c = sub.add_parser(
        "new",
        help="a challenge of your finished game GAME_ID (or of a deal: --game)",
        description="Make a challenge of your finished game GAME_ID: its result is the\n"
        "mark to beat. With --game GAME instead (and --deal SEED), a challenge on a deal\n"
        "with no mark: `play` it yourself too.",
    )
    c.add_argument("game_id", metavar="GAME_ID", nargs="?", help="a game id (pasyans history)")
    c.add_argument("--game", type=game_slug, metavar="GAME", help="a deal of GAME instead")
    c.add_argument("--deal", type=int, metavar="SEED", help="with --game: the deal of SEED")
    c = sub.add_parser(
        "play",
        help="play a challenge's deal (or go on with your game on it)",
        description="Play the deal of challenge CODE on the board, or in script mode without\n"
        "a terminal (moves from stdin, as `pasyans play --script`). Once a player: again\n"
        "gives your game on it back.",
    )
    c.add_argument("code", type=challenge_code, metavar="CODE", help="the challenge's code")
    c.add_argument("--script", action="store_true", help="read moves from stdin, print text")
    c = sub.add_parser("show", help="a challenge's results, ranked")
    c.add_argument("code", type=challenge_code, metavar="CODE", help="the challenge's code")
    c = sub.add_parser(
        "close",
        help="close a challenge you made: its results final, its deal shown",
        description="Close challenge CODE (you made it): nobody plays it any more, its\n"
        "results are final (a game still in play counts nowhere), and its deal's number\n"
        "is shown to everyone who played it. Otherwise it closes when it expires.",
    )
    c.add_argument("code", type=challenge_code, metavar="CODE", help="the challenge's code")
    command(
        "challenges",
        help="your challenges (made or played) and their new results",
        description=(
            "The challenges you made or played, newest first: results, how many are new to\n"
            "you, the leader, and when each expires."
        ),
    )


def board_launch(args: argparse.Namespace) -> Launch | None:
    """What the board opens on a terminal (``challenge play``), else None."""
    if args.command == "challenge" and args.challenge_command == "play" and not args.script:
        return Launch(challenge=args.code)
    return None


def commands(connect: Connect) -> dict[str, Run]:
    async def run_challenge(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            titles = await conn.titles()
            if args.challenge_command == "new":
                if (args.game_id is None) == (args.game is None):
                    raise UsageError(_("give a GAME_ID, or --game GAME (a deal with no mark)"))
                if args.game:
                    check_game(args.game, titles)
                made = await conn.challenge_create(args.game_id, game=args.game, seed=args.deal)
                out.write(made_text(made) + "\n")
            elif args.challenge_command == "show":
                out.write(challenge_text(await conn.challenge(args.code), titles) + "\n")
            elif args.challenge_command == "close":
                closed = await conn.challenge_close(args.code)
                out.write(_("closed.") + f"\n{challenge_text(closed, titles)}\n")
            else:
                state = await open_game(conn, Launch(challenge=args.code))
                return await Script(conn, state, out, titles).run(stdin_reader(sys.stdin))
        return EXIT_OK

    async def run_challenges(args: argparse.Namespace, out: TextIO) -> int:
        async with await connect(args.server, need_auth=True) as conn:
            out.write(challenges_text(await conn.challenges(), await conn.titles()) + "\n")
        return EXIT_OK

    return {"challenge": run_challenge, "challenges": run_challenges}
