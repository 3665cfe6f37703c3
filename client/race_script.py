"""Script mode for races: every change of the race printed as text lines (see
:mod:`client.races`), commands read from stdin.

``pasyans race new GAME`` / ``pasyans race join CODE`` without a terminal (or with
``--script``) print every ``race`` event as text lines and read commands from stdin:
everything ``play --script`` takes (once the race runs), plus

- ``start``  start the race (its creator only), ``leave``  leave it,
- ``wait``  wait until your game is dealt, ``wait finished``  until every member is done,
- ``race``  print the race again, ``rematch``  a new race with the same members
  once this one is over,
- ``end``  end a running race (its creator): every game still in play is given up,
- ``drop NAME``  drop a member who is away (its creator).
"""

from __future__ import annotations

import asyncio
from typing import Any, TextIO

from protocol.messages import Push

from .connection import Connection
from .lang import N_, _
from .notation import NotationError
from .races import Race, join_command, race_text, read_event
from .script import Script
from .text import Titles

#: seconds ``wait`` waits for the deal, and ``wait finished`` for the end of the race
WAIT_START = 300.0
WAIT_FINISH = 3600.0
#: what ``wait`` and ``wait finished`` say when they give up
GAVE_UP_START = N_("gave up waiting for the deal after {seconds}")
GAVE_UP_FINISH = N_("gave up waiting for the end of the race after {seconds}")
#: the words after ``wait`` that wait for the end of the race
FINISH_WORDS = (["finished"], ["finish"], ["end"])


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
        news = read_event(self.race, push)
        if news.rematch is not None:
            offer = news.rematch
            if offer.get("creator") == self.you:  # the rematch this script is making
                return
            self.say(
                _(
                    "{creator} offers a rematch (race {code}): 'rematch' joins it",
                    creator=offer.get("creator"),
                    code=offer.get("code"),
                )
            )
        elif news.race is not None:
            self.race = news.race
            self.show_race()
            if self.race.get("status") == "finished":
                self.finished.set()
        elif news.dealt is not None:
            self.state = news.dealt
            self.say(_("go! your game on the race's deal:"))
            self.board()
            self.started.set()

    def intro(self) -> None:
        self.show_race()
        code = str(self.race.get("code"))
        self.say(_("share the code {code}: {command}", code=code, command=join_command(code)))
        if self.race.get("url"):
            self.say(_("or the link: {url}", url=self.race["url"]))
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
            self.say(_("you left the race"))
        elif word == "end":
            self.race = await self.conn.race_end(rid)
            self.show_race()
            if self.race.get("status") == "finished":
                self.finished.set()
        elif word == "drop" or word.startswith("drop "):
            who = line.split(None, 1)[1].strip() if " " in line.strip() else ""
            if not who:
                raise NotationError(_("drop whom? 'drop NAME' (a member who is away)"))
            self.race = await self.conn.race_drop(rid, who)
            self.show_race()
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
            await self.wait(self.started, WAIT_START, GAVE_UP_START)
        elif word.startswith("wait ") and word.split()[1:] in FINISH_WORDS:
            await self.wait(self.finished, WAIT_FINISH, GAVE_UP_FINISH)
        elif not self.started.is_set():
            raise NotationError(
                _("the race has not started yet: 'start' (its creator), or 'wait' for the deal")
            )
        else:
            await super().command(line)

    async def wait(self, flag: asyncio.Event, limit: float, gave_up: str) -> None:
        """Wait for ``flag`` at most ``limit`` s; else say ``gave_up`` (a message)."""
        try:
            await asyncio.wait_for(flag.wait(), limit)
        except TimeoutError:
            raise NotationError(_(gave_up, seconds=limit)) from None
