"""The lobby of tournaments (t on the home screen): the ones upcoming and running —
public ones, yours, those you are invited to — and yours finished lately; Enter
opens one, n makes one on the game chosen at home (when it starts, how long), j
joins one by its code."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Static

from protocol.messages import RACE_CODE_RE

from .. import tournaments as tours
from ..connection import ClientError
from ..lang import N_, _
from ..text import title
from .base import LIST_CSS, ListScreen, acting
from .dialogs import MODAL_CSS
from .tournament import TournamentScreen


class TournamentsScreen(ListScreen):
    DEFAULT_CSS = LIST_CSS.format(name="TournamentsScreen")
    TABLE = "tournaments"
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("enter", "open", N_("Open")),
        Binding("n", "new", N_("New tournament")),
        Binding("j", "join", N_("Join by code")),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        #: the game chosen on the home screen: a new tournament is on it
        self.game = game
        self.rows: list[dict[str, Any]] = []

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("code"), _("game"), _("when"), _("players"), "")
        table.focus()
        self.set_interval(1.0, self.draw_rows)

    def on_screen_resume(self) -> None:
        self.load()

    def load(self, note: str = "") -> None:
        self.fetch(lambda: tours.lobby(self.host.conn), lambda rows: self.draw(rows, note))

    def draw(self, rows: list[dict[str, Any]], note: str = "") -> None:
        self.rows = [dict(t) for t in tours.sorted_lobby(rows)]
        self.query_one("#head", Static).update(
            _("pasyans · tournaments: the same deals for everybody, for points")
        )
        self.draw_rows()
        hint = _("Enter opens · n a new one · j joins by code · q back")
        if not self.rows:
            hint = _("no tournament yet: n makes one, j joins a friend's by its code")
        self.say(f"{note} · {hint}" if note else hint)

    def draw_rows(self) -> None:
        with self.unless_gone():
            table = self.query_one(DataTable)
            row = table.cursor_row
            table.clear()
            you = self.host.conn.player
            for t in self.rows:
                table.add_row(*tours.lobby_row(t, you, self.host.titles))
            if 0 <= row < len(self.rows):
                table.move_cursor(row=row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    @acting
    async def action_open(self) -> None:
        row = self.query_one(DataTable).cursor_row
        if 0 <= row < len(self.rows):
            await self.open(str(self.rows[row]["code"]))

    async def open(self, code: str, *, enter: bool = False) -> str | None:
        """Show tournament ``code`` (entering it with ``enter``); the server's refusal."""
        conn = self.host.conn
        try:
            if enter:
                joined = await tours.join(conn, code)
                tournament, state = dict(joined["tournament"]), joined.get("state")
            else:
                tournament, state = await tours.show(conn, code), None
        except ClientError as exc:
            return str(exc)
        self.app.push_screen(
            TournamentScreen(tournament, state if isinstance(state, dict) else None)
        )
        return None

    def action_new(self) -> None:
        game = self.game or next(iter(self.host.titles), "")

        async def chosen(answer: tuple[int, int] | None) -> None:
            if answer is None:
                return
            starts_in, minutes = answer
            starts_at = tours.now_ms() + starts_in * 60_000
            try:
                made = await tours.create(self.host.conn, game, starts_at, minutes)
            except ClientError as exc:
                self.say(_("error: {error}", error=exc))
                return
            self.app.push_screen(TournamentScreen(made))

        self.app.push_screen(NewTournamentScreen(title(game, self.host.titles)), chosen)

    def action_join(self, code: str = "", error: str = "") -> None:
        async def typed(code: str | None) -> None:
            if not code:
                return
            refused = await self.open(code, enter=True)
            if refused is not None:
                self.action_join(code, refused)

        self.app.push_screen(JoinTournamentScreen(code, error), typed)


class NewTournamentScreen(ModalScreen[tuple[int, int] | None]):
    """When a new tournament starts and how long it lasts: ``s`` and ``l`` go round
    the choices, Enter makes it."""

    DEFAULT_CSS = MODAL_CSS.format(name="NewTournamentScreen")
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("s", "starts", N_("Start")),
        Binding("l", "length", N_("Length")),
        Binding("enter", "create", N_("Create")),
        Binding("escape", "dismiss(None)", N_("Cancel")),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self.starts = 0
        self.length = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            heading = escape(_("A tournament of {game}", game=self.game))
            yield Static(f"[b]{heading}[/b]")
            yield Static(id="choices")
            yield Static(
                "\n"
                + _("s: when it starts · l: how long · Enter creates it · Esc cancels")
                + "\n"
                + tours.scoring_words()
            )

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        def row(label: str, values: tuple[int, ...], chosen: int) -> str:
            cells = [f"[b][{v}][/b]" if i == chosen else str(v) for i, v in enumerate(values)]
            return f"{escape(label)} {' '.join(cells)} " + escape(_("min"))

        self.query_one("#choices", Static).update(
            row(_("starts in:"), tours.STARTS_IN, self.starts)
            + "\n"
            + row(_("lasts:"), tours.LENGTHS, self.length)
        )

    def action_starts(self) -> None:
        self.starts = (self.starts + 1) % len(tours.STARTS_IN)
        self.show()

    def action_length(self) -> None:
        self.length = (self.length + 1) % len(tours.LENGTHS)
        self.show()

    def action_create(self) -> None:
        self.dismiss((tours.STARTS_IN[self.starts], tours.LENGTHS[self.length]))


class JoinTournamentScreen(ModalScreen[str | None]):
    """Type a tournament's code; dismissed with it (upper case), or None."""

    DEFAULT_CSS = (
        MODAL_CSS.format(name="JoinTournamentScreen")
        + """
    JoinTournamentScreen #why { color: $warning; height: auto; }
    JoinTournamentScreen #buttons { height: auto; margin-top: 1; }
    JoinTournamentScreen Button { margin-right: 2; }
    """
    )
    BINDINGS = [Binding("escape", "dismiss(None)", N_("Cancel"))]  # noqa: RUF012

    def __init__(self, code: str = "", error: str = "") -> None:
        super().__init__()
        self.code = code
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical():
            heading = escape(_("Join a tournament"))
            shows = escape(_("the code a friend shared"))
            yield Static(f"[b]{heading}[/b] — {shows}", markup=True)
            yield Input(self.code, placeholder=_("e.g. {code}", code="T7QX2M"), max_length=14)
            yield Static(self.error, id="why", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Join"), id="join", variant="primary")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.join()

    @on(Button.Pressed, "#join")
    def join_pressed(self) -> None:
        self.join()

    @on(Button.Pressed, "#cancel")
    def cancel_pressed(self) -> None:
        self.dismiss(None)

    def join(self) -> None:
        text = self.query_one(Input).value
        code = "".join(text.split()).upper()
        if not RACE_CODE_RE.fullmatch(code):
            why = (
                _("type the tournament's code first")
                if not text.strip()
                else _("'{text}' is not a tournament code: letters and digits", text=text.strip())
            )
            self.query_one("#why", Static).update(why)
            return
        self.dismiss(code)
