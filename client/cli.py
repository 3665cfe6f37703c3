"""The ``pasyans`` command line: subcommands, connection set-up, plain-text output.

Exit status: 0 done, 1 the server refused something (message on stderr), 2 bad
usage, 3 the server cannot be reached.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import sys
from collections.abc import Awaitable, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from protocol.errors import ErrorCode
from protocol.i18n import translate_parser
from protocol.messages import DATE_RE, ID_RE, MAX_LIMIT, MAX_SEED, RACE_CODE_RE, Board, Mode

from . import cli_accounts, cli_challenges, cli_devices, cli_records, config
from .connection import ClientError, Connection, ServerError, UsageError
from .errors import BANNED
from .lang import LANGS, _, current, remember
from .launch import Launch, check_game, game_slug, open_game, open_race
from .progress import ProgressLine
from .race_script import RaceScript
from .renamed import told_renamed
from .script import Script, stdin_reader
from .status import EXIT_OK, EXIT_REFUSED, EXIT_UNREACHABLE, EXIT_USAGE, exit_status
from .text import daily_text, games_text, leaderboard_text, preparing, preparing_text, title
from .watch import watch_text

if TYPE_CHECKING:
    from .app import PasyansApp

#: while the server certifies some daily: seconds between asks (until all are decided)
PREPARING_PAUSE = 2.0


__all__ = ["EXIT_OK", "EXIT_REFUSED", "EXIT_UNREACHABLE", "EXIT_USAGE", "main"]

DESCRIPTION = """\
Play the classic Russian patiences (пасьянсы) on a pasyans server: today's daily
deal of every game, practice deals, leaderboards, races with friends. With no
command, opens the home screen (n there races friends on a game, j joins a race)."""

EPILOG = """\
examples:
  pasyans register alice              make an account (the token is saved for you)
  pasyans play crescent --daily       today's Crescent, on the board
  pasyans play crescent --deal 7 --script < moves.txt
  pasyans leaderboard crescent --around-me
  pasyans race new crescent           race friends: share the code it shows
  pasyans race join K7QX2M            join a friend's race
The server is --server URL, else $PASYANS_SERVER, else ws://127.0.0.1:8765/ws.
The language is pasyans lang ru|en (remembered), else $PASYANS_LANG, else LANG.

environment:
  PASYANS_SERVER      the server's URL when --server is not given
  PASYANS_LANG        the language (ru or en)
  PASYANS_CONFIG_DIR  the directory that keeps your tokens (credentials.json);
                      default: your config directory, e.g. ~/.config/pasyans
                      (on Linux $XDG_CONFIG_HOME/pasyans)"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


# Arguments checked before anything is sent: a wrong one is bad usage (exit 2),
# told in words, never a traceback or the server's refusal.


def seed_arg(text: str) -> int:
    """A deal number: a whole number from 0 to 2**64-1."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a deal: a deal is a whole number from 0 to 2**64-1 ({max})",
                text=repr(text),
                max=MAX_SEED,
            )
        )
    return seed


def limit_arg(text: str) -> int:
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if not 1 <= limit <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(
            _("{text}: a page holds 1 to {max} entries", text=repr(text), max=MAX_LIMIT)
        )
    return limit


def date_arg(text: str) -> str:
    """A day as YYYY-MM-DD that exists in the calendar."""
    try:
        if not DATE_RE.fullmatch(text):
            raise ValueError
        datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a day: write it YYYY-MM-DD, e.g. 2026-03-01", text=repr(text))
        ) from None
    return text


def code_arg(text: str) -> str:
    """A race code: letters and digits (any case), as the race's lobby shows it."""
    code = "".join(text.split()).upper()
    if not RACE_CODE_RE.fullmatch(code):
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not a race code: a code is letters and digits, e.g. K7QX2M",
                text=repr(text),
            )
        )
    return code


def build_parser() -> argparse.ArgumentParser:
    # One declaration per command: the blocks below are alike in shape by design
    # (argparse's table of commands), each saying its own words and options.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server",
        metavar="URL",
        default=argparse.SUPPRESS,
        help=f"server WebSocket URL (default: ${config.SERVER_ENV} or {config.DEFAULT_SERVER})",
    )
    parser = argparse.ArgumentParser(
        prog="pasyans",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=_Formatter,
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(
        name: str, help: str, description: str | None = None, *, local: bool = False
    ) -> argparse.ArgumentParser:
        """A subcommand; ``local``: one that asks no server (no ``--server``)."""
        return sub.add_parser(
            name,
            help=help,
            description=description or help,
            parents=[] if local else [common],
            formatter_class=_Formatter,
        )

    p = command(
        "register",
        help="create an account and save its token",
        description=(
            "Create an account on the server. The token is shown once and saved (mode 0600)\n"
            "in your config directory, so later commands log in by themselves."
        ),
    )
    p.add_argument("name", metavar="NAME", help="3–20 letters, digits, '_' or '-'")
    p.add_argument(
        "--another",
        action="store_true",
        help="make a second account on a server where you have one (both are kept)",
    )

    p = command(
        "login",
        help="log in with a token you already have",
        description="Check TOKEN with the server and save it (e.g. on a second computer).",
    )
    p.add_argument("token", metavar="TOKEN")

    p = command(
        "whoami",
        help="which account you use on the server, and your others",
        description="The account in use on the server, the other accounts saved for it (pasyans\n"
        "switch NAME changes to one) and the file that keeps their tokens.",
    )
    p.add_argument("--token", action="store_true", help="show the token too (keep it secret)")

    p = command(
        "switch",
        help="use another of your saved accounts on the server",
        description="Use the saved account NAME on the server from now on (see pasyans whoami).",
    )
    p.add_argument("name", metavar="NAME")

    command("games", help="list the games the server offers")

    p = command(
        "lang",
        help="the language of pasyans: ru (русский) or en (English)",
        description="Say every word in LANG from now on (remembered in your config directory);\n"
        "without LANG, print the language in use. $PASYANS_LANG overrides it for a run.",
        local=True,
    )
    p.add_argument("lang", metavar="LANG", nargs="?", choices=LANGS)

    p = command("rules", help="show the rules of a game")
    p.add_argument(
        "game", type=game_slug, metavar="GAME", help="a slug from `pasyans games` (any case)"
    )

    p = command(
        "play",
        help="play a game (today's daily, a practice deal or a given deal)",
        description="Play GAME on the board (a practice deal unless told otherwise).\n"
        "Without a terminal, or with --script, moves are read from stdin, one a line:\n"
        "  T3 FA-H    card from pile T3 to pile FA-H     R[2] F3   card 2 (0 = bottom) of R\n"
        "  deal       an action (also 'swap a=P1 b=P2')  undo, resign, auto, legal, board",
    )
    p.add_argument(
        "game", type=game_slug, metavar="GAME", help="a slug from `pasyans games` (any case)"
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--daily", action="store_true", help="today's deal, ranked")
    mode.add_argument("--practice", action="store_true", help="a random deal (default)")
    mode.add_argument(
        "--deal", type=seed_arg, metavar="SEED", help="the deal of SEED (0 … 2**64-1)"
    )
    p.add_argument("--script", action="store_true", help="read moves from stdin, print text")

    p = command(
        "resume",
        help="go back to an unfinished game",
        description="Resume GAME_ID, or your most recent game still in play.",
    )
    p.add_argument("game_id", metavar="GAME_ID", nargs="?")
    p.add_argument("--script", action="store_true", help="read moves from stdin, print text")

    p = command(
        "daily",
        help="today's games, their commitments, your results and streak",
        description="The daily deal of every game: its commitment (the seed is revealed after the\n"
        "day), par, your result so far and your streak.",
    )
    p.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD", help="another day (UTC)")

    p = command(
        "leaderboard",
        help="a game's daily or all-time leaderboard",
        description=(
            "Ranking: won first, then more cards on the foundations, fewer moves, less time."
        ),
    )
    p.add_argument("game", type=game_slug, metavar="GAME")
    p.add_argument(
        "--date", type=date_arg, metavar="YYYY-MM-DD", help="the daily board of that day (UTC)"
    )
    p.add_argument("--all-time", action="store_true", help="the all-time board")
    p.add_argument("--around-me", action="store_true", help="the page around your entry")
    p.add_argument("--friends", action="store_true", help="only you and the players you follow")
    p.add_argument(
        "--limit", type=limit_arg, default=20, metavar="N", help=f"entries (1–{MAX_LIMIT})"
    )
    p.add_argument("--cursor", metavar="C", help="the next page (printed after a page)")

    p = command(
        "race",
        help="race friends on the same deal (new, join)",
        description="Race friends on the same deal, each on your own game, watching each other's\n"
        "progress live. One of you makes the race and shares its code; the others join\n"
        "with it; the creator starts it (s in the lobby) and after a short countdown\n"
        "everybody's game is dealt at the same moment.",
    )
    rsub = p.add_subparsers(dest="race_command", metavar="ACTION", required=True)
    r = rsub.add_parser(
        "new",
        help="make a race on GAME and wait for friends in its lobby",
        description="Make a race on GAME (a fresh deal, --deal SEED or --daily) and show its\n"
        "lobby with the code to share. Without a terminal (or with --script), lines from stdin:\n"
        "  start  leave  wait  'wait finished'  race  rematch  end  'drop NAME'  and, once\n"
        "  dealt, the moves of `pasyans play --script` (end: the creator ends the race;\n"
        "  drop NAME: the creator drops a member who is away).",
        parents=[common],
        formatter_class=_Formatter,
    )
    r.add_argument(
        "game", type=game_slug, metavar="GAME", help="a slug from `pasyans games` (any case)"
    )
    deal = r.add_mutually_exclusive_group()
    deal.add_argument(
        "--deal", type=seed_arg, metavar="SEED", help="race on the deal of SEED (0 … 2**64-1)"
    )
    deal.add_argument(
        "--daily",
        action="store_true",
        help="race on today's daily deal (its seed stays hidden until the day is over; "
        "your race game is your ranked daily attempt unless you already played it)",
    )
    r.add_argument("--script", action="store_true", help="read commands from stdin, print text")
    r = rsub.add_parser(
        "join",
        help="join a friend's race by its code (or come back to yours)",
        description="Join the race of CODE while it is in its lobby. A member who comes\n"
        "back (from any computer, to any server) gets the race and their game again.",
        parents=[common],
        formatter_class=_Formatter,
    )
    r.add_argument("code", type=code_arg, metavar="CODE", help="the race's code, e.g. K7QX2M")
    r.add_argument("--script", action="store_true", help="read commands from stdin, print text")
    r = rsub.add_parser(
        "watch",
        help="watch a race as a spectator (its members' boards, live)",
        description="Watch the race of CODE without playing it: every member's board as they\n"
        "see it (face-down cards stay hidden), side by side or one at a time (Tab), and\n"
        "the progress panel. A spectator never joins the race. Without a terminal (or\n"
        "with --script), the race and each member's progress are printed as they change\n"
        "until the race is over.",
        parents=[common],
        formatter_class=_Formatter,
    )
    r.add_argument("code", type=code_arg, metavar="CODE", help="the race's code, e.g. K7QX2M")
    r.add_argument("--script", action="store_true", help="print text instead of the boards")
    cli_records.add_commands(command, date_arg, limit_arg)
    cli_challenges.add_commands(command)
    cli_devices.add_commands(command)
    cli_accounts.add_report(command)  # issue 49, operators' half
    return parser


#: the commands whose positional may be a game id or token starting with "-" (URL-safe
#: base64: about one game id in 64 does)
ID_COMMANDS = frozenset({"login", "replay", "share", "resume"})


def _ids_are_not_options(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """Game ids and tokens are URL-safe base64 and may start with "-": ``replay -aJx3…``,
    ``replay -- -aJx3… --text`` and ``login -x1…`` must not read it as an option. The
    id (an argument of ``ID_RE``'s form that is no option of the command, or the one
    after a ``--`` typed by the user) goes last, after a ``--`` of our own."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):  # the options before the command
        i += 2 if argv[i] == "--server" else 1
    if i >= len(argv) or argv[i] not in ID_COMMANDS:
        return argv
    command = _subcommands(parser)[argv[i]]
    takes_value = {
        option: action.nargs != 0 for action in command._actions for option in action.option_strings
    }
    rest, found = argv[i + 1 :], None
    kept: list[str] = []
    j = 0
    while j < len(rest):
        arg = rest[j]
        if arg == "--" and found is None and j + 1 < len(rest):
            found = rest[j + 1]
            j += 2
            continue
        option = _option(arg, takes_value)
        if option is not None:
            kept.append(arg)
            if takes_value[option] and "=" not in arg and j + 1 < len(rest):
                kept.append(rest[j + 1])
                j += 1
        elif arg.startswith("-") and found is None and ID_RE.fullmatch(arg):
            found = arg
        else:
            kept.append(arg)
        j += 1
    if found is None:
        return argv
    return [*argv[: i + 1], *kept, "--", found]


def _option(arg: str, options: Mapping[str, object]) -> str | None:
    """The option ``arg`` names (exactly, ``--opt=value``, or a prefix of one only, as
    argparse allows), or None."""
    name = arg.split("=", 1)[0]
    if name in options:
        return name
    if name.startswith("--") and len(name) > 2:
        matches = [o for o in options if o.startswith(name)]
        if len(matches) == 1:
            return matches[0]
    return None


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = translate_parser(build_parser(), current(), metavars=True)
    args = parser.parse_args(
        _ids_are_not_options(parser, list(sys.argv[1:] if argv is None else argv))
    )
    args.server = config.server_url(getattr(args, "server", None))
    try:
        if args.command is None:
            return home(args)
        if args.command in ("play", "resume", "race") and not (args.script or _tty()):
            args.script = True
            args.said_script = True  # said once the game is there (Script.intro), not
            # before a refusal of it
        if args.command in ("play", "resume", "race") and not args.script:
            return board(args)
        launch = (
            cli_records.board_launch(args) or cli_challenges.board_launch(args) if _tty() else None
        )
        if launch is not None:
            from .app import PasyansApp  # Textual loads only for the board

            return run_app(PasyansApp(args.server, launch=launch))
        return asyncio.run(COMMANDS[args.command](args, sys.stdout))
    except ClientError as exc:
        print(f"pasyans: {exc}", file=sys.stderr)
        return exit_status(exc)
    except KeyboardInterrupt:
        return EXIT_REFUSED
    except BrokenPipeError:
        return _output_closed()


def _output_closed() -> int:
    """The reader of our output went away (``… | head``): stop quietly. Standard output
    is pointed at /dev/null so that Python's last flush at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
    return EXIT_OK


def _tty() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


async def connect(server: str, *, need_auth: bool, patient: bool = False) -> Connection:
    """A connection, logged in with the saved token when there is one; ``patient``:
    tried again while the server is out of reach (:meth:`Connection.reopen`).

    A refused token stops commands that need an account and is only a warning for
    the others (games, rules, daily and leaderboards are public).
    """
    conn = await (Connection.reopen(server) if patient else Connection(server).open())
    try:
        config.note_deployment(server, await conn.deployment_id())
    except BaseException:
        await conn.close()
        raise
    creds = config.load(server)
    try:
        if creds is not None:
            try:
                signed = await conn.auth(creds.token)
                renamed = told_renamed(server, creds, signed)  # issue 49
                if renamed:
                    print("pasyans: " + renamed, file=sys.stderr)
            except ServerError as exc:
                if exc.code != ErrorCode.UNAUTHORIZED or exc.key == BANNED:
                    raise  # banned (issue 49): said as the server words it
                message = _(
                    "the server at {server} refused the saved token of {player}: "
                    "run `pasyans login TOKEN` or `pasyans register NAME`",
                    server=server,
                    player=creds.player,
                )
                if need_auth:
                    raise ClientError(message) from None
                print("pasyans: " + _("warning: {message}", message=message), file=sys.stderr)
        elif need_auth:
            raise ClientError(cli_accounts.no_account(server))
    except BaseException:
        await conn.close()
        raise
    return conn


async def cmd_lang(args: argparse.Namespace, out: TextIO) -> int:
    """``pasyans lang [ru|en]``: remember the player's language, or say which is used."""
    if args.lang:
        remember(args.lang)
    out.write(_("language: {lang}", lang=LANG_NAMES[current().lang]) + "\n")
    return EXIT_OK


#: each language by its own name
LANG_NAMES = {"en": "English", "ru": "русский"}


async def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    async with await connect(args.server, need_auth=False) as conn:
        out.write(games_text(await conn.games()) + "\n")
    return EXIT_OK


async def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    async with await connect(args.server, need_auth=False) as conn:
        check_game(args.game, await conn.titles())
        text = (await conn.rules(args.game)).rstrip()
    if out.isatty():  # on a terminal: drawn (headings, lists, quotes), not Markdown's marks
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=out).print(Markdown(text))
    else:
        out.write(text + "\n")
    return EXIT_OK


async def cmd_daily(args: argparse.Namespace, out: TextIO) -> int:
    async with await connect(args.server, need_auth=False) as conn:
        daily = await conn.daily(args.date)
        progress = ProgressLine(sys.stderr)
        while preparing(daily):  # a fresh server is still certifying some: wait for all
            progress.show(preparing_text(daily), key=len(preparing(daily)))
            await asyncio.sleep(PREPARING_PAUSE)
            daily = await conn.daily(args.date)
        progress.done()
        out.write(daily_text(daily, await conn.titles()) + "\n")
    return EXIT_OK


async def cmd_leaderboard(args: argparse.Namespace, out: TextIO) -> int:
    if args.all_time and args.date:
        raise UsageError(_("--date is for daily boards; drop it with --all-time"))
    async with await connect(args.server, need_auth=args.around_me or args.friends) as conn:
        titles = await conn.titles()
        check_game(args.game, titles)
        board = await conn.leaderboard(
            args.game,
            board=Board.ALLTIME if args.all_time else Board.DAILY,
            date=args.date,
            limit=args.limit,
            cursor=args.cursor,
            around_me=args.around_me,
            friends=args.friends,
        )
        day = board.get("date") or args.date or _("today")
        which = _("all time") if args.all_time else _("daily {day}", day=day)
        if args.friends:
            which += " · " + _("you and your friends")
        heading = f"{title(args.game, titles)} · {which}"
        out.write(leaderboard_text(board, heading=heading, you=conn.player) + "\n")
    return EXIT_OK


def play_mode(args: argparse.Namespace) -> tuple[Mode, int | None]:
    if args.daily:
        return Mode.DAILY, None
    if args.deal is not None:
        return Mode.DEAL, args.deal
    return Mode.PRACTICE, None


def launch_of(args: argparse.Namespace) -> Launch:
    """What ``play``, ``resume`` or ``race`` asks to open."""
    if args.command == "play":
        mode, seed = play_mode(args)
        return Launch(game=args.game, mode=mode, seed=seed)
    if args.command == "resume":
        return Launch(game_id=args.game_id or "", resume=True)
    if args.race_command == "watch":
        return Launch(watch=args.code)
    if args.race_command == "new":
        mode = Mode.DAILY if args.daily else Mode.PRACTICE
        return Launch(game=args.game, mode=mode, seed=args.deal, race="new")
    return Launch(race=args.code)


def said_script(args: argparse.Namespace) -> None:
    """No terminal made a board command script mode: said once its game is there (a
    refused game says only why)."""
    if getattr(args, "said_script", False):
        print(_("no terminal: script mode (moves from stdin)"), file=sys.stderr)


async def cmd_script(args: argparse.Namespace, out: TextIO) -> int:
    async with await connect(args.server, need_auth=True) as conn:
        titles = await conn.titles()
        launch = launch_of(args)
        if launch.game:
            check_game(launch.game, titles)
        progress = ProgressLine(sys.stderr)  # a daily still being certified: wait
        state = await open_game(conn, launch, progress.show)
        progress.done()
        said_script(args)

        def reconnect() -> Awaitable[Connection]:
            return connect(args.server, need_auth=True, patient=True)

        script = Script(conn, state, out, titles, reconnect=reconnect)
        try:
            return await script.run(stdin_reader(sys.stdin))
        finally:
            if script.conn is not conn:  # a new one after a reconnect
                await script.conn.close()


async def cmd_race(args: argparse.Namespace, out: TextIO) -> int:
    async with await connect(args.server, need_auth=True) as conn:
        titles = await conn.titles()
        launch = launch_of(args)
        if launch.watch:
            return await watch_text(conn, launch.watch, out, titles)
        if launch.game:
            check_game(launch.game, titles)
        race, state = await open_race(conn, launch)
        said_script(args)
        return await RaceScript(conn, race, out, titles, state).run(stdin_reader(sys.stdin))


COMMANDS = {
    **cli_accounts.commands(connect),
    "games": cmd_games,
    "lang": cmd_lang,
    "rules": cmd_rules,
    "daily": cmd_daily,
    "leaderboard": cmd_leaderboard,
    "play": cmd_script,
    "resume": cmd_script,
    "race": cmd_race,
    **cli_records.commands(connect),
    **cli_challenges.commands(connect),
    **cli_devices.commands(connect),
}


def home(args: argparse.Namespace) -> int:
    if not _tty():
        print(_("no terminal: showing today's dailies (see `pasyans --help`)"), file=sys.stderr)
        args.date = None
        return asyncio.run(cmd_daily(args, sys.stdout))
    from .app import PasyansApp  # Textual loads only for the board

    return run_app(PasyansApp(args.server))


def board(args: argparse.Namespace) -> int:
    """``play``, ``resume`` or ``race`` on the Textual board."""
    from .app import PasyansApp  # Textual loads only for the board

    return run_app(PasyansApp(args.server, launch=launch_of(args)))


def run_app(app: PasyansApp) -> int:
    """Run the app; what stopped it (the server out of reach…) is printed once the
    terminal is back, and its exit status returned."""
    status = app.run() or EXIT_OK
    if app.failure:
        print(f"pasyans: {app.failure}", file=sys.stderr)
    if app.farewell:
        print(app.farewell)
    return status
