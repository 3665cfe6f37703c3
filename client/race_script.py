"""Races in plain text: lobby and progress lines, the result table, and script mode.

``pasyans race new GAME`` / ``pasyans race join CODE`` without a terminal (or with
``--script``) print every ``race`` event as text lines and read commands from stdin:
everything ``play --script`` takes (once the race runs), plus

- ``start``  start the race (its creator only), ``leave``  leave it,
- ``wait``  wait until your game is dealt, ``wait finished``  until every member is done,
- ``race``  print the race again, ``rematch``  a new race with the same members
  once this one is over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from protocol.messages import Event, Push

from .connection import Connection
from .notation import NotationError
from .script import Script
from .text import Titles, clock, table, title

#: seconds ``wait`` waits for the deal, and ``wait finished`` for the end of the race
WAIT_START = 300.0
WAIT_FINISH = 3600.0
BAR = 20

Race = Mapping[str, Any]


def bar(foundation: int, total: int, width: int = BAR) -> str:
    """``[#####.....]``: cards on the foundations out of all of them."""
    filled = round(width * foundation / total) if total else 0
    filled = max(0, min(width, filled))
    return "[" + "#" * filled + "." * (width - filled) + "]"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def member_status(p: Mapping[str, Any]) -> str:
    if p.get("place"):
        return f"won, place {p['place']}"
    return str(p.get("status") or "")


def seconds_left(race: Race, now_ms: int) -> float:
    starts = race.get("starts_at")
    return max(0.0, (int(starts) - now_ms) / 1000) if starts else 0.0


def lobby_text(race: Race, you: str | None = None, titles: Titles | None = None) -> str:
    players = list(race.get("players") or [])
    deal = f" · daily deal of {race['date']}" if race.get("date") else ""
    lines = [
        f"race {race.get('code')} · {title(str(race.get('game')), titles)}{deal} · "
        f"{race.get('status')} · {plural(len(players), 'player')}"
    ]
    for p in players:
        mark = " (you)" if p["player"] == you else ""
        lines.append(f"  {p['player']}{mark}")
    return "\n".join(lines)


def progress_rows(race: Race, you: str | None = None) -> list[str]:
    """One line per member: name, bar, foundation/total, moves, time, status."""
    players = list(race.get("players") or [])
    width = max((len(str(p["player"])) for p in players), default=0) + 1
    rows = []
    for p in players:
        name = str(p["player"]) + ("*" if p["player"] == you else "")
        found, total = int(p.get("foundation") or 0), int(p.get("total") or 0)
        moves = plural(int(p.get("moves") or 0), "move")
        rows.append(
            f"{name.ljust(width)} {bar(found, total)} {found}/{total}  {moves}  "
            f"{clock(p.get('time_ms') or 0)}  {member_status(p)}"
        )
    return rows


def result_table(race: Race) -> str:
    rows: list[Sequence[Any]] = []
    for p in race.get("players") or []:
        rows.append(
            [
                p.get("place") or "-",
                p["player"],
                p.get("status"),
                f"{p.get('foundation', 0)}/{p.get('total', 0)}",
                p.get("moves", 0),
                clock(p.get("time_ms") or 0),
            ]
        )
    return table(rows, ["place", "player", "result", "cards", "moves", "time"])


def race_text(race: Race, you: str | None = None, titles: Titles | None = None) -> str:
    """The whole race as text, whatever its status."""
    status = race.get("status")
    if status == "lobby":
        return lobby_text(race, you, titles)
    head = f"race {race.get('code')} · {title(str(race.get('game')), titles)} · {status}"
    if status == "countdown":
        left = seconds_left(race, _now_ms())
        return (
            f"{head}: starts in {left:.1f} s\n" + lobby_text(race, you, titles).split("\n", 1)[-1]
        )
    if status == "finished":
        return f"{head}\n{result_table(race)}"
    return "\n".join([head, *("  " + r for r in progress_rows(race, you))])


def _now_ms() -> int:
    import time

    return int(time.time() * 1000)


class RaceScript(Script):
    """Script mode for a race: events print as they come; commands from stdin."""

    def __init__(
        self,
        conn: Connection,
        race: Race,
        out: TextIO,
        titles: Titles | None,
        state: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(conn, state or {}, out, titles)
        self.race: dict[str, Any] = dict(race)
        self.started = asyncio.Event()
        self.finished = asyncio.Event()
        self.last = ""
        if state:
            self.started.set()
        if race.get("status") == "finished":
            self.finished.set()
        conn.on_event = self.event

    @property
    def you(self) -> str | None:
        return self.conn.player

    def show_race(self) -> None:
        text = race_text(self.race, self.you, self.titles)
        if text != self.last:
            self.last = text
            self.say(text)

    def event(self, push: Push) -> None:
        fields = push.fields
        if fields.get("race_id") != self.race.get("race_id"):
            offer = push.name == Event.RACE and fields.get("status") == "lobby"
            if offer and self.race.get("status") == "finished":  # a member made a rematch
                self.say(
                    f"{fields.get('creator')} offers a rematch (race {fields.get('code')}): "
                    "'rematch' joins it"
                )
            return
        if push.name == Event.RACE:
            self.race = dict(fields)
            self.show_race()
            if self.race.get("status") == "finished":
                self.finished.set()
        elif push.name == Event.RACE_STARTED and isinstance(fields.get("state"), dict):
            self.state = dict(fields["state"])
            self.say("go! your game on the race's deal:")
            self.board()
            self.started.set()

    def intro(self) -> None:
        self.show_race()
        self.say(
            f"share the code {self.race.get('code')}: pasyans race join {self.race.get('code')}"
        )
        if self.started.is_set():
            self.board()

    async def command(self, line: str) -> None:
        word = line.lower()
        rid = str(self.race["race_id"])
        if word == "start":
            self.race = await self.conn.race_start(rid)
            self.show_race()
        elif word == "leave":
            await self.conn.race_leave(rid)
            self.say("you left the race")
        elif word == "rematch":
            self.race = await self.conn.race_rematch(rid)
            self.state = {}
            self.started.clear()
            self.finished.clear()
            self.last = ""
            self.show_race()
        elif word == "race":
            self.last = ""
            self.show_race()
        elif word == "wait":
            await self.wait(self.started, WAIT_START, "the deal")
        elif word in ("wait finished", "wait finish", "wait end"):
            await self.wait(self.finished, WAIT_FINISH, "the end of the race")
        elif not self.started.is_set():
            raise NotationError(
                "the race has not started yet: 'start' (its creator), or 'wait' for the deal"
            )
        else:
            await super().command(line)

    async def wait(self, flag: asyncio.Event, limit: float, what: str) -> None:
        try:
            await asyncio.wait_for(flag.wait(), limit)
        except TimeoutError:
            raise NotationError(f"gave up waiting for {what} after {limit:g} s") from None
