"""Tournaments on the Textual client (issue 51): one tournament's screen (the code
and link to share, the countdown to its start, who is in, the scoring), the board of
its deals with the standings beside it (below it on a short terminal's title line:
the deal, your score and place), the next deal dealt as soon as one is over, and the
podium at the end. The lobby of tournaments is :mod:`.tournaments`."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static

from protocol.messages import Event, Push

from .. import tournaments as tours
from ..connection import ClientError
from ..host import Reconnected, host
from ..lang import N_, _, ngettext
from ..text import clock, end_words, title
from ..widgets import BoardView, KeyFooter
from .base import HostedScreen
from .board import BoardScreen
from .dialogs import MODAL_CSS, ConfirmScreen

Tournament = dict[str, Any]

#: below this many columns the standings panel narrows, so the board keeps its room
NARROW_TERMINAL = 120


def panel_text(t: Mapping[str, Any], you: str | None, deal: int | None, *, narrow: bool) -> str:
    """The standings beside the board: the tournament, its time left, your deal,
    score and place, then the leaders (you marked ``*``)."""
    width = 22 if narrow else 32
    head = escape(_("Tournament {code}", code=t.get("code")))
    lines = [f"[b]{head}[/b]", escape(tours.when_words(t))]
    row = tours.mine(t, you) or {}
    if deal:
        lines.append(escape(_("deal {n}", n=deal)))
    score = tours.points(int(row.get("score") or 0))
    lines.append("[b]" + escape(_("you: {points}", points=score)) + "[/b]")
    place = tours.place_words(row, t)
    if place:
        lines.append(escape(place))
    lines.append("")
    most = 8 if narrow else 12
    lines += [escape(r) for r in tours.standings_rows(t, you, most=most, width=width)]
    return "\n".join(lines)


def body_text(t: Mapping[str, Any], you: str | None, titles: Any) -> str:
    """A tournament's own screen: when, the code and link to share, the scoring, who
    is in (the standings once it runs)."""
    code = escape(str(t.get("code")))
    status = t.get("status")
    lines = []
    if status == "upcoming":
        left = clock(tours.until(t))
        lines.append("[b]" + escape(_("Starts in {clock}", clock=left)) + "[/b]")
    elif status == "running":
        left = clock(tours.until(t))
        lines.append("[b]" + escape(_("Running: {clock} left", clock=left)) + "[/b]")
    else:
        lines.append("[b]" + escape(_("The tournament is over.")) + "[/b]")
    minutes = int(t.get("minutes") or 0)
    lines.append(
        escape(
            _(
                "{game}, {minutes} minutes: deal 1, then deal 2, … the same deals for everybody.",
                game=title(str(t.get("game") or ""), titles),
                minutes=minutes,
            )
        )
    )
    lines.append(escape(tours.scoring_words()))
    if status != "finished":
        lines.append("")
        bold = f"[b]{code}[/b]"
        lines.append(
            _(
                "Share the code {code} (t, then j on the home screen) or the link; "
                "invite friends from your friends screen (f, then t):",
                code=bold,
            )
        )
        lines.append(escape(str(t.get("url") or f"#tournament/{code}")))
    lines.append("")
    n = tours.entrants(t)
    lines.append(escape(ngettext("{n} player", "{n} players", n)))
    if status == "upcoming":
        names = [str(r.get("player")) for r in tours.standings(t)]
        if names:
            lines.append("  " + escape(", ".join(names[:30])))
    else:
        lines += ["  " + escape(r) for r in tours.standings_rows(t, you, most=10)]
    if not t.get("joined") and status != "finished":
        lines.append("")
        lines.append(escape(_("Press Enter to enter the tournament.")))
    return "\n".join(lines)


class TournamentScreen(HostedScreen):
    """One tournament: before the start, its countdown; once it runs, your deal on
    the board (pushed); at the end, the podium."""

    DEFAULT_CSS = """
    TournamentScreen { layout: vertical; }
    TournamentScreen #head { height: 1; background: $primary; color: $text; padding: 0 1; }
    TournamentScreen #body { height: 1fr; padding: 0 1; }
    TournamentScreen #status { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "enter", N_("Play")),
        Binding("p", "podium", N_("Podium")),
        Binding("l", "leave_tournament", N_("Leave it")),
        Binding("escape", "back", N_("Back")),
        Binding("q", "back", N_("Back")),
    ]

    def __init__(self, tournament: Tournament, state: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.tournament = tournament
        self.state = state
        self.board: TournamentBoardScreen | None = None
        self.podium_shown = False

    @property
    def you(self) -> str | None:
        return self.host.conn.player

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield Static(id="body", markup=True)
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.host.tournament_listener = self.event
        self.set_interval(1.0, self.tick)
        self.say("")
        self.redraw()
        if self.state is not None:
            self.open_board(self.state)
        elif self.tournament.get("status") == "running" and self.tournament.get("joined"):
            self.act(self.play())
        elif self.tournament.get("status") == "finished":
            self.show_podium()

    def on_unmount(self) -> None:
        if self.host.tournament_listener == self.event:
            self.host.tournament_listener = None

    def redraw(self) -> None:
        with self.unless_gone():
            t = self.tournament
            self.query_one("#head", Static).update(tours.heading(t, self.host.titles))
            self.query_one("#body", Static).update(body_text(t, self.you, self.host.titles))

    def tick(self) -> None:
        """The clocks move on; at the start time, ask the server whether it began."""
        self.redraw()
        if self.board is not None:
            self.board.show_standings()
        status = self.tournament.get("status")
        if status in ("upcoming", "running") and tours.until(self.tournament) == 0:
            self.fetch(lambda: tours.show(self.host.conn, str(self.tournament["code"])), self.set)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        status = self.tournament.get("status")
        if action == "enter":
            joined = self.tournament.get("joined")
            return status == "running" or (status == "upcoming" and not joined)
        if action == "podium":
            return status == "finished"
        if action == "leave_tournament":
            return bool(self.tournament.get("joined")) and status != "finished"
        return True

    # -- the server's news ------------------------------------------------------

    def on_reconnected(self, message: Reconnected) -> None:
        """A new connection: an entrant's events come to it once it joins again."""
        if message.error is None and self.tournament.get("joined"):
            code = str(self.tournament["code"])

            async def rejoin() -> dict[str, Any]:
                return dict((await tours.join(self.host.conn, code))["tournament"])

            self.fetch(rejoin, self.set, group="rejoin")

    def event(self, push: Push) -> None:
        if push.name != Event.TOURNAMENT:
            return
        fields = dict(push.fields)
        fields.pop("ev", None)
        if fields.get("tournament_id") == self.tournament.get("tournament_id"):
            self.set({**self.tournament, **fields})

    def set(self, tournament: Mapping[str, Any]) -> None:
        """The tournament as it is now: when it starts, your deal is dealt; when it
        ends, the podium."""
        was = self.tournament.get("status")
        self.tournament = dict(tournament)
        self.refresh_bindings()
        self.redraw()
        if self.board is not None:
            self.board.show_standings()
        status = self.tournament.get("status")
        if was != "running" and status == "running" and self.tournament.get("joined"):
            self.act(self.play())
        if status == "finished":
            self.show_podium()

    # -- keys --------------------------------------------------------------------

    async def play(self) -> None:
        """Your deal (the one in play, else the next) on the board."""
        try:
            deal, state = await tours.play(self.host.conn, str(self.tournament["tournament_id"]))
        except ClientError as exc:
            self.say(_("error: {error}", error=exc))
            return
        self.open_board(state, deal)

    def open_board(self, state: dict[str, Any], deal: int | None = None) -> None:
        deal = deal or int(self.tournament.get("deal") or 0) or None
        if self.board is not None:
            self.board.deal = deal
            self.board.set_state(state)
            return
        self.board = TournamentBoardScreen(state, self, deal)
        self.app.push_screen(self.board)

    def board_closed(self) -> None:
        self.board = None

    def action_enter(self) -> None:
        self.act(self.enter())

    async def enter(self) -> None:
        t = self.tournament
        if not t.get("joined"):
            try:
                joined = await tours.join(self.host.conn, str(t["code"]))
            except ClientError as exc:
                self.say(_("error: {error}", error=exc))
                return
            self.set(dict(joined.get("tournament") or t))
            if isinstance(joined.get("state"), dict):
                self.open_board(joined["state"])
                return
            if self.board is not None:
                return  # it started meanwhile: the board is up
            if self.tournament.get("status") != "running":
                self.say(_("you are in: your first deal is dealt at the start"))
                return
        if self.tournament.get("status") == "running" and self.board is None:
            await self.play()

    def action_podium(self) -> None:
        self.podium_shown = False
        self.show_podium()

    def show_podium(self) -> None:
        if self.podium_shown:
            return
        self.podium_shown = True
        if self.board is not None:
            self.board.dismiss_board()
        self.app.push_screen(PodiumScreen(self.tournament, self.you))

    def action_leave_tournament(self) -> None:
        question = (
            _("Leave the tournament? Your deal in play is given up; your points stay.")
            if self.tournament.get("status") == "running"
            else _("Leave the tournament before it starts?")
        )

        async def confirmed(yes: bool | None) -> None:
            if yes:
                try:
                    await tours.leave(self.host.conn, str(self.tournament["tournament_id"]))
                except ClientError as exc:
                    self.say(_("error: {error}", error=exc))
                    return
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen(question), confirmed)

    def action_back(self) -> None:
        self.app.pop_screen()


class TournamentBoardScreen(BoardScreen):
    """A deal of the tournament, the standings on the right; once the deal is over,
    the next one is dealt."""

    DEFAULT_CSS = """
    TournamentBoardScreen #row { height: 1fr; }
    TournamentBoardScreen #scroll { width: 1fr; }
    TournamentBoardScreen #tour-side { width: auto; height: 1fr; }
    TournamentBoardScreen #tour-panel {
        width: 36; height: 1fr; padding: 0 1; border-left: solid $primary;
    }
    TournamentBoardScreen.narrow #tour-panel { width: 26; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("t", "toggle_panel", N_("Standings")),
    ]

    def __init__(self, state: dict[str, Any], lobby: TournamentScreen, deal: int | None) -> None:
        super().__init__(state)
        self.lobby = lobby
        #: the deal's number in the tournament's sequence (1 first)
        self.deal = deal

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="row"):
            with ScrollableContainer(id="scroll"):
                yield BoardView(id="board")
            with Vertical(id="tour-side"):
                yield Static(id="tour-panel", markup=True)
        yield Static(id="counters")
        yield Static(id="hint")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        super().on_mount()
        self.fit_panel(self.app.size.width)

    def on_unmount(self) -> None:
        if self.lobby.board is self:
            self.lobby.board_closed()

    def on_resize(self, event: events.Resize) -> None:
        self.fit_panel(event.size.width)

    def fit_panel(self, columns: int) -> None:
        self.set_class(columns < NARROW_TERMINAL, "narrow")
        self.show_standings()

    def show_standings(self) -> None:
        if not self.is_mounted:
            return
        text = panel_text(
            self.lobby.tournament, self.host.conn.player, self.deal, narrow=self.has_class("narrow")
        )
        with contextlib.suppress(NoMatches):
            self.query_one("#tour-panel", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":  # ranked rules: no hints
            return False
        return super().check_action(action, parameters)

    def action_toggle_panel(self) -> None:
        side = self.query_one("#tour-side")
        side.display = not side.display

    def too_wide(self) -> str:
        return _("the board is wider than the room beside the standings: t hides them")

    async def show_end(self) -> None:
        """The deal is over: say how it went, then deal the next one (while the
        tournament runs)."""
        with contextlib.suppress(NoMatches):
            said = end_words(self.state)
            if self.deal:
                said = _("deal {n}: {result}", n=self.deal, result=said)
            self.say(said)
        if self.lobby.tournament.get("status") != "running":
            return
        try:
            deal, state = await tours.play(
                self.host.conn, str(self.lobby.tournament["tournament_id"])
            )
        except ClientError as exc:
            with contextlib.suppress(NoMatches):
                self.say(_("error: {error}", error=exc))
            return
        if state.get("game_id") != self.state.get("game_id"):
            self.deal = deal
            self.set_state(state)
            with contextlib.suppress(NoMatches):
                self.notify(_("deal {n} dealt", n=self.deal or "?"))
        self.show_standings()

    def dismiss_board(self) -> None:
        """The tournament is over: the board gives way to the podium."""
        if self.app.screen is self:
            self.app.pop_screen()

    def action_leave(self) -> None:
        self.app.pop_screen()


class PodiumScreen(ModalScreen[None]):
    """The end of a tournament: the first three, your place and score."""

    DEFAULT_CSS = MODAL_CSS.format(name="PodiumScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "dismiss", N_("Back")),
        Binding("escape", "dismiss", N_("Back")),
        Binding("q", "dismiss", N_("Back")),
    ]

    def __init__(self, tournament: Mapping[str, Any], you: str | None) -> None:
        super().__init__()
        self.tournament = tournament
        self.you = you

    def compose(self) -> ComposeResult:
        t = self.tournament
        with Vertical():
            heading = escape(_("Tournament {code}: the podium", code=t.get("code")))
            yield Static(f"[b]{heading}[/b]")
            yield Static(escape(title(str(t.get("game") or ""), host(self).titles)))
            yield Static("")
            lines = [escape(line) for line in tours.podium_lines(t, self.you)]
            if lines and lines[0].startswith("1. "):
                lines[0] = f"[b]{lines[0]}[/b]"  # the winner
            yield Static("\n".join(lines), id="podium")
            yield Static("\n" + _("Enter: back · your result is in your history (h)"))
