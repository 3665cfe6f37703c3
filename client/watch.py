"""Watching a race without playing it (``pasyans race watch CODE``): what a
spectator holds (the race, each member's board), how events change it, and the
plain-text watcher of script mode. The Textual screen is
:mod:`client.screens.watch`."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from protocol.messages import Event, Push

from .connection import Connection
from .drawing import draw
from .lang import N_, _, ngettext
from .races import race_text
from .status import EXIT_OK
from .text import Titles, status_line

#: seconds the text watcher waits for the race to end
WAIT_FINISH = 3600.0


@dataclass
class Watched:
    """A race as its spectator sees it: the race object and each member's board (the
    ``state`` of a ``race_board``: the member's view, no id, no legal moves, no seed)."""

    race: dict[str, Any]
    boards: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, reply: Mapping[str, Any]) -> Watched:
        """From ``race_watch``'s reply."""
        boards = {str(b["player"]): dict(b["state"]) for b in reply.get("boards") or []}
        return cls(dict(reply["race"]), boards)

    @property
    def players(self) -> list[str]:
        """The members, in the race's order: those with a board, or once the race is
        dealt every member (a board the server holds back until the race is over)."""
        order = [str(p["player"]) for p in self.race.get("players") or []]
        dealt = self.race.get("status") in ("running", "finished")
        shown = [p for p in order if p in self.boards or dealt]
        return shown + sorted(set(self.boards) - set(order))

    def board(self, player: str) -> dict[str, Any]:
        """``player``'s board (``view`` None while the server holds it back)."""
        return self.boards.get(player) or {"view": None}

    @property
    def finished(self) -> bool:
        return self.race.get("status") == "finished"

    def counters(self, player: str) -> dict[str, Any]:
        """What to say of ``player``'s game: their board's counters, or while their
        board is held back (the race still runs) their row of the race, newer."""
        board = self.board(player)
        if board.get("view") is not None:
            return board
        rows = [p for p in self.race.get("players") or [] if p.get("player") == player]
        return dict(rows[0]) if rows else board

    def apply(self, push: Push) -> str | None:
        """Take in an event of this race: ``"race"``, ``"board"`` (then the member's
        name is in ``last``) or None (another race's, or no event of a spectator)."""
        fields = push.fields
        if fields.get("race_id") != self.race.get("race_id"):
            return None
        if push.name == Event.RACE:
            self.race = dict(fields)
            return "race"
        state = fields.get("state")
        if push.name == Event.RACE_BOARD and isinstance(state, dict):
            self.last = str(fields.get("player"))
            self.boards[self.last] = dict(state)
            return "board"
        return None

    last: str = ""


def watchers_words(race: Mapping[str, Any]) -> str:
    n = int(race.get("watchers") or 0)
    return ngettext("{n} watching", "{n} watching", n) if n else _("nobody watching")


def progress_text(watched: Watched, titles: Titles | None = None) -> str:
    """The race as text, with how many watch."""
    return f"{race_text(watched.race, None, titles)}\n  ({watchers_words(watched.race)})"


#: what a spectator is told instead of a board while the race runs
HELD_BACK = N_(
    "cards shown once every member's game is over (while anybody plays, no spectator "
    "sees a card: all play the same deal)"
)


def board_text(player: str, state: Mapping[str, Any], counters: Mapping[str, Any]) -> str:
    """A member's board as text: their name and ``counters``, and the cards
    (face-down ones as the member sees them: hidden), or why they are not shown yet."""
    view = state.get("view")
    if view is None:
        return f"{player} · {status_line(counters)}\n{_(HELD_BACK)}"
    return f"{player} · {status_line(state)}\n{draw(view.get('piles') or []).plain()}"


async def watch_text(
    conn: Connection,
    code: str,
    out: TextIO,
    titles: Titles | None = None,
    *,
    limit: float = WAIT_FINISH,
) -> int:
    """Print the race and its boards, then each change, until the race is over."""
    watched = Watched.of(await conn.race_watch(code))
    done = asyncio.Event()
    last = ""

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def show_race() -> None:
        nonlocal last
        text = progress_text(watched, titles)
        if text != last:
            last = text
            say(text)
        if watched.finished:
            done.set()

    def event(push: Push) -> None:
        what = watched.apply(push)
        if what == "race":
            show_race()
        elif what == "board":
            say(f"{watched.last}: {status_line(watched.boards[watched.last])}")

    say(_("watching race {code} (a spectator: you cannot play it)", code=code))
    show_race()
    for player in watched.players:
        say(board_text(player, watched.board(player), watched.counters(player)))
    conn.on_event = event
    try:
        await asyncio.wait_for(done.wait(), limit)
    except TimeoutError:
        say(_("gave up watching after {seconds}", seconds=limit))
    finally:
        conn.on_event = None
    for player in watched.players:
        say(board_text(player, watched.board(player), watched.counters(player)))
    return EXIT_OK
