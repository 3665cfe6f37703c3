"""Watching a race on the Textual client (``pasyans race watch CODE``): the race's
progress panel, live from ``race`` events, and every member's board as they see it
(face-down cards stay hidden) once every member's game is over (``race_board``; while
anybody plays the server shows no card), side by side or one at a time (Tab goes to
the next, ``b`` back to all). A spectator plays no part: no move is offered."""

from __future__ import annotations

import contextlib

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer
from textual.screen import Screen
from textual.widgets import Static

from protocol.messages import Push

from ..connection import ClientError
from ..drawing import draw
from ..host import Host, host
from ..lang import N_, _
from ..text import status_line, title
from ..watch import HELD_BACK, Watched, watchers_words
from ..widgets import KeyFooter
from .race import panel_text, race_status

#: columns of the progress panel
PANEL = 40


class WatchScreen(Screen[None]):
    DEFAULT_CSS = """
    WatchScreen #watch-title { padding: 0 1; height: 1; }
    WatchScreen #watch-body { height: 1fr; }
    WatchScreen #watch-scroll { width: 1fr; }
    WatchScreen #watch-panel { width: 40; padding: 0 1; border-left: solid $primary; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("tab", "next_board(1)", N_("Next board"), priority=True),
        Binding("shift+tab", "next_board(-1)", N_("Previous"), show=False, priority=True),
        Binding("b", "all_boards", N_("All boards")),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, watched: Watched) -> None:
        super().__init__()
        self.watched = watched
        #: the member whose board is shown alone, or "" for all side by side
        self.one = ""

    @property
    def host(self) -> Host:
        return host(self)

    def compose(self) -> ComposeResult:
        yield Static(id="watch-title")
        with Horizontal(id="watch-body"):
            with ScrollableContainer(id="watch-scroll"):
                yield Static(id="watch-boards")
            yield Static(id="watch-panel", markup=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.host.race_listener = self.event
        self.redraw()

    def on_unmount(self) -> None:
        if self.host.race_listener == self.event:
            self.host.race_listener = None

    def event(self, push: Push) -> None:
        if self.watched.apply(push) is not None:
            self.redraw()

    def boards_renderable(self, width: int) -> RenderableType:
        """The boards shown: one, or all side by side (each in its share of ``width``)."""
        players = self.watched.players
        if not players:
            return Text(_("no board yet: the race is not dealt (its members wait in the lobby)"))
        shown = [self.one] if self.one in players else players
        each = max(20, width // len(shown) - 2)
        grid = Table.grid(padding=(0, 2))
        for _player in shown:
            grid.add_column(no_wrap=True)
        cells: list[RenderableType] = []
        for player in shown:
            state = self.watched.board(player)
            counters = self.watched.counters(player)
            head = Text(f"{player}\n{status_line(counters)}\n", style="bold", no_wrap=True)
            view = state.get("view")
            if view is None:
                cells.append(Group(head, Text(_("cards hidden"), style="italic")))
            else:
                cells.append(Group(head, draw(view.get("piles") or [], width=each).rich()))
        grid.add_row(*cells)
        if any(self.watched.board(p).get("view") is None for p in shown):
            return Group(Text(_(HELD_BACK) + "\n", style="italic"), grid)  # wrapped, whole
        return grid

    def redraw(self) -> None:
        race = self.watched.race
        which = _("{player}'s board", player=self.one) if self.one else _("all boards")
        head = _(
            "watching race {code} · {game} · {status} · {which}",
            code=race.get("code"),
            game=title(str(race.get("game")), self.host.titles),
            status=race_status(race),
            which=which,
        )
        self.query_one("#watch-title", Static).update(Text(head, no_wrap=True))
        width = max(40, self.app.size.width - PANEL - 4)
        self.query_one("#watch-boards", Static).update(self.boards_renderable(width))
        panel = panel_text(race, None, narrow=True)
        self.query_one("#watch-panel", Static).update(f"{panel}\n\n{watchers_words(race)}")

    def action_next_board(self, step: int = 1) -> None:
        players = self.watched.players
        if not players:
            return
        i = players.index(self.one) if self.one in players else (-1 if step > 0 else 0)
        self.one = players[(i + step) % len(players)]
        self.redraw()

    def action_all_boards(self) -> None:
        self.one = ""
        self.redraw()

    async def action_leave(self) -> None:
        with contextlib.suppress(ClientError):  # disconnecting stops watching too
            await self.host.conn.race_unwatch(str(self.watched.race.get("race_id")))
        self.host.leave_board()
