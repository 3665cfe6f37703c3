"""Races on the Textual client: the lobby (members, the code to share, ``s`` starts
for the creator), the countdown, the board with a side panel of every member's
progress (updated live from ``race`` events, clocks ticking between them; who is
away; slimmer in a narrow terminal, ``t`` hides it), and the result table at the end.
The creator may end a running race (``e``) or drop the members who are away (``d``)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from protocol.messages import Push

from ..connection import ClientError
from ..host import Host, host
from ..lang import N_, _, current, ngettext
from ..races import (
    END_QUESTION,
    away_members,
    bar,
    drop_question,
    given_up_in,
    leave_question,
    leave_reminder,
    member_status,
    my_game_over,
    now_ms,
    read_event,
    result_table,
    seconds_left,
)
from ..text import clock, title
from ..widgets import BoardView, KeyFooter
from .board import BoardScreen
from .dialogs import MODAL_CSS, ConfirmScreen

Race = dict[str, Any]


#: a race's status (the protocol's value) in words
RACE_STATUS = {
    "lobby": N_("in the lobby"),
    "countdown": N_("starting"),
    "running": N_("running"),
    "finished": N_("over"),
}


def race_status(race: Mapping[str, Any]) -> str:
    status = str(race.get("status"))
    return _(RACE_STATUS[status]) if status in RACE_STATUS else status


#: below this many columns the race panel narrows, so the board keeps its room
NARROW_TERMINAL = 120


def panel_text(
    race: Mapping[str, Any], you: str | None, *, narrow: bool = False, later_ms: int = 0
) -> str:
    """The side panel: one block per member, you marked with *, who is away;
    ``narrow`` for the slim panel of a narrow terminal (a shorter bar, the counters on
    two lines). ``later_ms`` after the race event: the clocks of games in play and of
    absences move on by as much."""
    heading = escape(_("Race {code}", code=race.get("code")))
    lines = [f"[b]{heading}[/b] · {race_status(race)}", ""]
    limit = race.get("absent_limit_ms")
    for p in race.get("players") or []:
        name = escape(str(p["player"])) + (" *" if p["player"] == you else "")
        found, total = int(p.get("foundation") or 0), int(p.get("total") or 0)
        playing = p.get("status") == "playing" and race.get("status") == "running"
        ms = int(p.get("time_ms") or 0) + (later_ms if playing else 0)
        moves, time_ = ngettext("{n} move", "{n} moves", int(p.get("moves") or 0)), clock(ms)
        status = escape(
            member_status(
                p, later_ms=later_ms, limit_ms=None if narrow or limit is None else int(limit)
            )
        )
        lines.append(f"[b]{name}[/b]")
        lines.append(f"{escape(bar(found, total, 8 if narrow else 16))} {found}/{total}")
        if narrow:  # the time left before an away member's game is given up: a line
            lines.append(f"{moves} · {time_}")
            lines.append(status)
            left = given_up_in(p, later_ms=later_ms, limit_ms=None if limit is None else int(limit))
            if left is not None:
                lines.append(escape(_("given up in {clock}", clock=clock(left))))
        else:
            lines.append(f"{moves} · {time_} · {status}")
        lines.append("")
    return "\n".join(lines).rstrip()


class RaceScreen(Screen[None]):
    """The lobby and the countdown; it pushes the race board when the game is dealt."""

    DEFAULT_CSS = """
    RaceScreen { layout: vertical; }
    #race-title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #lobby { height: 1fr; padding: 1 2; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("s", "start", N_("Start")),
        Binding("e", "end", N_("End race")),
        Binding("d", "drop", N_("Drop away")),
        Binding("r", "rematch", N_("Rematch")),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, race: Race, state: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.race = race
        #: when the race was last heard of (ms): the panel's clocks run on from there
        self.heard_ms = now_ms()
        self.state = state
        self.board: RaceBoardScreen | None = None
        self.results_shown = False

    @property
    def host(self) -> Host:
        return host(self)

    @property
    def you(self) -> str | None:
        return self.host.conn.player

    def compose(self) -> ComposeResult:
        yield Static(id="race-title")
        yield Static(id="lobby", markup=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.host.race_listener = self.event
        self.set_interval(0.2, self.redraw)
        self.redraw()
        if self.state is not None:  # back in a running race
            self.deal(self.state)
        elif self.race.get("status") == "finished":
            self.show_results()

    def on_unmount(self) -> None:
        if self.host.race_listener == self.event:
            self.host.race_listener = None

    def lobby_text(self) -> str:
        race = self.race
        players = list(race.get("players") or [])
        status = race.get("status")
        lines = []
        if status == "lobby":
            code = escape(str(race.get("code")))
            bold = f"[b]{code}[/b]"
            lines.append(
                _(
                    "Share the code {code}: friends press j on their home screen and type "
                    "it, or run pasyans race join {code}; invite a friend from your friends "
                    "screen (f), or send the link:",
                    code=bold,
                )
            )
            lines.append(escape(str(race.get("url") or f"#race/{code}")))
            lines.append(
                _("Press s to start when everybody is in.")
                if self.creator
                else _("Waiting for the race's creator to start it.")
            )
        elif status == "countdown":
            left = seconds_left(race, now_ms())
            n = max(1, math.ceil(left))
            starting = ngettext("Starting in {n} second…", "Starting in {n} seconds…", n)
            lines.append(f"[b]{escape(starting)}[/b]")
        elif status == "finished":
            lines.append(_("The race is over: r for a rematch on a new deal, q to leave."))
        else:
            lines.append(escape(_("The race is {status}.", status=race_status(race))))
        if race.get("date"):
            lines.append(
                _(
                    "On the daily deal of {day}: your daily attempt, unless you have played "
                    "that daily already.",
                    day=current().date(str(race["date"])),
                )
            )
        lines.append("")
        lines.append(ngettext("{n} player (up to 10):", "{n} players (up to 10):", len(players)))
        for p in players:
            name = escape(str(p["player"]))
            if p["player"] == self.you:
                name = _("{name} (you)", name=name)
            if p.get("away"):
                name = _("{name}, away", name=name)
            lines.append(f"  {name}")
        if self.creator and away_members(race, self.you):
            lines.append(_("d drops the members who are away."))
        return "\n".join(lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer only what works now: ``s`` to the creator of a race in its lobby,
        ``r`` once the race is over."""
        if action == "start":
            return self.creator and self.race.get("status") == "lobby"
        if action == "end":
            return self.creator and self.race.get("status") == "running"
        if action == "drop":
            return self.creator and bool(away_members(self.race, self.you))
        if action == "rematch":
            return self.race.get("status") == "finished"
        return True

    def set_race(self, race: Race) -> None:
        """The race as it is now: the text and the keys on offer follow it; when it
        says your game is over (the race was ended, you were dropped) while your board
        still shows it in play, the board fetches your game at once."""
        self.race = race
        self.heard_ms = now_ms()
        self.refresh_bindings()
        self.redraw()
        if self.board is not None:
            self.board.show_race(self.race)
            if self.board.playing and my_game_over(race, self.you):
                self.run_worker(self.board.fetch_game(), group="race-board")

    @property
    def creator(self) -> bool:
        """Whether we made this race (the server checks it anyway on ``s``)."""
        return bool(self.race.get("creator")) and self.race.get("creator") == self.you

    def redraw(self) -> None:
        head = _("Race · {game}", game=title(str(self.race.get("game")), self.host.titles))
        self.query_one("#race-title", Static).update(head)
        self.query_one("#lobby", Static).update(self.lobby_text())

    # -- events --------------------------------------------------------------

    def event(self, push: Push) -> None:
        news = read_event(self.race, push)
        if news.rematch is not None:
            if news.rematch.get("creator") != self.you:  # not the one we are making
                self.notify(
                    _(
                        "{player} offers a rematch: press r to join it",
                        player=news.rematch.get("creator"),
                    )
                )
        elif news.race is not None:
            self.set_race(news.race)
            if self.race.get("status") == "finished":
                self.show_results()
        elif news.dealt is not None:
            self.deal(news.dealt)

    def deal(self, state: dict[str, Any]) -> None:
        if self.board is not None:
            self.board.set_state(state)
            return
        self.board = RaceBoardScreen(state, self)
        self.app.push_screen(self.board)

    def show_results(self) -> None:
        if not self.results_shown:
            self.results_shown = True
            self.app.push_screen(ResultScreen(self.race))

    # -- keys ----------------------------------------------------------------

    async def ask(self, op: Callable[[str], Awaitable[Race]]) -> Race | None:
        """``op`` on this race (start, rematch): the race it answers, or None when
        the server refused (its words in a notification)."""
        try:
            return await op(str(self.race["race_id"]))
        except ClientError as exc:
            self.notify(str(exc), severity="error")
            return None

    async def action_start(self) -> None:
        if self.race.get("status") != "lobby":
            return
        race = await self.ask(self.host.conn.race_start)
        if race is not None:
            self.set_race(race)

    def action_end(self) -> None:
        """End the race now (its creator), once asked: every game still in play is
        given up."""

        async def confirmed(yes: bool | None) -> None:
            if yes:
                await self.end()

        self.app.push_screen(ConfirmScreen(END_QUESTION), confirmed)

    async def end(self) -> None:
        race = await self.ask(self.host.conn.race_end)
        if race is not None:
            self.set_race(race)
            if race.get("status") == "finished":
                self.show_results()

    def action_drop(self) -> None:
        """Drop every member who is away (its creator), once asked."""
        away = away_members(self.race, self.you)
        if not away:
            self.notify(_("nobody is away"), severity="warning")
            return

        async def confirmed(yes: bool | None) -> None:
            if yes:
                await self.drop(away)

        self.app.push_screen(ConfirmScreen(drop_question(away)), confirmed)

    async def drop(self, away: list[str]) -> None:
        dropped = []
        for who in away:
            try:
                race = await self.host.conn.race_drop(str(self.race["race_id"]), who)
            except ClientError as exc:
                self.notify(str(exc), severity="warning")
                continue
            dropped.append(who)
            self.set_race(race)
        if dropped:
            self.notify(_("dropped {names}", names=", ".join(dropped)))

    async def action_rematch(self) -> None:
        """A new race with the same members on a fresh deal, once this one is over."""
        if self.race.get("status") != "finished":
            self.notify(_("a rematch is offered once the race is over"), severity="warning")
            return
        race = await self.ask(self.host.conn.race_rematch)
        if race is None:
            return
        while self.app.screen is not self:
            self.app.pop_screen()
        self.state, self.board, self.results_shown = None, None, False
        self.set_race(race)

    def action_leave(self) -> None:
        """Leave the race's screens: asked first unless the race is over (the code to
        come back with, and when a game in play is given up)."""
        if self.race.get("status") == "finished":
            self.app.call_later(self.leave)
            return
        question = leave_question(self.race, self.you, quitting=self.host.quits_on_leave)

        async def confirmed(yes: bool | None) -> None:
            if yes:
                await self.leave()

        self.app.push_screen(ConfirmScreen(question), confirmed)

    async def leave(self) -> None:
        if self.race.get("status") in ("lobby", "countdown"):
            try:
                await self.host.conn.race_leave(str(self.race["race_id"]))
            except ClientError as exc:
                self.notify(str(exc), severity="warning")
        self.host.leave_race(leave_reminder(self.race, self.you))


class RaceBoardScreen(BoardScreen):
    """The board, with every member's progress on the right."""

    DEFAULT_CSS = """
    RaceBoardScreen #row { height: 1fr; }
    RaceBoardScreen #scroll { width: 1fr; }
    RaceBoardScreen #race-side { width: auto; height: 1fr; }
    RaceBoardScreen #race-panel {
        width: 34; height: 1fr; padding: 0 1; border-left: solid $primary;
    }
    RaceBoardScreen.narrow #race-panel { width: 24; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("t", "toggle_panel", N_("Race panel")),
        Binding("e", "end", N_("End race")),
        Binding("d", "drop", N_("Drop away")),
    ]

    def __init__(self, state: dict[str, Any], lobby: RaceScreen) -> None:
        super().__init__(state)
        self.lobby = lobby

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="row"):
            with ScrollableContainer(id="scroll"):
                yield BoardView(id="board")
            with Vertical(id="race-side"):
                yield Static(id="race-panel", markup=True)
        yield Static(id="counters")
        yield Static(id="hint")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.fit_panel(self.app.size.width)
        self.set_interval(1.0, lambda: self.show_race(self.lobby.race))

    def on_resize(self, event: events.Resize) -> None:
        self.fit_panel(event.size.width)

    def fit_panel(self, columns: int) -> None:
        self.set_class(columns < NARROW_TERMINAL, "narrow")
        self.show_race(self.lobby.race)

    def show_race(self, race: Mapping[str, Any]) -> None:
        if not self.is_mounted:
            return  # dealt a moment ago: its mounting draws the panel (``fit_panel``)
        later = max(0, now_ms() - self.lobby.heard_ms)
        narrow = self.has_class("narrow")
        text = panel_text(race, self.host.conn.player, narrow=narrow, later_ms=later)
        self.query_one("#race-panel", Static).update(text)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":  # races refuse hints
            return False
        if action in ("end", "drop"):  # the creator's, while they work
            return self.lobby.check_action(action, parameters)
        return super().check_action(action, parameters)

    def action_end(self) -> None:
        self.lobby.action_end()

    def action_drop(self) -> None:
        self.lobby.action_drop()

    async def fetch_game(self) -> None:
        """The game as the server has it now (the race said it is over)."""
        try:
            state = await self.host.conn.resume(str(self.state["game_id"]))
        except ClientError:
            return  # the next move or reconnection fetches it
        self.set_state(state)

    def action_toggle_panel(self) -> None:
        """Hide the race panel (the board gets its room) or show it again."""
        side = self.query_one("#race-side")
        side.display = not side.display
        self.say("")

    def too_wide(self) -> str:
        return _("the board is wider than the room beside the race panel: t hides the panel")

    async def show_end(self) -> None:
        # your game is over; the race's result table comes when everybody is done. Called
        # later (``call_later``): the screen may be gone by then (the app closing), its
        # status line with it
        with contextlib.suppress(NoMatches):
            self.say(_("your game is over: waiting for the others (the panel shows them)"))

    def action_leave(self) -> None:
        self.lobby.action_leave()


class ResultScreen(ModalScreen[None]):
    """The race's result: places, times, moves."""

    #: nearly the terminal's width: a result's row (place, player, result, cards, moves,
    #: time) on one line at 80 columns, in Russian too
    DEFAULT_CSS = MODAL_CSS.format(name="ResultScreen") + "ResultScreen > Vertical { width: 96%; }"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "dismiss", N_("Back")),
        Binding("escape", "dismiss", N_("Back")),
        Binding("r", "rematch", N_("Rematch")),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, race: Mapping[str, Any]) -> None:
        super().__init__()
        self.race = race

    def compose(self) -> ComposeResult:
        with Vertical():
            heading = escape(_("Race {code}: the result", code=self.race.get("code")))
            yield Static(f"[b]{heading}[/b]")
            yield Static(escape(result_table(self.race)), id="results")
            yield Static("\n" + _("Enter: back · r: rematch on a new deal · q: leave"))

    def action_leave(self) -> None:
        lobby = next((s for s in self.app.screen_stack if isinstance(s, RaceScreen)), None)
        if lobby is not None:
            lobby.action_leave()
        else:
            host(self).leave_race()

    async def action_rematch(self) -> None:
        lobby = next((s for s in self.app.screen_stack if isinstance(s, RaceScreen)), None)
        if lobby is not None:
            await lobby.action_rematch()
