"""The terminal client's screens at 80×24 as a player sees them, captured with tmux
(docs/terminal-screens.md): the real ``pasyans`` in a tmux session of 80 columns by
24 lines, in English and in Russian, against a server this tool starts on a
throwaway Redis (its dailies certified from the day before yesterday on), keys sent
as a player types them.

    python -m tools.terminal_screens [--only NAME…] [--lang en|ru] > captures.md

Prints each capture as a Markdown section. Players are made up on the spot; the
client's configuration goes to a temporary directory (no real token is touched).
A tool, not a test: it waits (bounded) for each screen to show its words.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from client import config
from client import tournaments as tours
from client.connection import Connection
from client.records import friend
from deploy.procs import ROOT, RedisProcess, ServerProcess
from protocol.messages import Mode

SIZE = (80, 24)
#: seconds a capture waits for its words at most
PATIENCE = 60.0


def tmux(*args: str, check: bool = False) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args[:4])}…: {done.stderr.strip()}")
    return done.stdout


@dataclass
class Terminal:
    """One tmux session running ``pasyans`` on a socket of its own: none of the user's,
    and none another capture's session ends (a tmux server whose last session was
    killed exits, and a session started on its socket meanwhile was lost: the inbox's
    capture came back empty in full runs, issue 47)."""

    name: str
    socket: str

    def run(self, command: str, env: dict[str, str]) -> None:
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        width, height = SIZE
        tmux("-L", self.socket, "kill-session", "-t", self.name)
        tmux(
            "-L",
            self.socket,
            "new-session",
            "-d",
            "-s",
            self.name,
            "-x",
            str(width),
            "-y",
            str(height),
            f"env {exports} {command}; sleep 30",  # a crash stays on screen
            check=True,
        )

    def keys(self, *keys: str) -> None:
        for key in keys:
            tmux("-L", self.socket, "send-keys", "-t", self.name, key)
            time.sleep(0.15)

    def screen(self) -> str:
        return tmux("-L", self.socket, "capture-pane", "-p", "-t", self.name)

    def wait(self, *words: str, gone: str = "") -> str:
        """The screen once every one of ``words`` is on it (and ``gone`` is not)."""
        deadline = time.monotonic() + PATIENCE
        while True:
            shown = self.screen()
            if all(w in shown for w in words) and not (gone and gone in shown):
                time.sleep(0.5)  # the rest of the frame
                return self.screen()
            if time.monotonic() > deadline:
                return shown
            time.sleep(0.2)

    def close(self) -> None:
        tmux("-L", self.socket, "kill-session", "-t", self.name)


async def player(url: str, name: str) -> str:
    async with Connection(url) as conn:
        return str((await conn.register(name))["token"])


async def history_games(url: str, token: str) -> str:
    """A few finished games, so history and its replay have something to show, and
    Борис, who follows Маша and sends her a challenge (her inbox): his token."""
    async with Connection(url) as conn:
        await conn.auth(token)
        for seed in (3, 4, 5):
            state = await conn.start("travellers_aces", Mode.DEAL, seed)
            state = await conn.play(state, state["legal"][0])
            await conn.resign(state["game_id"])
    async with Connection(url) as boris:
        boris_token = str((await boris.register("Борис"))["token"])
        await friend(boris, "Маша", add=True)
        state = await boris.start("crescent", Mode.PRACTICE)
        await boris.resign(state["game_id"])
        made = await boris.challenge_create(str(state["game_id"]))
        await boris.invite("Маша", challenge=str(made["code"]))
    # Маша's challenge, which Борис plays: its results are the newest item of her inbox
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("fifteen", Mode.PRACTICE)
        await conn.resign(state["game_id"])
        mine = await conn.challenge_create(str(state["game_id"]))
    async with Connection(url) as boris:
        await boris.auth(boris_token)
        theirs = (await boris.challenge_accept(str(mine["code"])))["state"]
        await boris.resign(theirs["game_id"])
    return boris_token


#: seconds a tournament's minute lasts on the tool's server: a 5-minute tournament is
#: over in 10 s, a 180-minute one runs through every capture
TOURNAMENT_MINUTE = 2.0


async def tournaments(url: str, token: str, boris_token: str) -> None:
    """Борис's tournaments of Полумесяц, as Маша's lobby lists them: one over (she
    played a deal of it: the podium), one running (she is in: its board), one upcoming
    (its countdown). Борис plays as well, so the standings have two rows."""
    async with Connection(url) as masha, Connection(url) as boris:
        await masha.auth(token)
        await boris.auth(boris_token)

        async def make(lead: float, minutes: int) -> dict[str, object]:
            starts = int((time.time() + lead) * 1000)
            return await tours.create(boris, "crescent", starts, minutes)

        async def resign_first(conn: Connection, made: dict[str, object]) -> None:
            await tours.join(conn, str(made["code"]))
            _, state = await tours.play(conn, str(made["tournament_id"]))
            await conn.resign(str(state["game_id"]))

        over = await make(0.5, 5)
        await tours.invite(boris, "Маша", str(over["code"]))
        await asyncio.sleep(1.0)
        await resign_first(masha, over)
        await resign_first(boris, over)
        deadline = time.monotonic() + PATIENCE
        while (await tours.show(masha, str(over["code"])))["status"] != "finished":
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        running = await make(0.5, 180)
        await tours.invite(boris, "Маша", str(running["code"]))
        await asyncio.sleep(1.0)
        await resign_first(boris, running)
        await tours.join(masha, str(running["code"]))
        upcoming = await make(3600, 30)
        await tours.invite(boris, "Маша", str(upcoming["code"]))


#: a capture: (title, keys then words to wait for, in steps)
Step = tuple[tuple[str, ...], tuple[str, ...]]


def captures(lang: str) -> dict[str, tuple[str, list[Step], str]]:
    """name → (title, steps, the command's arguments)."""
    ru = lang == "ru"
    lobby: Step = (("t",), ("Enter — открыть" if ru else "Enter opens",))
    return {
        "home": ("The home screen", [((), ("streak" if not ru else "серия",))], ""),
        "calendar": (
            "The calendar of one game, then of every game (c, then a)",
            [(("c",), ("UTC",)), (("a",), ("UTC",))],
            "",
        ),
        "history": ("History (h)", [(("h",), ("UTC",))], ""),
        "inbox": (
            "The inbox, a challenge's results opened (i, Enter)",
            [
                (("i",), ("inbox" if not ru else "входящие",)),
                (("Enter",), ("игрок" if ru else "player", "Esc")),
            ],
            "",
        ),
        "replay": (
            "A replay from history (h, Enter)",
            [(("h",), ("UTC",)), (("Enter",), ("/",))],
            "",
        ),
        "carpet": (
            "A board: Carpet, deal 7, after a message (T then Esc)",
            [((), ("G77",)), (("Z", "Z"), ("Z",))],
            "play carpet --deal 7",
        ),
        "fifteen": (
            "A board: The Fifteen, deal 7 (its foundations' headers at 80 columns)",
            [((), ("FK-C",))],
            "play fifteen --deal 7",
        ),
        "crescent": (
            "A board: Crescent, deal 7 (its waiting cells named as the rules name them)",
            [((), ("T16",))],
            "play crescent --deal 7",
        ),
        "tournaments": ("The lobby of tournaments (t)", [lobby], ""),
        "tournament_countdown": (
            "An upcoming tournament: its countdown (t, ↓, Enter)",
            [lobby, (("Down", "Enter"), ("Начало через" if ru else "Starts in",))],
            "",
        ),
        "tournament_board": (
            "A running tournament: its deal, the standings beside the board (t, Enter)",
            [lobby, (("Enter",), ("у вас:" if ru else "you:", "Таблица" if ru else "Standings"))],
            "",
        ),
        "tournament_podium": (
            "A tournament over: the podium (t, ↓, ↓, Enter)",
            [lobby, (("Down", "Down", "Enter"), ("пьедестал" if ru else "podium",))],
            "",
        ),
        "parade_end": (
            "Parade's end screen (r, y)",
            [((), ("·",)), (("r",), ()), (("y",), ())],
            "play parade --deal 7",
        ),
    }


def at_home(lang: str) -> Step:
    """Wait for the home screen before the first key (a key sent before the app
    reads keys is lost)."""
    return ((), ("серия" if lang == "ru" else "streak",))


def walk(url: str, names: list[str], lang: str, home: str, client: str) -> list[tuple[str, str]]:
    out = []
    for name, (heading, steps, args) in captures(lang).items():
        if names and name not in names:
            continue
        term = Terminal(f"cap-{name}-{lang}", f"pasyans-capture-{os.getpid()}-{name}-{lang}")
        env = {config.CONFIG_ENV: home, "PASYANS_LANG": lang, "TERM": "xterm-256color"}
        command = f"{client} --server {url} {args}".strip()
        term.run(command, env)
        shown = ""
        if not args:
            steps = [at_home(lang), *steps]
        try:
            for keys, words in steps:
                term.keys(*keys)
                shown = term.wait(*words)
        finally:
            term.close()
        out.append((f"{heading} — {'Russian' if lang == 'ru' else 'English'}", shown))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.terminal_screens",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--only", nargs="*", default=[], help="these captures only")
    parser.add_argument("--lang", choices=("en", "ru"), action="append")
    parser.add_argument(
        "--client",
        default=str(ROOT / ".venv" / "bin" / "pasyans"),
        help="the pasyans to run (another checkout's: the screens before a change)",
    )
    args = parser.parse_args(argv)
    langs = args.lang or ["ru", "en"]
    first = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=2)).isoformat()
    with tempfile.TemporaryDirectory(prefix="pasyans-captures-") as home:
        os.environ[config.CONFIG_ENV] = home
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
                "--first-day",
                first,
                "--tournament-lead",
                "0",
                "--tournament-minute",
                str(TOURNAMENT_MINUTE),
                redis_url=redis.url,
            ) as server,
        ):
            token = asyncio.run(player(server.url, "Маша"))
            config.save(server.url, config.Credentials("Маша", token))
            boris = asyncio.run(history_games(server.url, token))
            asyncio.run(tournaments(server.url, token, boris))
            for lang in langs:
                for heading, shown in walk(server.url, args.only, lang, home, args.client):
                    print(f"### {heading}\n\n```\n{shown.rstrip()}\n```\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
